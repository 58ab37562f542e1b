// Shared host side of the instruction-semantics programs in this folder.
//
// Each program defines
//   __device__ unsigned int case_count = N;
//   extern "C" __global__ void cases(unsigned long long* out);
// The kernel runs as one block of 32 threads and writes out[0..N): the raw
// bits of each instruction result for hand-picked edge-case inputs (mostly
// through inline PTX, so the exact instruction is under test). On a real GPU
// this main prints them; tests/gpu_truth/record.sh stores that output as
// NAME.expected, and tests/sim/gpu_truth_test.cpp runs the same kernel on
// the simulator and compares line by line.
#pragma once

#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define PTXSIM_CHECK(call)                                                           \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));      \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main() {
  unsigned int count = 0;
  PTXSIM_CHECK(cudaMemcpyFromSymbol(&count, case_count, sizeof count));
  unsigned long long* out = nullptr;
  PTXSIM_CHECK(cudaMalloc(&out, count * sizeof(unsigned long long)));
  PTXSIM_CHECK(cudaMemset(out, 0, count * sizeof(unsigned long long)));
  cases<<<1, 32>>>(out);
  PTXSIM_CHECK(cudaGetLastError());
  PTXSIM_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> host(count);
  PTXSIM_CHECK(cudaMemcpy(host.data(), out, count * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  for (unsigned int i = 0; i < count; ++i) std::printf("case %u: 0x%016llx\n", i, host[i]);
  return 0;
}
