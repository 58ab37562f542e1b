// Initialisation, versions and error strings of the driver API.

#include <cstring>

#include "driver_api.h"
#include "driver_errors.h"
#include "driver_state.h"

using ptxsim::driver::driverState;

namespace {
// The CUDA version this driver reports: that of the toolkit ptxsim is built
// for, so that a CUDA 13 runtime accepts it.
constexpr int kDriverVersion = 13000;
}  // namespace

DRIVER_EXPORT CUresult cuInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driverState().mutex());
  driverState().setInitialized();
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = kDriverVersion;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuGetErrorName(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const ptxsim::driver::ErrorText* text = ptxsim::driver::errorText(error);
  if (text == nullptr) {
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pStr = text->name;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuGetErrorString(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const ptxsim::driver::ErrorText* text = ptxsim::driver::errorText(error);
  if (text == nullptr) {
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pStr = text->description;
  return CUDA_SUCCESS;
}

namespace ptxsim::driver {
int driverVersion() { return kDriverVersion; }
}  // namespace ptxsim::driver
