// Built for compute_60 (build_compute60.sh): PTX for a pre-Volta target, so
// the programming guide's rule gives it pre-Volta scheduling, a warp in
// lockstep. Every thread of one warp tries, a bounded number of times, to take
// a spin lock that one of them holds; in lockstep the holder cannot run its
// critical section until the others have given up, so only it gets in, while
// independent thread scheduling lets every thread in by turns.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

constexpr int kTries = 20000;

__global__ void boundedSpinLock(int* lock, volatile int* count, int* acquired) {
  int tries = 0;
  while (atomicCAS(lock, 0, 1) != 0 && ++tries < kTries) {
  }
  const bool got = tries < kTries;
  if (got) {
    *count = *count + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  acquired[threadIdx.x] = got;
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 34 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 34 * sizeof(int)));
  boundedSpinLock<<<1, 32>>>(d, d + 1, d + 2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int h[34];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int acquired = 0;
  for (int i = 0; i < 32; ++i) acquired += h[2 + i];
  std::printf("critical sections run: %d\n", h[1]);
  std::printf("threads that took the lock: %d of 32\n", acquired);
  CHECK(cudaFree(d));
  return 0;
}
