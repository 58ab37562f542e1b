#include "driver_unsupported.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "driver_api.h"

namespace ptxsim::driver {

int unsupported(const char* name, const char* leftOutBecause) {
  // Once per function, as the message is for a person reading the log.
  static std::mutex mutex;
  static std::set<std::string> reported;
  std::lock_guard lock(mutex);
  if (reported.insert(name).second) {
    if (leftOutBecause != nullptr) {
      std::fprintf(stderr, "ptxsim: %s is not supported by ptxsim: %s\n", name, leftOutBecause);
    } else {
      std::fprintf(stderr, "ptxsim: %s is not supported yet\n", name);
    }
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace ptxsim::driver
