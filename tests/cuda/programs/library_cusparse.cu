// cuSPARSE's generic API as programs call it: a CSR matrix times a dense
// vector (SpMV) and times a dense matrix (SpMM), with alpha and beta, and
// a COO matrix times a vector, and a lower-triangular solve (SpSV, whose
// blocks wait for each other's rows); each checked against a host
// computation on small integers (exact, so the results must equal the
// host's bit for bit).
// nvcc flags: -lcusparse
// ptxsim flags: --config h100_forward
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "check.h"

#define SPARSE_CHECK(call) STATUS_CHECK(call, CUSPARSE_STATUS_SUCCESS, cusparseGetErrorName)

template <typename T>
T* toDevice(const std::vector<T>& v) {
  T* d = nullptr;
  cudaMalloc(&d, v.size() * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

int main() {
  // A 300 x 200 matrix with a banded, irregular pattern.
  const int rows = 300, cols = 200;
  std::vector<int> rowOffsets{0}, columns, cooRows;
  std::vector<float> values;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if ((r * 7 + c * 3) % 11 == 0 || c == r % cols) {
        columns.push_back(c);
        cooRows.push_back(r);
        values.push_back(static_cast<float>((r + 2 * c) % 9 - 4));
      }
    }
    rowOffsets.push_back(static_cast<int>(columns.size()));
  }
  const int nnz = static_cast<int>(values.size());
  std::printf("matrix %d x %d with %d nonzeros\n", rows, cols, nnz);
  std::vector<float> x(cols), y(rows);
  for (int i = 0; i < cols; ++i) x[i] = static_cast<float>(i % 5 - 2);
  for (int i = 0; i < rows; ++i) y[i] = static_cast<float>(i % 3 - 1);

  cusparseHandle_t handle;
  SPARSE_CHECK(cusparseCreate(&handle));
  int *dOffsets = toDevice(rowOffsets), *dColumns = toDevice(columns), *dCooRows = toDevice(cooRows);
  float *dValues = toDevice(values), *dX = toDevice(x), *dY = toDevice(y);
  cusparseSpMatDescr_t csr, coo;
  SPARSE_CHECK(cusparseCreateCsr(&csr, rows, cols, nnz, dOffsets, dColumns, dValues, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateCoo(&coo, rows, cols, nnz, dCooRows, dColumns, dValues, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  cusparseDnVecDescr_t vx, vy;
  SPARSE_CHECK(cusparseCreateDnVec(&vx, cols, dX, CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vy, rows, dY, CUDA_R_32F));

  // y = 3 A x - 2 y, with CSR then COO (y restored between them).
  float alpha = 3, beta = -2;
  std::vector<float> want(rows);
  for (int r = 0; r < rows; ++r) {
    float sum = 0;
    for (int i = rowOffsets[r]; i < rowOffsets[r + 1]; ++i) sum += values[i] * x[columns[i]];
    want[r] = alpha * sum + beta * y[r];
  }
  for (cusparseSpMatDescr_t matrix : {csr, coo}) {
    CHECK(cudaMemcpy(dY, y.data(), rows * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0;
    SPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vx, &beta,
                                         vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* buffer = nullptr;
    CHECK(cudaMalloc(&buffer, bytes + 1));
    SPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, vx, &beta, vy,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    std::vector<float> got(rows);
    CHECK(cudaMemcpy(got.data(), dY, rows * 4, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int r = 0; r < rows; ++r) wrong += got[r] != want[r] ? 1 : 0;
    std::printf("SpMV %s: %d of %d elements differ from the host's\n", matrix == csr ? "CSR" : "COO", wrong,
                rows);
    cudaFree(buffer);
  }

  // C = A B for a dense 200 x 8 B (column-major).
  const int bcols = 8;
  std::vector<float> b(cols * bcols), c(rows * bcols, 0.0f);
  for (int i = 0; i < cols * bcols; ++i) b[i] = static_cast<float>(i % 7 - 3);
  float *dB = toDevice(b), *dC = toDevice(c);
  cusparseDnMatDescr_t mb, mc;
  SPARSE_CHECK(cusparseCreateDnMat(&mb, cols, bcols, cols, dB, CUDA_R_32F, CUSPARSE_ORDER_COL));
  SPARSE_CHECK(cusparseCreateDnMat(&mc, rows, bcols, rows, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
  float one = 1, zero = 0;
  size_t bytes = 0;
  SPARSE_CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       CUSPARSE_OPERATION_NON_TRANSPOSE, &one, csr, mb, &zero, mc, CUDA_R_32F,
                                       CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, bytes + 1));
  SPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                            csr, mb, &zero, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
  std::vector<float> got(rows * bcols);
  CHECK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int j = 0; j < bcols; ++j) {
    for (int r = 0; r < rows; ++r) {
      float sum = 0;
      for (int i = rowOffsets[r]; i < rowOffsets[r + 1]; ++i) sum += values[i] * b[columns[i] + j * cols];
      wrong += got[r + j * rows] != sum ? 1 : 0;
    }
  }
  std::printf("SpMM CSR times %d columns: %d of %d elements differ from the host's\n", bcols, wrong,
              rows * bcols);

  // SpSV: L x = b for a 512 x 512 lower-triangular L with a unit diagonal
  // and entries of +-1 reaching back up to 40 rows, b made from an integer x.
  const int n = 512;
  std::vector<int> lOffsets{0}, lColumns;
  std::vector<float> lValues, xTrue(n), rhs(n, 0);
  for (int r = 0; r < n; ++r) {
    xTrue[r] = static_cast<float>(r % 5 - 2);
    for (int c = std::max(0, r - 40); c <= r; ++c) {
      if (c != r && (r * 5 + c * 3) % 7 != 0) continue;
      lColumns.push_back(c);
      lValues.push_back(c == r ? 1.0f : ((r + c) % 2 == 0 ? 1.0f : -1.0f));
      rhs[r] += lValues.back() * xTrue[c];
    }
    lOffsets.push_back(static_cast<int>(lColumns.size()));
  }
  int* dLOffsets = toDevice(lOffsets);
  int* dLColumns = toDevice(lColumns);
  float* dLValues = toDevice(lValues);
  float* dRhs = toDevice(rhs);
  float* dSolution = toDevice(std::vector<float>(n, 0));
  cusparseSpMatDescr_t lower;
  SPARSE_CHECK(cusparseCreateCsr(&lower, n, n, static_cast<int64_t>(lValues.size()), dLOffsets, dLColumns,
                                 dLValues, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 CUDA_R_32F));
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diagonal = CUSPARSE_DIAG_TYPE_NON_UNIT;
  SPARSE_CHECK(cusparseSpMatSetAttribute(lower, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  SPARSE_CHECK(cusparseSpMatSetAttribute(lower, CUSPARSE_SPMAT_DIAG_TYPE, &diagonal, sizeof diagonal));
  cusparseDnVecDescr_t vRhs, vSolution;
  SPARSE_CHECK(cusparseCreateDnVec(&vRhs, n, dRhs, CUDA_R_32F));
  SPARSE_CHECK(cusparseCreateDnVec(&vSolution, n, dSolution, CUDA_R_32F));
  cusparseSpSVDescr_t spsv;
  SPARSE_CHECK(cusparseSpSV_createDescr(&spsv));
  float unit = 1;
  size_t spsvBytes = 0;
  SPARSE_CHECK(cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &unit, lower, vRhs,
                                       vSolution, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, &spsvBytes));
  void* spsvBuffer = nullptr;
  CHECK(cudaMalloc(&spsvBuffer, spsvBytes > 0 ? spsvBytes : 1));
  SPARSE_CHECK(cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &unit, lower, vRhs, vSolution,
                                     CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv, spsvBuffer));
  SPARSE_CHECK(cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &unit, lower, vRhs, vSolution,
                                  CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv));
  std::vector<float> solution(n);
  CHECK(cudaMemcpy(solution.data(), dSolution, n * sizeof(float), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int r = 0; r < n; ++r) wrong += solution[r] != xTrue[r] ? 1 : 0;
  std::printf("SpSV lower-triangular %d x %d with %zu nonzeros: %d of %d elements differ from the host's\n",
              n, n, lValues.size(), wrong, n);
  SPARSE_CHECK(cusparseSpSV_destroyDescr(spsv));
  cusparseDestroySpMat(lower);
  cusparseDestroyDnVec(vRhs);
  cusparseDestroyDnVec(vSolution);

  cusparseDestroySpMat(csr);
  cusparseDestroySpMat(coo);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  SPARSE_CHECK(cusparseDestroy(handle));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
