#include "unsupported.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "shim_state.h"

namespace ptxsim::cudart {

int unsupported(const char* name) {
  // Once per function, as the message is for a person reading the log.
  static std::mutex mutex;
  static std::set<std::string> reported;
  {
    std::lock_guard lock(mutex);
    if (reported.insert(name).second) std::fprintf(stderr, "ptxsim: %s is not supported yet\n", name);
  }
  return static_cast<int>(result(cudaErrorNotSupported));
}

}  // namespace ptxsim::cudart
