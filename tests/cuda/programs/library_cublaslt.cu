// cuBLASLt as a program calls it: a matmul chosen by the library's
// heuristic, in single precision with alpha and beta, then with half
// inputs, single-precision output and a bias-and-ReLU epilogue; each
// checked against a host computation on small integers (exact in every
// precision, so the results must equal the host's bit for bit); and an fp8
// (e4m3) matmul in the layout fp8 asks for (A transposed), single-precision
// output, which runs on mma.sync's fp8 forms.
// nvcc flags: -lcublasLt
// ptxsim flags: --config h100_forward
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdio>
#include <vector>

#include "check.h"

#define LT_CHECK(call) STATUS_CHECK(call, CUBLAS_STATUS_SUCCESS, cublasLtGetStatusName)

namespace {

const int m = 64, n = 48, k = 40;

float value(int i, int seed) { return static_cast<float>(static_cast<int>((i * 5 + seed * 11) % 7) - 3); }

// Runs D = alpha op(A) B + beta C (column-major, C and D the same buffer)
// with the heuristic's first algorithm.
cublasStatus_t matmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, cudaDataType inType, cudaDataType outType,
                      const void* alpha, const void* a, const void* b, const void* beta, void* c,
                      void* workspace, size_t workspaceBytes, int* algorithms) {
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatrixLayoutCreate(&la, inType, m, k, m);
  cublasLtMatrixLayoutCreate(&lb, inType, k, n, k);
  cublasLtMatrixLayoutCreate(&lc, outType, m, n, m);
  cublasLtMatmulPreference_t preference;
  cublasLtMatmulPreferenceCreate(&preference);
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
                                       sizeof workspaceBytes);
  cublasLtMatmulHeuristicResult_t result = {};
  cublasStatus_t s =
      cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, preference, 1, &result, algorithms);
  if (s == CUBLAS_STATUS_SUCCESS && *algorithms > 0) {
    s = cublasLtMatmul(lt, op, alpha, a, la, b, lb, beta, c, lc, c, lc, &result.algo, workspace,
                       workspaceBytes, 0);
  }
  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  return s;
}

}  // namespace

int main() {
  cublasLtHandle_t lt;
  LT_CHECK(cublasLtCreate(&lt));
  std::vector<float> a(m * k), b(k * n), c(m * n), bias(m);
  for (int i = 0; i < m * k; ++i) a[i] = value(i, 1);
  for (int i = 0; i < k * n; ++i) b[i] = value(i, 2);
  for (int i = 0; i < m * n; ++i) c[i] = value(i, 3);
  for (int i = 0; i < m; ++i) bias[i] = static_cast<float>(i % 5) - 2;
  std::vector<__half> ha(a.size()), hb(b.size());
  for (size_t i = 0; i < a.size(); ++i) ha[i] = __float2half(a[i]);
  for (size_t i = 0; i < b.size(); ++i) hb[i] = __float2half(b[i]);
  float *dA, *dB, *dC, *dBias;
  __half *dHA, *dHB;
  void* workspace;
  const size_t workspaceBytes = 4 << 20;
  CHECK(cudaMalloc(&dA, a.size() * 4));
  CHECK(cudaMalloc(&dB, b.size() * 4));
  CHECK(cudaMalloc(&dC, c.size() * 4));
  CHECK(cudaMalloc(&dBias, bias.size() * 4));
  CHECK(cudaMalloc(&dHA, ha.size() * 2));
  CHECK(cudaMalloc(&dHB, hb.size() * 2));
  CHECK(cudaMalloc(&workspace, workspaceBytes));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dBias, bias.data(), bias.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dHA, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dHB, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));

  // Single precision: D = 2 A B - C.
  cublasLtMatmulDesc_t single;
  LT_CHECK(cublasLtMatmulDescCreate(&single, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  float alpha = 2, beta = -1;
  int algorithms = 0;
  LT_CHECK(matmul(lt, single, CUDA_R_32F, CUDA_R_32F, &alpha, dA, dB, &beta, dC, workspace, workspaceBytes,
                  &algorithms));
  std::printf("single-precision matmul: the heuristic offers an algorithm: %s\n",
              algorithms > 0 ? "yes" : "no");
  std::vector<float> got(m * n);
  CHECK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float sum = 0;
      for (int p = 0; p < k; ++p) sum += a[i + p * m] * b[p + j * k];
      wrong += got[i + j * m] != 2 * sum - c[i + j * m] ? 1 : 0;
    }
  }
  std::printf("single-precision matmul: %d of %d elements differ from the host's\n", wrong, m * n);

  // Half inputs, single output, bias added and negatives cut (ReLU).
  cublasLtMatmulDesc_t mixed;
  LT_CHECK(cublasLtMatmulDescCreate(&mixed, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
  LT_CHECK(cublasLtMatmulDescSetAttribute(mixed, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
  LT_CHECK(cublasLtMatmulDescSetAttribute(mixed, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dBias, sizeof dBias));
  cudaDataType biasType = CUDA_R_32F;
  LT_CHECK(
      cublasLtMatmulDescSetAttribute(mixed, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &biasType, sizeof biasType));
  float one = 1, zero = 0;
  LT_CHECK(matmul(lt, mixed, CUDA_R_16F, CUDA_R_32F, &one, dHA, dHB, &zero, dC, workspace, workspaceBytes,
                  &algorithms));
  CHECK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
  wrong = 0;
  int cut = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float sum = bias[i];
      for (int p = 0; p < k; ++p) sum += a[i + p * m] * b[p + j * k];
      cut += sum < 0 ? 1 : 0;
      wrong += got[i + j * m] != (sum < 0 ? 0.0f : sum) ? 1 : 0;
    }
  }
  std::printf(
      "half-input matmul with bias and ReLU: %d of %d elements differ from the host's (%d cut to 0)\n", wrong,
      m * n, cut);

  // fp8: D = A^T B with A stored k x m, e4m3 inputs, f32 output.
  const int k8 = 64;
  std::vector<__nv_fp8_e4m3> a8(k8 * m), b8(k8 * n);
  std::vector<float> a8Values(a8.size()), b8Values(b8.size());
  for (size_t i = 0; i < a8.size(); ++i) a8[i] = __nv_fp8_e4m3(a8Values[i] = value(static_cast<int>(i), 4));
  for (size_t i = 0; i < b8.size(); ++i) b8[i] = __nv_fp8_e4m3(b8Values[i] = value(static_cast<int>(i), 5));
  void *dA8, *dB8;
  CHECK(cudaMalloc(&dA8, a8.size()));
  CHECK(cudaMalloc(&dB8, b8.size()));
  CHECK(cudaMemcpy(dA8, a8.data(), a8.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB8, b8.data(), b8.size(), cudaMemcpyHostToDevice));
  cublasLtMatmulDesc_t fp8;
  LT_CHECK(cublasLtMatmulDescCreate(&fp8, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t transposed = CUBLAS_OP_T;
  LT_CHECK(cublasLtMatmulDescSetAttribute(fp8, CUBLASLT_MATMUL_DESC_TRANSA, &transposed, sizeof transposed));
  cublasLtMatrixLayout_t la8, lb8, lc8;
  LT_CHECK(cublasLtMatrixLayoutCreate(&la8, CUDA_R_8F_E4M3, k8, m, k8));
  LT_CHECK(cublasLtMatrixLayoutCreate(&lb8, CUDA_R_8F_E4M3, k8, n, k8));
  LT_CHECK(cublasLtMatrixLayoutCreate(&lc8, CUDA_R_32F, m, n, m));
  cublasLtMatmulPreference_t preference;
  LT_CHECK(cublasLtMatmulPreferenceCreate(&preference));
  LT_CHECK(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                &workspaceBytes, sizeof workspaceBytes));
  cublasLtMatmulHeuristicResult_t result = {};
  algorithms = 0;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(lt, fp8, la8, lb8, lc8, lc8, preference, 1, &result, &algorithms));
  std::printf("fp8 matmul: the heuristic offers an algorithm: %s\n", algorithms > 0 ? "yes" : "no");
  if (algorithms > 0) {
    LT_CHECK(cublasLtMatmul(lt, fp8, &one, dA8, la8, dB8, lb8, &zero, dC, lc8, dC, lc8, &result.algo,
                            workspace, workspaceBytes, 0));
    CHECK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
    wrong = 0;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        float sum = 0;
        for (int p = 0; p < k8; ++p) sum += a8Values[p + i * k8] * b8Values[p + j * k8];
        wrong += got[i + j * m] != sum ? 1 : 0;
      }
    }
    std::printf("fp8 matmul: %d of %d elements differ from the host's\n", wrong, m * n);
  }
  cublasLtMatmulPreferenceDestroy(preference);
  cublasLtMatrixLayoutDestroy(la8);
  cublasLtMatrixLayoutDestroy(lb8);
  cublasLtMatrixLayoutDestroy(lc8);
  cublasLtMatmulDescDestroy(fp8);

  cublasLtMatmulDescDestroy(single);
  cublasLtMatmulDescDestroy(mixed);
  LT_CHECK(cublasLtDestroy(lt));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
