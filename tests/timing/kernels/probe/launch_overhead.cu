// What Nsight Compute's gpc__cycles_elapsed.max counts beyond a grid's own
// work: empty grids of 1, 132 and 1056 CTAs, and one warp storing a word
// (its store must reach memory before the grid ends). Recorded with
// record_overhead.sh with the caches flushed (ncu's default) and not.
#include <cstdio>

__global__ void emptyKernel() {}

__global__ void storeKernel(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, 4096 * sizeof(int)) != cudaSuccess) return 1;
  emptyKernel<<<1, 32>>>();
  emptyKernel<<<132, 32>>>();
  emptyKernel<<<1056, 256>>>();
  storeKernel<<<1, 32>>>(out);
  storeKernel<<<1056, 256>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
