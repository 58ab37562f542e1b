// Cooperative launches as CUDA programs write them: the grid sized with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count (as the
// CUDA samples do), launched with cudaLaunchCooperativeKernel, and
// grid.sync() between the phases of a grid-wide reduction and between the
// iterations of a stencil; results checked against the host. Then a grid
// one block larger than the device holds, and the error it gets.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

// Phase 1: each block reduces a grid-stride slice to a partial sum and
// maximum; phase 2 (after grid.sync()): block 0 combines the partials;
// phase 3 (after another): every thread subtracts the maximum from its
// elements, so all blocks need the result of block 0.
__global__ void reduceAndShift(const int* in, int* out, long long* partialSum, int* partialMax,
                               long long* sum, int* max, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ long long scratch[];
  long long* sums = scratch;
  int* maxima = reinterpret_cast<int*>(scratch + blockDim.x);

  long long s = 0;
  int m = INT_MIN;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    s += in[i];
    m = in[i] > m ? in[i] : m;
  }
  sums[threadIdx.x] = s;
  maxima[threadIdx.x] = m;
  block.sync();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      sums[threadIdx.x] += sums[threadIdx.x + stride];
      maxima[threadIdx.x] = maxima[threadIdx.x] > maxima[threadIdx.x + stride] ? maxima[threadIdx.x]
                                                                               : maxima[threadIdx.x + stride];
    }
    block.sync();
  }
  if (threadIdx.x == 0) {
    partialSum[blockIdx.x] = sums[0];
    partialMax[blockIdx.x] = maxima[0];
  }

  grid.sync();
  if (grid.block_rank() == 0) {
    long long total = 0;
    int largest = INT_MIN;
    for (unsigned b = threadIdx.x; b < grid.num_blocks(); b += blockDim.x) {
      total += partialSum[b];
      largest = partialMax[b] > largest ? partialMax[b] : largest;
    }
    sums[threadIdx.x] = total;
    maxima[threadIdx.x] = largest;
    block.sync();
    if (threadIdx.x == 0) {
      for (unsigned t = 1; t < blockDim.x; ++t) {
        total += sums[t];
        largest = maxima[t] > largest ? maxima[t] : largest;
      }
      *sum = total;
      *max = largest;
    }
  }

  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = in[i] - *max;
}

// `iterations` steps of a 3-point integer stencil over a ring, between two
// buffers; grid.sync() separates the steps. The result ends in `a` after an
// even number of steps.
__global__ void stencil(int* a, int* b, int n, int iterations) {
  cg::grid_group grid = cg::this_grid();
  for (int step = 0; step < iterations; ++step) {
    const int* from = step % 2 == 0 ? a : b;
    int* to = step % 2 == 0 ? b : a;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
      int left = from[(i + n - 1) % n], right = from[(i + 1) % n];
      to[i] = (left + 2 * from[i] + right) / 4 + (step & 1);
    }
    grid.sync();
  }
}

// What this_grid() reports outside a cooperative launch.
__global__ void gridValidity(int* valid) { *valid = cg::this_grid().is_valid(); }

int main() {
  int device = 0;
  CHECK(cudaSetDevice(device));
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  std::printf("cooperative launch supported: %d\n", supported);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));

  const int threads = 256;
  const size_t shared = threads * (sizeof(long long) + sizeof(int));
  int blocksPerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, reduceAndShift, threads, shared));
  int blocks = blocksPerSm * prop.multiProcessorCount;
  std::printf("reduceAndShift: %d blocks per SM x %d SMs = %d blocks of %d threads\n", blocksPerSm,
              prop.multiProcessorCount, blocks, threads);

  const int n = 100000;
  std::vector<int> host(n);
  unsigned seed = 12345;
  for (int& x : host) {
    seed = seed * 1103515245u + 12345u;
    x = static_cast<int>((seed >> 8) % 20001) - 10000;
  }
  int *in, *out, *partialMax, *max;
  long long *partialSum, *sum;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&partialSum, (blocks + 1) * sizeof(long long)));
  CHECK(cudaMalloc(&partialMax, (blocks + 1) * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(long long)));
  CHECK(cudaMalloc(&max, sizeof(int)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int count = n;
  void* args[] = {&in, &out, &partialSum, &partialMax, &sum, &max, &count};
  CHECK(cudaLaunchCooperativeKernel((void*)reduceAndShift, blocks, threads, args, shared, 0));
  CHECK(cudaDeviceSynchronize());

  long long hostSum = 0;
  int hostMax = INT_MIN;
  for (int x : host) {
    hostSum += x;
    hostMax = x > hostMax ? x : hostMax;
  }
  long long deviceSum = 0;
  int deviceMax = 0;
  std::vector<int> shifted(n);
  CHECK(cudaMemcpy(&deviceSum, sum, sizeof(deviceSum), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&deviceMax, max, sizeof(deviceMax), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(shifted.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += shifted[i] != host[i] - hostMax;
  std::printf("sum %lld (host %lld), max %d (host %d), %d of %d shifted elements wrong\n", deviceSum, hostSum,
              deviceMax, hostMax, wrong, n);

  // The stencil, with a grid of every SM's worth of blocks again.
  const int stencilThreads = 128, iterations = 10;
  int stencilBlocksPerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&stencilBlocksPerSm, stencil, stencilThreads, 0));
  int stencilBlocks = stencilBlocksPerSm * prop.multiProcessorCount;
  std::printf("stencil: %d blocks per SM, %d blocks of %d threads\n", stencilBlocksPerSm, stencilBlocks,
              stencilThreads);
  int* b;
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemcpy(out, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int steps = iterations;
  void* stencilArgs[] = {&out, &b, &count, &steps};
  CHECK(cudaLaunchCooperativeKernel((void*)stencil, stencilBlocks, stencilThreads, stencilArgs, 0, 0));
  CHECK(cudaDeviceSynchronize());
  std::vector<int> expected = host, next(n);
  for (int step = 0; step < iterations; ++step) {
    for (int i = 0; i < n; ++i) {
      next[i] = (expected[(i + n - 1) % n] + 2 * expected[i] + expected[(i + 1) % n]) / 4 + (step & 1);
    }
    expected.swap(next);
  }
  std::vector<int> result(n);
  CHECK(cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long checksum = 0;
  wrong = 0;
  for (int i = 0; i < n; ++i) {
    wrong += result[i] != expected[i];
    checksum += static_cast<long long>(result[i]) * (i % 7 + 1);
  }
  std::printf("stencil after %d steps: %d of %d elements wrong, checksum %lld\n", iterations, wrong, n,
              checksum);

  // One block more than the device holds at once.
  cudaError_t e = cudaLaunchCooperativeKernel((void*)reduceAndShift, blocks + 1, threads, args, shared, 0);
  std::printf("%d blocks: %s\n", blocks + 1, cudaGetErrorName(e));
  cudaError_t last = cudaGetLastError();
  cudaError_t cleared = cudaGetLastError();
  std::printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(last), cudaGetErrorName(cleared));
  // The refusal is not sticky: the right size still runs.
  CHECK(cudaLaunchCooperativeKernel((void*)reduceAndShift, blocks, threads, args, shared, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&deviceSum, sum, sizeof(deviceSum), cudaMemcpyDeviceToHost));
  std::printf("after the refused launch: sum %lld\n", deviceSum);

  // Outside a cooperative launch the grid has no workspace.
  int* valid;
  CHECK(cudaMalloc(&valid, sizeof(int)));
  gridValidity<<<1, 1>>>(valid);
  int isValid = -1;
  CHECK(cudaMemcpy(&isValid, valid, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("this_grid().is_valid() in a <<<>>> launch: %d\n", isValid);
  void* validArgs[] = {&valid};
  CHECK(cudaLaunchCooperativeKernel((void*)gridValidity, 1, 1, validArgs, 0, 0));
  CHECK(cudaMemcpy(&isValid, valid, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("this_grid().is_valid() in a cooperative launch: %d\n", isValid);

  for (void* p : {(void*)in, (void*)out, (void*)partialSum, (void*)partialMax, (void*)sum, (void*)max,
                  (void*)b, (void*)valid}) {
    CHECK(cudaFree(p));
  }
  return 0;
}
