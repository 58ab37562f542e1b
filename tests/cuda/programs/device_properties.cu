// Device queries: the device count and selection, cudaGetDeviceProperties,
// cudaDeviceGetAttribute for the attributes programs commonly read, the
// default limits and setting them, and the version queries.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  std::printf("devices: %d\n", count);
  CHECK(cudaSetDevice(0));
  int device = -1;
  CHECK(cudaGetDevice(&device));
  std::printf("current device: %d\n", device);
  std::printf("cudaSetDevice(%d): %s\n", count, cudaGetErrorName(cudaSetDevice(count)));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("name: %s\n", p.name);
  std::printf("compute capability: %d.%d\n", p.major, p.minor);
  std::printf("multiprocessors: %d\n", p.multiProcessorCount);
  std::printf("global memory: %zu MiB\n", p.totalGlobalMem >> 20);
  std::printf("constant memory: %zu\n", p.totalConstMem);
  std::printf("shared memory per block: %zu (opt-in %zu, reserved %zu)\n", p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock);
  std::printf("shared memory per SM: %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("registers per block: %d, per SM: %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
  std::printf("warp size: %d\n", p.warpSize);
  std::printf("threads per block: %d, block dims %d x %d x %d\n", p.maxThreadsPerBlock, p.maxThreadsDim[0],
              p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("grid dims: %d x %d x %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("threads per SM: %d, blocks per SM: %d\n", p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  std::printf("L2 cache: %d, persisting max %d\n", p.l2CacheSize, p.persistingL2CacheMaxSize);
  std::printf("memory bus width: %d\n", p.memoryBusWidth);
  std::printf("memPitch: %zu, texture alignment %zu, texture pitch alignment %zu\n", p.memPitch,
              p.textureAlignment, p.texturePitchAlignment);
  std::printf("unified addressing %d, managed memory %d, concurrent managed access %d\n", p.unifiedAddressing,
              p.managedMemory, p.concurrentManagedAccess);
  std::printf("can map host memory %d, concurrent kernels %d, cooperative launch %d\n", p.canMapHostMemory,
              p.concurrentKernels, p.cooperativeLaunch);
  std::printf("integrated %d, async engines %d, stream priorities %d, cluster launch %d\n", p.integrated,
              p.asyncEngineCount, p.streamPrioritiesSupported, p.clusterLaunch);

  struct Query {
    const char* name;
    cudaDeviceAttr attribute;
  };
  const Query queries[] = {
      {"MaxThreadsPerBlock", cudaDevAttrMaxThreadsPerBlock},
      {"MaxBlockDimX", cudaDevAttrMaxBlockDimX},
      {"MaxBlockDimZ", cudaDevAttrMaxBlockDimZ},
      {"MaxGridDimX", cudaDevAttrMaxGridDimX},
      {"MaxGridDimY", cudaDevAttrMaxGridDimY},
      {"MaxSharedMemoryPerBlock", cudaDevAttrMaxSharedMemoryPerBlock},
      {"MaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"MaxSharedMemoryPerMultiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {"ReservedSharedMemoryPerBlock", cudaDevAttrReservedSharedMemoryPerBlock},
      {"TotalConstantMemory", cudaDevAttrTotalConstantMemory},
      {"WarpSize", cudaDevAttrWarpSize},
      {"MaxRegistersPerBlock", cudaDevAttrMaxRegistersPerBlock},
      {"MaxRegistersPerMultiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
      {"MultiProcessorCount", cudaDevAttrMultiProcessorCount},
      {"ComputeCapabilityMajor", cudaDevAttrComputeCapabilityMajor},
      {"ComputeCapabilityMinor", cudaDevAttrComputeCapabilityMinor},
      {"MaxThreadsPerMultiProcessor", cudaDevAttrMaxThreadsPerMultiProcessor},
      {"MaxBlocksPerMultiprocessor", cudaDevAttrMaxBlocksPerMultiprocessor},
      {"L2CacheSize", cudaDevAttrL2CacheSize},
      {"GlobalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth},
      {"ConcurrentKernels", cudaDevAttrConcurrentKernels},
      {"UnifiedAddressing", cudaDevAttrUnifiedAddressing},
      {"ManagedMemory", cudaDevAttrManagedMemory},
      {"ConcurrentManagedAccess", cudaDevAttrConcurrentManagedAccess},
      {"CooperativeLaunch", cudaDevAttrCooperativeLaunch},
      {"CanMapHostMemory", cudaDevAttrCanMapHostMemory},
      {"TextureAlignment", cudaDevAttrTextureAlignment},
      {"Integrated", cudaDevAttrIntegrated},
      {"ClusterLaunch", cudaDevAttrClusterLaunch},
  };
  for (const Query& q : queries) {
    int value = -1;
    cudaError_t e = cudaDeviceGetAttribute(&value, q.attribute, 0);
    std::printf("attribute %-34s %d (%s)\n", q.name, value, cudaGetErrorName(e));
  }
  int value = 0;
  std::printf("attribute of device 5: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 5)));
  cudaGetLastError();

  // Limits: the defaults, then set and read back.
  size_t limit = 0;
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
  std::printf("default stack size: %zu\n", limit);
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize));
  std::printf("default printf FIFO: %zu\n", limit);
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  std::printf("default malloc heap: %zu\n", limit);
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
  std::printf("stack size after setting 4096: %zu\n", limit);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  std::printf("malloc heap after setting 32 MiB: %zu\n", limit);
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20));
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize));
  std::printf("printf FIFO after setting 2 MiB: %zu\n", limit);

  int runtimeVersion = 0, driverVersion = 0;
  CHECK(cudaRuntimeGetVersion(&runtimeVersion));
  CHECK(cudaDriverGetVersion(&driverVersion));
  std::printf("runtime version: %d\n", runtimeVersion);
  std::printf("driver supports the runtime: %s\n", driverVersion >= runtimeVersion ? "yes" : "no");

  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  CHECK(cudaGetDevice(&device));
  std::printf("device after reset: %d\n", device);
  std::printf("done\n");
  return 0;
}
