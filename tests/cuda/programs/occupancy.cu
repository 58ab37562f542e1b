// Occupancy queries: cudaOccupancyMaxActiveBlocksPerMultiprocessor for
// several block sizes and amounts of shared memory, and the
// cudaOccupancyMaxPotentialBlockSize templates. The results depend on the
// registers each kernel uses (the simulator estimates them from PTX), so
// the register counts are printed too.
#include <cuda_runtime.h>

#include <cstdio>

// Few registers: occupancy limited by threads and blocks.
__global__ void light(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }

// Static shared memory: occupancy limited by shared memory.
__global__ void sharedHeavy(float* p) {
  __shared__ float tile[8192];  // 32 KiB
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void dynamicShared(float* p) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

// A bound on the block size from __launch_bounds__.
__global__ void __launch_bounds__(256) bounded(float* p) { p[threadIdx.x] += 1.0f; }

size_t sharedForBlock(int blockSize) { return blockSize * sizeof(float); }

int main() {
  cudaFuncAttributes a;
  for (auto [name, fn] : {std::pair<const char*, const void*>{"light", (const void*)light},
                          {"sharedHeavy", (const void*)sharedHeavy},
                          {"dynamicShared", (const void*)dynamicShared},
                          {"bounded", (const void*)bounded}}) {
    cudaError_t e = cudaFuncGetAttributes(&a, fn);
    std::printf("%s: %s, maxThreadsPerBlock %d, static shared %zu, local %zu, registers %d\n", name,
                cudaGetErrorName(e), a.maxThreadsPerBlock, a.sharedSizeBytes, a.localSizeBytes, a.numRegs);
  }

  int blocks = -1;
  for (int size : {32, 64, 96, 128, 256, 512, 768, 1024}) {
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, light, size, 0);
    std::printf("light, block %4d: %2d blocks per SM (%s)\n", size, blocks, cudaGetErrorName(e));
  }
  for (int size : {32, 256, 1024}) {
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, sharedHeavy, size, 0);
    std::printf("sharedHeavy, block %4d: %2d blocks per SM (%s)\n", size, blocks, cudaGetErrorName(e));
  }
  for (size_t shared : {0, 1024, 8192, 20000, 48 * 1024}) {
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dynamicShared, 128, shared);
    std::printf("dynamicShared, block 128, %5zu bytes: %2d blocks per SM (%s)\n", shared, blocks,
                cudaGetErrorName(e));
  }
  for (int size : {128, 256, 512}) {
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, size, 0);
    std::printf("bounded, block %4d: %2d blocks per SM (%s)\n", size, blocks, cudaGetErrorName(e));
  }

  int minGrid = -1, blockSize = -1;
  cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, light, 0, 0);
  std::printf("light: best block %d, min grid %d (%s)\n", blockSize, minGrid, cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, light, 0, 200);
  std::printf("light, limit 200: best block %d, min grid %d (%s)\n", blockSize, minGrid, cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, sharedHeavy, 0, 0);
  std::printf("sharedHeavy: best block %d, min grid %d (%s)\n", blockSize, minGrid, cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, dynamicShared, 16384, 0);
  std::printf("dynamicShared, 16 KiB: best block %d, min grid %d (%s)\n", blockSize, minGrid, cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &blockSize, dynamicShared, sharedForBlock, 0);
  std::printf("dynamicShared, 4 bytes a thread: best block %d, min grid %d (%s)\n", blockSize, minGrid,
              cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, bounded, 0, 0);
  std::printf("bounded: best block %d, min grid %d (%s)\n", blockSize, minGrid, cudaGetErrorName(e));
  size_t available = 0;
  e = cudaOccupancyAvailableDynamicSMemPerBlock(&available, light, 4, 256);
  std::printf("light, 4 blocks of 256: %zu bytes of dynamic shared memory available (%s)\n", available,
              cudaGetErrorName(e));
  std::printf("done\n");
  return 0;
}
