// A small CUDA program for the `ptxsim run` overhead benchmark: one launch
// of a 4096-element vector add, checked on the host.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 4096;
  static float a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) a[i] = b[i] = static_cast<float>(i);
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  add<<<n / 256, 256>>>(da, db, dc, n);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += c[i] != 2.0f * static_cast<float>(i);
  std::printf("%d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
