// cuSOLVER's dense LU and Cholesky as programs call them: factor, then
// solve, with pivots and the info word, and a singular matrix reported in
// info; the solutions checked by their residual on the host.
// nvcc flags: -lcusolver -lcublas
// ptxsim flags: --config h100_forward
#include <cusolverDn.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

#define SOLVER_CHECK(call) STATUS_CHECK(call, CUSOLVER_STATUS_SUCCESS, statusNumber)

namespace {

const int n = 40;

// The largest |A x - b| over the largest |b| (column-major A).
double residual(const std::vector<double>& a, const std::vector<double>& x, const std::vector<double>& b) {
  double worst = 0, scale = 0;
  for (int i = 0; i < n; ++i) {
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += a[i + j * n] * x[j];
    worst = std::max(worst, std::fabs(sum - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return worst / scale;
}

}  // namespace

int main() {
  cusolverDnHandle_t handle;
  SOLVER_CHECK(cusolverDnCreate(&handle));
  std::vector<double> a(n * n), spd(n * n), b(n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) a[i + j * n] = std::sin(1.3 * i + 0.7 * j) + (i == j ? 0.5 : 0.0);
  }
  // A symmetric positive definite matrix: M^T M + n I.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      double sum = i == j ? n : 0;
      for (int p = 0; p < n; ++p) sum += a[p + i * n] * a[p + j * n];
      spd[i + j * n] = sum;
    }
  }
  for (int i = 0; i < n; ++i) b[i] = std::cos(0.3 * i);
  double *dA, *dB, *work;
  int *pivots, *info;
  CHECK(cudaMalloc(&dA, n * n * 8));
  CHECK(cudaMalloc(&dB, n * 8));
  CHECK(cudaMalloc(&pivots, n * 4));
  CHECK(cudaMalloc(&info, 4));

  // LU with partial pivoting, then the solve.
  CHECK(cudaMemcpy(dA, a.data(), n * n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), n * 8, cudaMemcpyHostToDevice));
  int lwork = 0;
  SOLVER_CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, dA, n, &lwork));
  CHECK(cudaMalloc(&work, (lwork + 1) * 8));
  SOLVER_CHECK(cusolverDnDgetrf(handle, n, n, dA, n, work, pivots, info));
  int hostInfo = -1;
  CHECK(cudaMemcpy(&hostInfo, info, 4, cudaMemcpyDeviceToHost));
  std::printf("getrf info: %d\n", hostInfo);
  SOLVER_CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_N, n, 1, dA, n, pivots, dB, n, info));
  std::vector<double> x(n);
  CHECK(cudaMemcpy(x.data(), dB, n * 8, cudaMemcpyDeviceToHost));
  std::vector<int> hostPivots(n);
  CHECK(cudaMemcpy(hostPivots.data(), pivots, n * 4, cudaMemcpyDeviceToHost));
  std::printf("LU pivots 1-4: %d %d %d %d\n", hostPivots[0], hostPivots[1], hostPivots[2], hostPivots[3]);
  std::printf("LU solve: residual below 1e-12: %s\n", residual(a, x, b) < 1e-12 ? "yes" : "no");

  // Cholesky of the positive definite matrix, then the solve.
  CHECK(cudaMemcpy(dA, spd.data(), n * n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), n * 8, cudaMemcpyHostToDevice));
  int choleskyWork = 0;
  SOLVER_CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, &choleskyWork));
  double* work2;
  CHECK(cudaMalloc(&work2, (choleskyWork + 1) * 8));
  SOLVER_CHECK(cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, work2, choleskyWork, info));
  CHECK(cudaMemcpy(&hostInfo, info, 4, cudaMemcpyDeviceToHost));
  std::printf("potrf info: %d\n", hostInfo);
  SOLVER_CHECK(cusolverDnDpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, dA, n, dB, n, info));
  CHECK(cudaMemcpy(x.data(), dB, n * 8, cudaMemcpyDeviceToHost));
  std::printf("Cholesky solve: residual below 1e-12: %s\n", residual(spd, x, b) < 1e-12 ? "yes" : "no");

  // A singular matrix: column 3 is zero; getrf reports the first zero pivot.
  std::vector<double> singular(a);
  for (int i = 0; i < n; ++i) singular[i + 3 * n] = 0;
  CHECK(cudaMemcpy(dA, singular.data(), n * n * 8, cudaMemcpyHostToDevice));
  SOLVER_CHECK(cusolverDnDgetrf(handle, n, n, dA, n, work, pivots, info));
  CHECK(cudaMemcpy(&hostInfo, info, 4, cudaMemcpyDeviceToHost));
  std::printf("getrf of a singular matrix, info: %d\n", hostInfo);

  SOLVER_CHECK(cusolverDnDestroy(handle));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
