// A recursive tree sum with a depth limit: a grid sums its range itself when
// the range is small or the depth reached the limit, and otherwise thread 0
// launches one grid per half into the block's own (NULL) stream. Leaves add
// their partial sums atomically; the host reads the total after the root
// grid (and so all its descendants) completed.

#include "cdp.h"

namespace {

constexpr int kLeafSize = 512;
constexpr int kBlock = 128;

}  // namespace

__global__ void treeSum(const int* values, int count, int depth, int maxDepth, unsigned long long* total,
                        int* grids) {
  if (threadIdx.x == 0) atomicAdd(grids, 1);
  if (count > kLeafSize && depth < maxDepth) {
    if (threadIdx.x == 0) {
      int half = count / 2;
      treeSum<<<1, kBlock>>>(values, half, depth + 1, maxDepth, total, grids);
      treeSum<<<1, kBlock>>>(values + half, count - half, depth + 1, maxDepth, total, grids);
    }
    return;
  }
  __shared__ long long partial[kBlock];
  long long sum = 0;
  for (int i = threadIdx.x; i < count; i += kBlock) sum += values[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, static_cast<unsigned long long>(partial[0]));
}

int runTreeSum() {
  const int n = 10000;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 37) % 1001 - 500;
  long long expected = 0;
  for (int v : values) expected += v;
  int* deviceValues;
  unsigned long long* total;
  int* grids;
  CHECK(cudaMalloc(&deviceValues, n * sizeof(int)));
  CHECK(cudaMalloc(&total, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&grids, sizeof(int)));
  CHECK(cudaMemcpy(deviceValues, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  for (int maxDepth : {0, 2, 8}) {
    CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
    CHECK(cudaMemset(grids, 0, sizeof(int)));
    treeSum<<<1, kBlock>>>(deviceValues, n, 0, maxDepth, total, grids);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned long long sum = 0;
    int gridCount = 0;
    CHECK(cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gridCount, grids, sizeof gridCount, cudaMemcpyDeviceToHost));
    // Grids: a full binary tree down to ranges of at most kLeafSize or the depth limit.
    std::printf("tree sum, depth limit %d: %lld (%s), %d grids\n", maxDepth, static_cast<long long>(sum),
                static_cast<long long>(sum) == expected ? "right" : "WRONG", gridCount);
  }
  CHECK(cudaFree(deviceValues));
  CHECK(cudaFree(total));
  CHECK(cudaFree(grids));
  return 0;
}
