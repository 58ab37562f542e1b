// cuBLAS as a program links it: SGEMM, DGEMM and HGEMM with transposes,
// alpha and beta, strided and pointer-array batches, GemmEx with half
// inputs and single-precision accumulation, and a level-1 routine, each
// checked against a host computation. Inputs are small integers, so every
// product and sum is exact in each precision and the results must equal
// the host's bit for bit whatever order the kernel adds in; a second SGEMM
// of fractions is held to a relative error instead.
// nvcc flags: -lcublas
// ptxsim flags: --config h100_forward
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

#define CUBLAS_CHECK(call) STATUS_CHECK(call, CUBLAS_STATUS_SUCCESS, cublasGetStatusName)

namespace {

// Column-major op(A) (m x k) times op(B) (k x n), scaled, plus beta C.
std::vector<double> hostGemm(bool transA, bool transB, int m, int n, int k, double alpha,
                             const std::vector<double>& a, int lda, const std::vector<double>& b, int ldb,
                             double beta, const std::vector<double>& c, int ldc) {
  std::vector<double> out(c);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int p = 0; p < k; ++p) {
        double x = transA ? a[p + i * lda] : a[i + p * lda];
        double y = transB ? b[j + p * ldb] : b[p + j * ldb];
        sum += x * y;
      }
      out[i + j * ldc] = alpha * sum + beta * c[i + j * ldc];
    }
  }
  return out;
}

// Small integers from -4 to 4, a different pattern per seed.
std::vector<double> integers(size_t count, int seed) {
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = static_cast<double>(static_cast<int>((i * 7 + seed * 13) % 9) - 4);
  return v;
}

template <typename T>
std::vector<T> as(const std::vector<double>& v) {
  std::vector<T> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<T>(v[i]);
  return out;
}

template <typename T>
T* toDevice(const std::vector<T>& v) {
  T* d = nullptr;
  if (cudaMalloc(&d, v.size() * sizeof(T)) != cudaSuccess) return nullptr;
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<double> fromDevice(const T* d, size_t count) {
  std::vector<T> h(count);
  cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost);
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<double>(h[i]);
  return out;
}

int differing(const std::vector<double>& got, const std::vector<double>& want) {
  int n = 0;
  for (size_t i = 0; i < got.size(); ++i) n += got[i] != want[i] ? 1 : 0;
  return n;
}

}  // namespace

int main() {
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  int version = 0;
  CUBLAS_CHECK(cublasGetVersion(handle, &version));
  std::printf("cuBLAS version at least 13.0: %s\n", version >= 130000 ? "yes" : "no");

  // SGEMM, every transpose pair, with alpha 2 and beta -1.
  const int m = 96, n = 80, k = 72;
  for (int t = 0; t < 4; ++t) {
    bool transA = t & 1, transB = t & 2;
    int lda = transA ? k : m, ldb = transB ? n : k, ldc = m;
    std::vector<double> a = integers(size_t(lda) * (transA ? m : k), 1), b = integers(size_t(ldb) * (transB ? k : n), 2),
                        c = integers(size_t(ldc) * n, 3);
    float *dA = toDevice(as<float>(a)), *dB = toDevice(as<float>(b)), *dC = toDevice(as<float>(c));
    float alpha = 2, beta = -1;
    CUBLAS_CHECK(cublasSgemm(handle, transA ? CUBLAS_OP_T : CUBLAS_OP_N, transB ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k,
                             &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
    std::vector<double> want = hostGemm(transA, transB, m, n, k, 2, a, lda, b, ldb, -1, c, ldc);
    std::printf("SGEMM %c%c %dx%dx%d: %d of %zu elements differ from the host's\n", transA ? 'T' : 'N',
                transB ? 'T' : 'N', m, n, k, differing(fromDevice(dC, want.size()), want), want.size());
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
  }

  // SGEMM of fractions: rounding differs with the order of the additions,
  // so the result is held to single precision's relative error.
  {
    std::vector<double> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n, 0.0);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::sin(0.37 * i));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(std::cos(0.21 * i));
    float *dA = toDevice(as<float>(a)), *dB = toDevice(as<float>(b)), *dC = toDevice(as<float>(c));
    float one = 1, zero = 0;
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m, dB, k, &zero, dC, m));
    std::vector<double> got = fromDevice(dC, c.size());
    std::vector<double> want = hostGemm(false, false, m, n, k, 1, a, m, b, k, 0, c, m);
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      double scale = 0;
      for (int p = 0; p < k; ++p) scale += std::fabs(a[i % m + p * m] * b[p + (i / m) * k]);
      worst = std::max(worst, std::fabs(got[i] - want[i]) / scale);
    }
    std::printf("SGEMM of fractions: error within 1e-6 of the sum of magnitudes: %s\n", worst < 1e-6 ? "yes" : "no");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
  }

  // DGEMM, A transposed.
  {
    std::vector<double> a = integers(size_t(k) * m, 4), b = integers(size_t(k) * n, 5), c = integers(size_t(m) * n, 6);
    double *dA = toDevice(a), *dB = toDevice(b), *dC = toDevice(c);
    double alpha = -3, beta = 0.5;
    CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, k, dB, k, &beta, dC, m));
    std::vector<double> want = hostGemm(true, false, m, n, k, -3, a, k, b, k, 0.5, c, m);
    std::printf("DGEMM TN: %d of %zu elements differ from the host's\n", differing(fromDevice(dC, want.size()), want),
                want.size());
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
  }

  // HGEMM, and GemmEx with half inputs accumulating in single precision.
  {
    const int hk = 32;  // sums stay within half's exact integers
    std::vector<double> a = integers(size_t(m) * hk, 7), b = integers(size_t(hk) * n, 8), c(size_t(m) * n, 0.0);
    for (double& x : a) x = std::fmod(x, 3.0);
    __half *dA = toDevice(as<__half>(a)), *dB = toDevice(as<__half>(b)), *dC = toDevice(as<__half>(c));
    __half one = __float2half(1.0f), zero = __float2half(0.0f);
    CUBLAS_CHECK(cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, hk, &one, dA, m, dB, hk, &zero, dC, m));
    std::vector<double> want = hostGemm(false, false, m, n, hk, 1, a, m, b, hk, 0, c, m);
    std::printf("HGEMM NN %dx%dx%d: %d of %zu elements differ from the host's\n", m, n, hk,
                differing(fromDevice(dC, want.size()), want), want.size());
    float *dF = toDevice(as<float>(c));
    float fOne = 1, fZero = 0;
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, hk, &fOne, dA, CUDA_R_16F, m, dB, CUDA_R_16F, hk,
                              &fZero, dF, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::printf("GemmEx half in, float out: %d of %zu elements differ from the host's\n",
                differing(fromDevice(dF, want.size()), want), want.size());
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dF);
  }

  // Batches: five SGEMMs a stride apart, then three through pointer arrays.
  {
    const int bm = 24, bn = 20, bk = 16, batches = 5;
    std::vector<double> a = integers(size_t(bm) * bk * batches, 9), b = integers(size_t(bk) * bn * batches, 10),
                        c(size_t(bm) * bn * batches, 0.0);
    float *dA = toDevice(as<float>(a)), *dB = toDevice(as<float>(b)), *dC = toDevice(as<float>(c));
    float one = 1, zero = 0;
    CUBLAS_CHECK(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, bm, bn, bk, &one, dA, bm, bm * bk, dB, bk,
                                           bk * bn, &zero, dC, bm, bm * bn, batches));
    std::vector<double> got = fromDevice(dC, c.size());
    int wrong = 0;
    for (int i = 0; i < batches; ++i) {
      std::vector<double> ai(a.begin() + i * bm * bk, a.begin() + (i + 1) * bm * bk);
      std::vector<double> bi(b.begin() + i * bk * bn, b.begin() + (i + 1) * bk * bn);
      std::vector<double> gi(got.begin() + i * bm * bn, got.begin() + (i + 1) * bm * bn);
      wrong += differing(gi, hostGemm(false, false, bm, bn, bk, 1, ai, bm, bi, bk, 0,
                                      std::vector<double>(size_t(bm) * bn, 0.0), bm));
    }
    std::printf("strided batch of %d: %d elements differ from the host's\n", batches, wrong);
    std::vector<const float*> as_(3), bs(3);
    std::vector<float*> cs(3);
    for (int i = 0; i < 3; ++i) {
      as_[i] = dA + i * bm * bk;
      bs[i] = dB + i * bk * bn;
      cs[i] = dC + i * bm * bn;
    }
    CHECK(cudaMemset(dC, 0, c.size() * sizeof(float)));
    const float **dAs = toDevice(as_), **dBs = toDevice(bs);
    float** dCs = toDevice(cs);
    CUBLAS_CHECK(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, bm, bn, bk, &one, dAs, bm, dBs, bk, &zero, dCs, bm,
                                    3));
    std::vector<double> got3 = fromDevice(dC, size_t(bm) * bn * 3);
    std::vector<double> want3(got.begin(), got.begin() + bm * bn * 3);
    std::printf("pointer-array batch of 3: %d elements differ from the strided batch's\n", differing(got3, want3));
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dAs);
    cudaFree(dBs);
    cudaFree(dCs);
  }

  // Level 1: a dot product of integers, returned to the host.
  {
    std::vector<double> x = integers(1000, 11), y = integers(1000, 12);
    float *dX = toDevice(as<float>(x)), *dY = toDevice(as<float>(y));
    float dot = 0;
    CUBLAS_CHECK(cublasSdot(handle, 1000, dX, 1, dY, 1, &dot));
    double want = 0;
    for (int i = 0; i < 1000; ++i) want += x[i] * y[i];
    std::printf("SDOT: %g (host %g)\n", dot, want);
    cudaFree(dX);
    cudaFree(dY);
  }

  // A bad argument is the caller's error, not a launch.
  float unused = 0;
  std::printf("SGEMM with m = -1: %s\n",
              cublasGetStatusName(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 1, 1, &unused, nullptr, 1, nullptr,
                                              1, &unused, nullptr, 1)));
  CUBLAS_CHECK(cublasDestroy(handle));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
