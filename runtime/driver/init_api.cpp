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

namespace {

// One of the texts of a CUresult CUDA knows (name or description).
CUresult errorTextOf(CUresult error, const char** pStr, const char* ptxsim::driver::ErrorText::*field) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const ptxsim::driver::ErrorText* text = ptxsim::driver::errorText(error);
  *pStr = text != nullptr ? text->*field : nullptr;
  return text != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // namespace

DRIVER_EXPORT CUresult cuGetErrorName(CUresult error, const char** pStr) {
  return errorTextOf(error, pStr, &ptxsim::driver::ErrorText::name);
}

DRIVER_EXPORT CUresult cuGetErrorString(CUresult error, const char** pStr) {
  return errorTextOf(error, pStr, &ptxsim::driver::ErrorText::description);
}

namespace ptxsim::driver {
int driverVersion() { return kDriverVersion; }
}  // namespace ptxsim::driver

// The error log (cuLogs*): the messages ptxsim reported, which the runtime's
// cudaLogs* read too. Its callback, handle and iterator types are the
// runtime's under other names.

DRIVER_EXPORT CUresult cuLogsRegisterCallback(CUlogsCallback callbackFunc, void* userData,
                                              CUlogsCallbackHandle* callback_out) {
  return ptxsim::driver::toDriverResult(
      cudaLogsRegisterCallback(reinterpret_cast<cudaLogsCallback_t>(callbackFunc), userData,
                               reinterpret_cast<cudaLogsCallbackHandle*>(callback_out)));
}

DRIVER_EXPORT CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle callback) {
  return ptxsim::driver::toDriverResult(
      cudaLogsUnregisterCallback(reinterpret_cast<cudaLogsCallbackHandle>(callback)));
}

DRIVER_EXPORT CUresult cuLogsCurrent(CUlogIterator* iterator_out, unsigned int flags) {
  return ptxsim::driver::toDriverResult(cudaLogsCurrent(iterator_out, flags));
}

DRIVER_EXPORT CUresult cuLogsDumpToFile(CUlogIterator* iterator, const char* pathToFile, unsigned int flags) {
  return ptxsim::driver::toDriverResult(cudaLogsDumpToFile(iterator, pathToFile, flags));
}

DRIVER_EXPORT CUresult cuLogsDumpToMemory(CUlogIterator* iterator, char* buffer, size_t* size, unsigned int flags) {
  return ptxsim::driver::toDriverResult(cudaLogsDumpToMemory(iterator, buffer, size, flags));
}
