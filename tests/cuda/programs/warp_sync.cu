// Warp-synchronous code under independent thread scheduling: an intra-warp
// spin lock (completes on Volta and later; a livelock under a pre-Volta
// reconvergence stack), a legacy warp reduction that assumes lockstep
// execution (no __syncwarp), and the same reduction written correctly.
// tests/cli/run_cli_tests.sh runs this program under the other SIMT modes,
// schedules and --check=warp-sync.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void lockedIncrement(int* lock, int* counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__device__ void legacyWarpReduce(volatile int* s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void legacyReduce(const int* in, int* out) {
  __shared__ int s[64];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  s[tid + 32] = in[tid + 32];
  __syncthreads();
  if (tid < 32) legacyWarpReduce(s, tid);
  if (tid == 0) *out = s[0];
}

__global__ void syncedReduce(const int* in, int* out) {
  __shared__ int s[64];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  s[tid + 32] = in[tid + 32];
  __syncthreads();
  int v = s[tid];
  for (int offset = 32; offset > 0; offset /= 2) {
    v += s[tid + offset];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
  if (tid == 0) *out = s[0];
}

int main() {
  int *lock, *counter, *in, *out;
  cudaMalloc(&lock, sizeof(int));
  cudaMalloc(&counter, sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  lockedIncrement<<<1, 32>>>(lock, counter);
  cudaError_t e = cudaDeviceSynchronize();
  int count = -1;
  if (e == cudaSuccess) cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
  std::printf("spin lock: %s, counter %d\n", cudaGetErrorName(e), count);
  if (e != cudaSuccess) return 1;

  int host[64], expected = 0;
  for (int i = 0; i < 64; ++i) host[i] = (i * 37) % 101 - 20, expected += host[i];
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  int sum = 0;
  legacyReduce<<<1, 32>>>(in, out);
  cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
  std::printf("legacy reduction: %d (%s)\n", sum, sum == expected ? "right" : "wrong");
  syncedReduce<<<1, 32>>>(in, out);
  cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
  std::printf("synced reduction: %d (%s)\n", sum, sum == expected ? "right" : "wrong");
  e = cudaDeviceSynchronize();
  std::printf("done: %s\n", cudaGetErrorName(e));
  return 0;
}
