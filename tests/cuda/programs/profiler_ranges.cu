// Profiler ranges, as programs mark the part worth profiling: a warm-up
// launch, then cudaProfilerStart, two launches, cudaProfilerStop and a
// final launch. Every launch runs and is checked against the host; under
// `ptxsim run --profile-from-start off` only the two launches inside the
// range get a --stats record (tests/cli/run_cli_tests.sh checks that).
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

__global__ void warmUp(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = i;
}

__global__ void square(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

__global__ void addOffset(int* data, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += offset;
}

__global__ void negate(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = -data[i];
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  int* data = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));

  warmUp<<<blocks, threads>>>(data, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  square<<<blocks, threads>>>(data, n);
  CHECK(cudaGetLastError());
  addOffset<<<blocks, threads>>>(data, n, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStop());

  negate<<<blocks, threads>>>(data, n);
  CHECK(cudaGetLastError());
  // A second stop, and a start with nothing after it, are accepted too.
  CHECK(cudaProfilerStop());

  std::vector<int> host(n);
  CHECK(cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost));
  int mismatches = 0;
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    int expected = -(i * i + 7);
    if (host[i] != expected) ++mismatches;
    sum += host[i];
  }
  std::printf("profiler ranges: %d elements, %d mismatches, sum %lld\n", n, mismatches, sum);
  CHECK(cudaProfilerStart());
  CHECK(cudaFree(data));
  return mismatches == 0 ? 0 : 1;
}
