#include "unsupported.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "shim_state.h"

namespace ptxsim::cudart {

void reportUnsupportedOnce(const char* name, const char* leftOutBecause) {
  // Once per function, as the message is for a person reading the log.
  static std::mutex mutex;
  static std::set<std::string> reported;
  std::lock_guard lock(mutex);
  if (!reported.insert(name).second) return;
  if (leftOutBecause != nullptr) {
    std::fprintf(stderr, "ptxsim: %s is not supported by ptxsim: %s\n", name, leftOutBecause);
  } else {
    std::fprintf(stderr, "ptxsim: %s is not supported yet\n", name);
  }
}

int unsupported(const char* name, const char* leftOutBecause) {
  reportUnsupportedOnce(name, leftOutBecause);
  return static_cast<int>(result(cudaErrorNotSupported));
}

}  // namespace ptxsim::cudart
