#pragma once

// What ptxsim's NVRTC and nvJitLink (build/lib/libnvrtc.so.13,
// libnvJitLink.so.13) share: each forwards every call to NVIDIA's library
// of the same name, so that a program sees NVIDIA's results and logs, and
// hands ptxsim's driver the PTX of each cubin it makes, since the simulator
// runs PTX, not machine code.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ptxsim::forwarding {

// NVIDIA's library `soname` from the CUDA toolkit, bound to itself
// (RTLD_DEEPBIND) so that its calls between its own functions do not come
// back to ptxsim's. Aborts with a message when the toolkit lacks it.
inline void* openNvidiaLibrary(const char* soname) {
  std::vector<std::string> candidates;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    candidates.push_back(std::string(home) + "/lib64/" + soname);
  }
  candidates.push_back(std::string("/usr/local/cuda/lib64/") + soname);
  for (const std::string& path : candidates) {
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)) return h;
  }
  std::fprintf(
      stderr,
      "ptxsim: error: NVIDIA's %s was not found (looked in $CUDA_HOME/lib64 and /usr/local/cuda/lib64); "
      "ptxsim's forwards to it\n",
      soname);
  std::abort();
}

// A function of NVIDIA's library; aborts with a message when it is missing.
template <typename Function>
Function* nvidiaFunction(void* library, const char* soname, const char* name) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) {
    std::fprintf(stderr, "ptxsim: error: NVIDIA's %s has no %s\n", soname, name);
    std::abort();
  }
  return reinterpret_cast<Function*>(symbol);
}

// NVIDIA's library `Soname`, opened once, and its functions.
template <const char* Soname>
struct NvidiaLibrary {
  static void* handle() {
    static void* library = openNvidiaLibrary(Soname);
    return library;
  }
  template <typename Function>
  static Function* function(const char* name) {
    return nvidiaFunction<Function>(handle(), Soname, name);
  }
};

// Tells ptxsim's driver (libcuda.so.1) the PTX a cubin was made from: the
// driver runs that PTX when the cubin is loaded (cuModuleLoadData and the
// like). Nothing happens outside ptxsim (no such driver function).
inline void registerCubinPtx(const void* cubin, size_t bytes, const std::string& ptx) {
  using Register = void(const void*, size_t, const char*);
  static Register* registerPtx = [] {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    return driver != nullptr ? reinterpret_cast<Register*>(dlsym(driver, "ptxsimRegisterCubinPtx")) : nullptr;
  }();
  if (registerPtx != nullptr) registerPtx(cubin, bytes, ptx.c_str());
}

}  // namespace ptxsim::forwarding
