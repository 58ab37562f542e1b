// How many clusters the H100 says fit at once (cudaOccupancyMaxActiveClusters)
// as the blocks an SM holds vary: block sizes from 32 to 1024 threads,
// dynamic shared memory from none to most of an SM, clusters of 1 to 16.
// Beside each answer, cudaOccupancyMaxActiveBlocksPerMultiprocessor for the
// same block, so the per-SM limit and the cluster answer can be compared.
// Recorded on the H100 (2026-12-07) as a probe; ptxsim's cluster occupancy
// (sim/src/cluster_shape.cpp, the preset's gpc_sms) is fitted to it.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void smallKernel(unsigned* out) {
  extern __shared__ unsigned shared[];
  shared[threadIdx.x % 32] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x] = shared[0];
}

int main() {
  cudaFuncSetAttribute(smallKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute(smallKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024);
  const unsigned threads[] = {32, 64, 128, 256, 512, 1024};
  const size_t shared[] = {0, 8 * 1024, 40 * 1024, 100 * 1024, 200 * 1024};
  const unsigned clusters[] = {1, 2, 3, 4, 6, 8, 12, 16};
  for (unsigned t : threads) {
    for (size_t s : shared) {
      int perSm = -1;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, smallKernel, static_cast<int>(t), s);
      std::printf("threads %4u shared %6zu: %2d blocks/SM; clusters of", t, s, perSm);
      for (unsigned c : clusters) {
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(c * 64);
        config.blockDim = dim3(t);
        config.dynamicSmemBytes = s;
        cudaLaunchAttribute attribute;
        attribute.id = cudaLaunchAttributeClusterDimension;
        attribute.val.clusterDim.x = c;
        attribute.val.clusterDim.y = 1;
        attribute.val.clusterDim.z = 1;
        config.attrs = &attribute;
        config.numAttrs = 1;
        int n = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&n, smallKernel, &config);
        if (e != cudaSuccess) {
          std::printf(" %u:%s", c, cudaGetErrorName(e));
          cudaGetLastError();
        } else {
          std::printf(" %u:%d", c, n);
        }
      }
      std::printf("\n");
    }
  }
  return 0;
}
