#include "driver_unsupported.h"

#include "driver_api.h"
#include "unsupported.h"

namespace ptxsim::driver {

int unsupported(const char* name, const char* leftOutBecause) {
  cudart::reportUnsupportedOnce(name, leftOutBecause);
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace ptxsim::driver
