#pragma once

// What every source of the driver API (libcuda.so.1) includes: cuda.h with
// the functions under the names libcuda.so.1 exports them by (cuMemAlloc_v2,
// not the macro cuMemAlloc), the runtime API it is built on, the export
// marker and the conversions between the two APIs' results.

// The exported names as they are: without this, cuda.h renames cuMemAlloc
// to cuMemAlloc_v2 and so on, and the legacy names could not be defined.
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

// Marks a CUDA Driver API function the library implements. The build scans
// the driver's sources for this marker and generates, for every other
// function CUDA 13's libcuda.so.1 exports (exported_functions.txt), a stub
// that logs once and returns CUDA_ERROR_NOT_SUPPORTED.
#define DRIVER_EXPORT extern "C" __attribute__((visibility("default")))

// Exports `name` as a second name of the driver function `target`, of the
// same signature (cuda.h declares both): the per-thread default stream
// forms of calls that take no stream, which the simulator's one stream
// order runs alike.
#define DRIVER_ALIAS(name, target) \
  extern "C" __attribute__((visibility("default"), alias(#target))) decltype(target) name

namespace ptxsim::driver {

// The CUresult a driver call returns where the runtime call it is made of
// returned `error` (most codes are the same number in both APIs).
CUresult toDriverResult(cudaError_t error);

// A driver call made of runtime calls leaves the runtime's last error
// (cudaGetLastError) as it found it, as the two APIs keep apart on a GPU.
class RuntimeCallScope {
 public:
  RuntimeCallScope();
  ~RuntimeCallScope();
  RuntimeCallScope(const RuntimeCallScope&) = delete;
  RuntimeCallScope& operator=(const RuntimeCallScope&) = delete;

 private:
  cudaError_t saved_;
};

bool initialized();
// Whether driver calls can run: CUDA_ERROR_NOT_INITIALIZED before cuInit,
// CUDA_ERROR_DEINITIALIZED once the process is shutting down.
CUresult ready();

// ready(), and a device of the system: else CUDA_ERROR_INVALID_DEVICE.
CUresult checkDevice(CUdevice device);

// Runs a runtime call for a driver one: the call's result as a CUresult,
// unless the driver is not ready().
template <typename Call>
CUresult viaRuntime(Call&& call) {
  if (CUresult r = ready(); r != CUDA_SUCCESS) return r;
  RuntimeCallScope scope;
  return toDriverResult(call());
}

// The stream a _ptsz form means by a null stream.
inline CUstream perThread(CUstream stream) { return stream != nullptr ? stream : CU_STREAM_PER_THREAD; }

inline void* pointer(CUdeviceptr address) { return reinterpret_cast<void*>(static_cast<uintptr_t>(address)); }
inline CUdeviceptr devicePointer(const void* p) { return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p)); }

}  // namespace ptxsim::driver
