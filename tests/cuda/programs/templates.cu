// Templated kernels instantiated for several element types, with non-type
// template parameters (block size, unroll count) and functor types.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// A block-wide tree reduction with the block size as a template parameter.
template <typename T, int kBlock>
__global__ void blockSum(const T* in, T* out, int n) {
  __shared__ T partial[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

struct Square {
  template <typename T>
  __device__ T operator()(T v) const { return v * v; }
};
struct Negate {
  template <typename T>
  __device__ T operator()(T v) const { return -v; }
};
struct ClampTo {
  int limit;
  template <typename T>
  __device__ T operator()(T v) const { return v > T(limit) ? T(limit) : v; }
};

template <typename T, typename Op, int kUnroll>
__global__ void transform(T* data, int n, Op op) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * kUnroll;
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    if (base + k < n) data[base + k] = op(data[base + k]);
  }
}

template <typename T>
const char* typeName();
template <> const char* typeName<int>() { return "int"; }
template <> const char* typeName<unsigned char>() { return "unsigned char"; }
template <> const char* typeName<long long>() { return "long long"; }
template <> const char* typeName<float>() { return "float"; }
template <> const char* typeName<double>() { return "double"; }

void print(int v) { std::printf(" %d", v); }
void print(unsigned char v) { std::printf(" %u", v); }
void print(long long v) { std::printf(" %lld", v); }
void print(float v) { std::printf(" %.9g", v); }
void print(double v) { std::printf(" %.17g", v); }

template <typename T>
int run(T a) {
  const int n = 1000;
  std::vector<T> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<T>(i % 37) / static_cast<T>(3);
    y[i] = static_cast<T>(i % 11);
  }
  T *dx, *dy, *dsum;
  CHECK(cudaMalloc(&dx, n * sizeof(T)));
  CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CHECK(cudaMalloc(&dsum, 8 * sizeof(T)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  axpy<T><<<(n + 127) / 128, 128>>>(a, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s axpy:", typeName<T>());
  for (int i : {0, 1, 2, 36, 37, 500, 999}) print(y[i]);
  std::printf("\n");

  blockSum<T, 128><<<8, 128>>>(dy, dsum, n);
  CHECK(cudaGetLastError());
  std::vector<T> sums(8);
  CHECK(cudaMemcpy(sums.data(), dsum, 8 * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s block sums (128):", typeName<T>());
  for (T s : sums) print(s);
  std::printf("\n");
  blockSum<T, 512><<<2, 512>>>(dy, dsum, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sums.data(), dsum, 2 * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s block sums (512):", typeName<T>());
  print(sums[0]);
  print(sums[1]);
  std::printf("\n");

  transform<T, Square, 4><<<(n / 4 + 63) / 64, 64>>>(dy, n, Square{});
  transform<T, ClampTo, 2><<<(n / 2 + 63) / 64, 64>>>(dy, n, ClampTo{50});
  transform<T, Negate, 1><<<(n + 63) / 64, 64>>>(dy, n / 2, Negate{});
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s transformed:", typeName<T>());
  for (int i : {0, 1, 2, 36, 37, 499, 500, 999}) print(y[i]);
  std::printf("\n");
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dsum));
  return 0;
}

int main() {
  int failures = 0;
  failures += run<int>(3);
  failures += run<unsigned char>(5);
  failures += run<long long>(-1234567890123LL);
  failures += run<float>(0.1f);
  failures += run<double>(-2.5e-3);
  std::printf("done, %d failures\n", failures);
  return failures;
}
