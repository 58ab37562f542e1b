// Blocks that wait for other blocks of the same grid through memory, as
// cuSPARSE's triangular solves and single-pass scans do: on a GPU every
// block of a small grid is resident at once, so a block spinning on a flag
// a later block sets is released when that block runs. A chain in reverse
// order (block b waits for block b + 1), where running blocks one after
// another in order would never finish; and a chain through an atomic
// ticket, in the order the blocks arrive.
#include <cstdio>

#include "check.h"

__device__ int loadFlag(const int* flag) { return atomicAdd(const_cast<int*>(flag), 0); }

// Block b's value is block b + 1's plus one; the last block starts the chain.
__global__ void reverseChain(int* values, int* flags, int blocks) {
  int b = blockIdx.x;
  __shared__ int next;
  if (threadIdx.x == 0) {
    if (b + 1 < blocks) {
      while (loadFlag(&flags[b + 1]) == 0) {
      }
      next = atomicAdd(&values[b + 1], 0);
    } else {
      next = 0;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    values[b] = next + 1;
    __threadfence();
    atomicExch(&flags[b], 1);
  }
}

// Each block takes a ticket and adds its own sum to the total of the
// tickets before it (a decoupled look-back reduced to its waiting part).
__global__ void ticketScan(const int* input, int* prefix, int* totals, int* ready, int* ticketCounter) {
  __shared__ int ticket, blockSum;
  if (threadIdx.x == 0) {
    ticket = atomicAdd(ticketCounter, 1);
    blockSum = 0;
  }
  __syncthreads();
  atomicAdd(&blockSum, input[ticket * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    int before = 0;
    if (ticket > 0) {
      while (loadFlag(&ready[ticket - 1]) == 0) {
      }
      before = atomicAdd(&totals[ticket - 1], 0);
    }
    prefix[ticket] = before;
    totals[ticket] = before + blockSum;
    __threadfence();
    atomicExch(&ready[ticket], 1);
  }
}

int main() {
  const int blocks = 8;
  int *values, *flags;
  CHECK(cudaMalloc(&values, blocks * sizeof(int)));
  CHECK(cudaMalloc(&flags, blocks * sizeof(int)));
  CHECK(cudaMemset(values, 0, blocks * sizeof(int)));
  CHECK(cudaMemset(flags, 0, blocks * sizeof(int)));
  reverseChain<<<blocks, 64>>>(values, flags, blocks);
  CHECK(cudaGetLastError());
  int host[blocks];
  CHECK(cudaMemcpy(host, values, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("reverse chain:");
  for (int v : host) std::printf(" %d", v);
  std::printf("\n");

  const int scanBlocks = 16, threads = 128;
  int* input;
  int *prefix, *totals, *ready, *counter;
  CHECK(cudaMallocManaged(&input, scanBlocks * threads * sizeof(int)));
  for (int i = 0; i < scanBlocks * threads; ++i) input[i] = (i * 7) % 5;
  CHECK(cudaMalloc(&prefix, scanBlocks * sizeof(int)));
  CHECK(cudaMalloc(&totals, scanBlocks * sizeof(int)));
  CHECK(cudaMalloc(&ready, scanBlocks * sizeof(int)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(ready, 0, scanBlocks * sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  ticketScan<<<scanBlocks, threads>>>(input, prefix, totals, ready, counter);
  CHECK(cudaGetLastError());
  int got[scanBlocks];
  CHECK(cudaMemcpy(got, prefix, sizeof got, cudaMemcpyDeviceToHost));
  int want = 0, wrong = 0;
  for (int t = 0; t < scanBlocks; ++t) {
    wrong += got[t] != want ? 1 : 0;
    for (int i = 0; i < threads; ++i) want += input[t * threads + i];
  }
  std::printf("ticket scan: %d of %d block prefixes differ from the host's, total %d\n", wrong, scanBlocks,
              want);
  CHECK(cudaDeviceSynchronize());
  return 0;
}
