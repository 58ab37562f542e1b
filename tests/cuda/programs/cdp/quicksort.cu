// Recursive quicksort with dynamic parallelism, as CUDA's CDP samples write
// it for CDP2: one thread partitions a range, then launches a grid for each
// side into a stream of its own; below a size or past a depth it sorts the
// range itself. There is no device-side synchronisation: the host sees the
// sorted array once the first grid and all its descendants have completed.

#include "cdp.h"

namespace {

constexpr int kMaxDepth = 16;
constexpr int kSmallRange = 32;

__device__ void selectionSort(unsigned* data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    int smallest = i;
    for (int j = i + 1; j <= right; ++j) {
      if (data[j] < data[smallest]) smallest = j;
    }
    unsigned t = data[i];
    data[i] = data[smallest];
    data[smallest] = t;
  }
}

}  // namespace

__global__ void quicksort(unsigned* data, int left, int right, int depth, int* deepest, int* launchErrors) {
  atomicMax(deepest, depth);
  if (depth >= kMaxDepth || right - left <= kSmallRange) {
    selectionSort(data, left, right);
    return;
  }
  unsigned pivot = data[(left + right) / 2];
  int l = left, r = right;
  while (l <= r) {
    while (data[l] < pivot) ++l;
    while (data[r] > pivot) --r;
    if (l <= r) {
      unsigned t = data[l];
      data[l] = data[r];
      data[r] = t;
      ++l;
      --r;
    }
  }
  if (left < r) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, r, depth + 1, deepest, launchErrors);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(launchErrors, 1);
    cudaStreamDestroy(s);
  }
  if (l < right) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, l, right, depth + 1, deepest, launchErrors);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(launchErrors, 1);
    cudaStreamDestroy(s);
  }
}

int runQuicksort() {
  const int n = 4096;
  std::vector<unsigned> values(n);
  unsigned x = 12345;
  for (unsigned& v : values) {
    x = x * 1664525u + 1013904223u;
    v = x >> 12;
  }
  unsigned* data;
  int* counters;  // deepest depth, failed launches
  CHECK(cudaMalloc(&data, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&counters, 2 * sizeof(int)));
  CHECK(cudaMemcpy(data, values.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counters, 0, 2 * sizeof(int)));
  quicksort<<<1, 1>>>(data, 0, n - 1, 0, counters, counters + 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> sorted(n);
  int hostCounters[2];
  CHECK(cudaMemcpy(sorted.data(), data, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostCounters, counters, sizeof hostCounters, cudaMemcpyDeviceToHost));
  std::sort(values.begin(), values.end());
  std::printf("quicksort of %d keys: %s, %d failed launches, recursion reached depth %s\n", n,
              sorted == values ? "sorted" : "NOT SORTED", hostCounters[1],
              hostCounters[0] > 4 && hostCounters[0] <= kMaxDepth ? "between 5 and 16" : "out of range");
  CHECK(cudaFree(data));
  CHECK(cudaFree(counters));
  return 0;
}
