// The device: count, selection, properties and attributes (from the GPU
// preset), synchronisation, reset, limits and versions.

#include <cstring>

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

// Properties of the simulated device. Values the preset does not model are
// those of the H100 SXM5 80 GB the default preset describes.
cudaDeviceProp properties(const ptxsim::sim::GpuConfig& c) {
  cudaDeviceProp p{};
  std::strncpy(p.name, c.name.c_str(), sizeof p.name - 1);
  p.totalGlobalMem = c.globalMemoryBytes;
  p.sharedMemPerBlock = c.sharedBytesPerBlock;
  p.regsPerBlock = static_cast<int>(c.registersPerBlock);
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = static_cast<int>(c.limits.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = static_cast<int>(c.limits.maxBlockDim[i]);
    p.maxGridSize[i] = static_cast<int>(c.limits.maxGridDim[i]);
  }
  p.totalConstMem = c.constantBytes;
  p.major = static_cast<int>(c.smVersion / 10);
  p.minor = static_cast<int>(c.smVersion % 10);
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = static_cast<int>(c.smCount);
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.asyncEngineCount = 3;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 50 * 1024 * 1024;
  p.persistingL2CacheMaxSize = 32768000;
  p.maxThreadsPerMultiProcessor = static_cast<int>(c.maxThreadsPerSm);
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = c.sharedBytesPerSm;
  p.regsPerMultiprocessor = static_cast<int>(c.registersPerSm);
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = c.sharedBytesPerBlockOptin;
  p.maxBlocksPerMultiProcessor = static_cast<int>(c.maxBlocksPerSm);
  p.accessPolicyMaxWindowSize = 134213632;
  p.reservedSharedMemPerBlock = 1024;
  p.hostRegisterSupported = 1;
  p.memoryPoolsSupported = 1;
  p.clusterLaunch = c.smVersion >= 90 ? 1 : 0;
  p.unifiedFunctionPointers = 1;
  return p;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return result(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaSetDevice(int device) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  shimState().currentDevice = device;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return result(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  std::lock_guard lock(shimState().mutex());
  if (prop == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  *prop = properties(shimState().device().config());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  cudaDeviceProp p = properties(shimState().device().config());
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrClockRate: *value = static_cast<int>(shimState().device().config().clockRateKhz); break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
    default: return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceSynchronize() {
  std::lock_guard lock(shimState().mutex());
  shimState().device().synchronize();
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
  switch (limit) {
    case cudaLimitStackSize: s.stackLimit = value; break;
    case cudaLimitPrintfFifoSize: s.printfFifoLimit = value; break;
    case cudaLimitMallocHeapSize: s.heapLimit = value; break;
    case cudaLimitDevRuntimePendingLaunchCount: s.pendingLaunchLimit = value; break;
    default: return result(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::cudart::ShimState& s = shimState();
  switch (limit) {
    case cudaLimitStackSize: *value = s.stackLimit; break;
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
