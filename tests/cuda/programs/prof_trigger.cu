// __prof_trigger(n) counts, measured on the GPU by Nsight Compute (the
// profiler's prof_trigger_0n counters, recorded in prof_trigger.metrics)
// and compared with ptxsim's statistics. The kernel is the end-to-end one,
// whose expected counts are derived by hand there.
#include <cuda_runtime.h>

#include <cstdio>

#include "../e2e/prof_trigger.cu"
#include "check.h"

int main() {
  int* out = nullptr;
  CHECK(cudaMalloc(&out, 2 * 96 * sizeof(int)));
  triggers<<<2, 96>>>(out);
  CHECK(cudaGetLastError());
  int h[2 * 96];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int v : h) sum += v;
  std::printf("sum of thread indices: %ld\n", sum);
  CHECK(cudaFree(out));
  return 0;
}
