// The cuBLAS start-up benchmark's program (run_overhead_benchmark): a handle,
// one 256 x 256 SGEMM, the result checked on the host. nvcc's default build
// (the runtime linked in), cuBLAS as it ships.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  const int n = 256;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 7 - 3);
    b[i] = static_cast<float>(i % 5 - 2);
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  float one = 1, zero = 0;
  if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &zero, dc, n) !=
      CUBLAS_STATUS_SUCCESS) {
    return 1;
  }
  cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      float sum = 0;
      for (int k = 0; k < n; ++k) sum += a[i + k * n] * b[k + j * n];
      wrong += sum != c[i + j * n] ? 1 : 0;
    }
  }
  cublasDestroy(handle);
  std::printf("SGEMM %dx%d: %d wrong\n", n, n, wrong);
  return wrong == 0 ? 0 : 1;
}
