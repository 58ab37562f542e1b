// The door ptxsim's NVRTC (runtime/nvrtc) hands the PTX of the cubins it
// makes through: a cubin loaded later (cuModuleLoadData, cudaLibraryLoadData)
// runs as that PTX.

#include <cstddef>
#include <mutex>
#include <string>

#include "shim_state.h"

extern "C" __attribute__((visibility("default"))) void ptxsimRegisterCubinPtx(const void* cubin, size_t bytes,
                                                                              const char* ptx) {
  if (cubin == nullptr || ptx == nullptr) return;
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  s.addCubinPtx(std::string(static_cast<const char*>(cubin), bytes), ptx);
}
