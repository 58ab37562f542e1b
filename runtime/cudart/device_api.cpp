// The device: count, selection, synchronisation, reset, limits and
// versions. Queries of what the device is: device_query_api.cpp.

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

CUDART_EXPORT cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return result(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaSetDevice(int device) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  shimState().currentDevice = device;
  shimState().device();  // since CUDA 12, cudaSetDevice starts the runtime on the device
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return result(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceSynchronize() {
  std::lock_guard lock(shimState().mutex());
  // Work being captured has not been issued: waiting for it is refused.
  if (cudaError_t e = shimState().streamOrder().unsafeCallDuringCapture(); e != cudaSuccess) return result(e);
  shimState().device().synchronize();
  shimState().streamOrder().pools().releaseUnused();
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

CUDART_EXPORT cudaError_t cudaDeviceReset() {
  std::lock_guard lock(shimState().mutex());
  shimState().reset();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::ShimState& s = shimState();
  s.device();  // made first: it sets every limit to the preset's
  switch (limit) {
    case cudaLimitStackSize: s.stackLimit = value; break;
    case cudaLimitPrintfFifoSize: s.printfFifoLimit = value; break;
    case cudaLimitMallocHeapSize: s.heapLimit = value; break;
    case cudaLimitDevRuntimePendingLaunchCount: s.pendingLaunchLimit = value; break;
    case cudaLimitMaxL2FetchGranularity:
      if (value > 128) return result(cudaErrorInvalidValue);  // CUDA's range: 0 to 128 bytes
      s.l2FetchLimit = value;
      break;
    default: return result(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::cudart::ShimState& s = shimState();
  s.device();
  switch (limit) {
    case cudaLimitStackSize: *value = s.stackLimit; break;
    case cudaLimitMaxL2FetchGranularity: *value = s.l2FetchLimit; break;
    case cudaLimitPrintfFifoSize: *value = s.printfFifoLimit; break;
    case cudaLimitMallocHeapSize: *value = s.heapLimit; break;
    case cudaLimitDevRuntimePendingLaunchCount: *value = s.pendingLaunchLimit; break;
    default: return result(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return result(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return result(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}
