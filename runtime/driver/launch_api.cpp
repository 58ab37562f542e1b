// Kernel launches (cuLaunchKernel with kernelParams or an `extra` buffer,
// cuLaunchKernelEx with its attributes, cooperative launches) and the
// occupancy calculator, over the runtime's launches: a CUfunction is the
// address the runtime registered its kernel under.

#include <algorithm>
#include <cstring>
#include <vector>

#include "driver_api.h"
#include "launch_arguments.h"

using ptxsim::driver::argumentPointers;
using ptxsim::driver::viaRuntime;

namespace {

const void* function(CUfunction f) { return reinterpret_cast<const void*>(f); }

CUresult launch(CUfunction f, dim3 grid, dim3 block, unsigned sharedMemBytes, CUstream hStream, void** kernelParams,
                void** extra, bool perThread, bool cooperative) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (f == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<void*> pointers;
  void** args = nullptr;
  {
    ptxsim::driver::RuntimeCallScope scope;
    if (CUresult r = argumentPointers(f, kernelParams, extra, pointers, args); r != CUDA_SUCCESS) return r;
  }
  return viaRuntime([&] {
    if (cooperative) {
      return perThread ? cudaLaunchCooperativeKernel_ptsz(function(f), grid, block, args, sharedMemBytes, hStream)
                       : cudaLaunchCooperativeKernel(function(f), grid, block, args, sharedMemBytes, hStream);
    }
    return perThread ? cudaLaunchKernel_ptsz(function(f), grid, block, args, sharedMemBytes, hStream)
                     : cudaLaunchKernel(function(f), grid, block, args, sharedMemBytes, hStream);
  });
}

// The runtime's form of a launch configuration.
cudaLaunchConfig_t runtimeConfigOf(const CUlaunchConfig& config) {
  cudaLaunchConfig_t runtimeConfig{};
  runtimeConfig.gridDim = dim3(config.gridDimX, config.gridDimY, config.gridDimZ);
  runtimeConfig.blockDim = dim3(config.blockDimX, config.blockDimY, config.blockDimZ);
  runtimeConfig.dynamicSmemBytes = config.sharedMemBytes;
  runtimeConfig.stream = config.hStream;
  // CUlaunchAttribute and cudaLaunchAttribute share their layout and ids.
  static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute));
  runtimeConfig.attrs = reinterpret_cast<cudaLaunchAttribute*>(config.attrs);
  runtimeConfig.numAttrs = config.numAttrs;
  return runtimeConfig;
}

CUresult launchEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra,
                  bool perThread) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (config == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (f == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<void*> pointers;
  void** args = nullptr;
  {
    ptxsim::driver::RuntimeCallScope scope;
    if (CUresult r = argumentPointers(f, kernelParams, extra, pointers, args); r != CUDA_SUCCESS) return r;
  }
  cudaLaunchConfig_t runtimeConfig = runtimeConfigOf(*config);
  return viaRuntime([&] {
    return perThread ? cudaLaunchKernelExC_ptsz(&runtimeConfig, function(f), args)
                     : cudaLaunchKernelExC(&runtimeConfig, function(f), args);
  });
}

}  // namespace

DRIVER_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                      unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                      unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                      void** kernelParams, void** extra) {
  return launch(f, dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                hStream, kernelParams, extra, false, false);
}

DRIVER_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void** kernelParams, void** extra) {
  return launch(f, dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                hStream, kernelParams, extra, true, false);
}

DRIVER_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                 unsigned int gridDimZ, unsigned int blockDimX,
                                                 unsigned int blockDimY, unsigned int blockDimZ,
                                                 unsigned int sharedMemBytes, CUstream hStream,
                                                 void** kernelParams) {
  return launch(f, dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                hStream, kernelParams, nullptr, false, true);
}

DRIVER_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                      unsigned int gridDimZ, unsigned int blockDimX,
                                                      unsigned int blockDimY, unsigned int blockDimZ,
                                                      unsigned int sharedMemBytes, CUstream hStream,
                                                      void** kernelParams) {
  return launch(f, dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                hStream, kernelParams, nullptr, true, true);
}

DRIVER_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams,
                                        void** extra) {
  return launchEx(config, f, kernelParams, extra, false);
}

DRIVER_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction f, void** kernelParams,
                                             void** extra) {
  return launchEx(config, f, kernelParams, extra, true);
}

// Occupancy.

DRIVER_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func, int blockSize,
                                                                   size_t dynamicSMemSize) {
  return viaRuntime([&] {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, function(func), blockSize, dynamicSMemSize);
  });
}

DRIVER_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, CUfunction func,
                                                                            int blockSize, size_t dynamicSMemSize,
                                                                            unsigned int flags) {
  return viaRuntime([&] {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, function(func), blockSize,
                                                                  dynamicSMemSize, flags);
  });
}

// Thread block clusters, as the runtime answers (its cluster_shape rules).
DRIVER_EXPORT CUresult cuOccupancyMaxActiveClusters(int* numClusters, CUfunction func,
                                                    const CUlaunchConfig* config) {
  if (config == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaLaunchConfig_t runtimeConfig = runtimeConfigOf(*config);
  return viaRuntime(
      [&] { return cudaOccupancyMaxActiveClusters(numClusters, function(func), &runtimeConfig); });
}

DRIVER_EXPORT CUresult cuOccupancyMaxPotentialClusterSize(int* clusterSize, CUfunction func,
                                                          const CUlaunchConfig* config) {
  if (config == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaLaunchConfig_t runtimeConfig = runtimeConfigOf(*config);
  return viaRuntime(
      [&] { return cudaOccupancyMaxPotentialClusterSize(clusterSize, function(func), &runtimeConfig); });
}

DRIVER_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize,
    size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags) {
  if (minGridSize == nullptr || blockSize == nullptr) return CUDA_ERROR_INVALID_VALUE;
  int maxThreads = 0, multiprocessors = 0;
  if (CUresult r = cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func);
      r != CUDA_SUCCESS) {
    return r;
  }
  if (CUresult r = cuDeviceGetAttribute(&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
      r != CUDA_SUCCESS) {
    return r;
  }
  int limit = blockSizeLimit > 0 ? std::min(blockSizeLimit, maxThreads) : maxThreads;
  // The block size, in whole warps, that keeps the most threads resident
  // on a multiprocessor; the larger block on a tie, as CUDA's calculator.
  int bestThreads = 0, bestBlock = 0, bestBlocks = 0;
  for (int size = limit - limit % 32; size > 0; size -= 32) {
    size_t shared = blockSizeToDynamicSMemSize != nullptr ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
    int blocks = 0;
    if (CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, func, size, shared, flags);
        r != CUDA_SUCCESS) {
      return r;
    }
    if (blocks * size > bestThreads) bestThreads = blocks * size, bestBlock = size, bestBlocks = blocks;
  }
  *blockSize = bestBlock;
  *minGridSize = bestBlocks * multiprocessors;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction func,
                                                        CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                        size_t dynamicSMemSize, int blockSizeLimit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                   dynamicSMemSize, blockSizeLimit, 0);
}
