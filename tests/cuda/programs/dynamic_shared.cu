// Dynamic shared memory: extern __shared__ arrays sized at launch, used as
// several typed arrays, alongside static shared memory, and more than
// 48 KiB after cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

// Reverses each block's chunk through shared memory of blockDim.x ints.
__global__ void reverseChunks(const int* in, int* out) {
  extern __shared__ int chunk[];
  int base = blockIdx.x * blockDim.x;
  chunk[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = chunk[blockDim.x - 1 - threadIdx.x];
}

// One dynamic buffer split into a double array and a short array; a static
// array beside it.
__global__ void mixed(const int* in, double* sums, int n) {
  extern __shared__ double dyn[];
  __shared__ int counts[32];
  double* values = dyn;
  short* flags = reinterpret_cast<short*>(values + blockDim.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] * 0.5 : 0.0;
  flags[threadIdx.x] = static_cast<short>(i < n && in[i] % 3 == 0);
  if (threadIdx.x < 32) counts[threadIdx.x] = 0;
  __syncthreads();
  if (flags[threadIdx.x]) atomicAdd(&counts[threadIdx.x % 32], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = 0;
    int c = 0;
    for (int k = 0; k < blockDim.x; ++k) s += values[k];
    for (int k = 0; k < 32; ++k) c += counts[k];
    sums[blockIdx.x * 2] = s;
    sums[blockIdx.x * 2 + 1] = c;
  }
}

// Fills all of a large dynamic buffer and checks every word of it.
__global__ void bigBuffer(unsigned* result, int words) {
  extern __shared__ unsigned big[];
  for (int k = threadIdx.x; k < words; k += blockDim.x) big[k] = k * 2654435761u;
  __syncthreads();
  unsigned bad = 0, sum = 0;
  for (int k = threadIdx.x; k < words; k += blockDim.x) {
    int other = words - 1 - k;
    bad += big[other] != other * 2654435761u;
    sum += big[other];
  }
  atomicAdd(&result[0], bad);
  atomicAdd(&result[1], sum);
}

int main() {
  const int n = 1024;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i * 7 % 101;
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  for (int block : {32, 128, 256}) {
    reverseChunks<<<n / block, block, block * sizeof(int)>>>(in, out);
    CHECK(cudaGetLastError());
    std::vector<int> r(n);
    CHECK(cudaMemcpy(r.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && r[i] == h[(i / block) * block + block - 1 - i % block];
    std::printf("reverse in chunks of %d: %s, out[0]=%d out[%d]=%d\n", block, ok ? "ok" : "WRONG", r[0], n - 1,
                r[n - 1]);
  }

  double* sums;
  CHECK(cudaMalloc(&sums, 16 * sizeof(double)));
  const int block = 192;
  size_t bytes = block * (sizeof(double) + sizeof(short));
  mixed<<<(n + block - 1) / block, block, bytes>>>(in, sums, n);
  CHECK(cudaGetLastError());
  double s[12];
  CHECK(cudaMemcpy(s, sums, sizeof s, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 6; ++b) std::printf("mixed block %d: sum %.1f multiples of 3: %.0f\n", b, s[2 * b], s[2 * b + 1]);

  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, mixed));
  std::printf("mixed: static shared %zu bytes\n", attributes.sharedSizeBytes);
  CHECK(cudaFuncGetAttributes(&attributes, bigBuffer));
  std::printf("bigBuffer: static shared %zu, max dynamic %d\n", attributes.sharedSizeBytes,
              attributes.maxDynamicSharedSizeBytes);

  unsigned* result;
  CHECK(cudaMalloc(&result, 2 * sizeof(unsigned)));
  int device = 0, optin = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // 48 KiB works without opting in; more needs the attribute.
  for (int kib : {16, 48, 100, 200}) {
    int words = kib * 1024 / 4;
    CHECK(cudaMemset(result, 0, 2 * sizeof(unsigned)));
    if (kib > 48) {
      bigBuffer<<<2, 256, kib * 1024>>>(result, words);
      std::printf("%d KiB before opting in: %s\n", kib, cudaGetErrorName(cudaGetLastError()));
      CHECK(cudaFuncSetAttribute(bigBuffer, cudaFuncAttributeMaxDynamicSharedMemorySize, kib * 1024));
      CHECK(cudaFuncGetAttributes(&attributes, bigBuffer));
      std::printf("max dynamic after opting in: %d\n", attributes.maxDynamicSharedSizeBytes);
    }
    bigBuffer<<<2, 256, kib * 1024>>>(result, words);
    CHECK(cudaGetLastError());
    unsigned r[2];
    CHECK(cudaMemcpy(r, result, sizeof r, cudaMemcpyDeviceToHost));
    std::printf("%d KiB: %u mismatches, checksum %u\n", kib, r[0], r[1]);
  }
  // The whole opt-in limit works; one byte more does not.
  std::printf("cudaFuncSetAttribute to the opt-in limit: %s\n",
              cudaGetErrorName(cudaFuncSetAttribute(bigBuffer, cudaFuncAttributeMaxDynamicSharedMemorySize, optin)));
  std::printf("cudaFuncSetAttribute one byte more: %s\n",
              cudaGetErrorName(cudaFuncSetAttribute(bigBuffer, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1)));
  cudaGetLastError();
  CHECK(cudaMemset(result, 0, 2 * sizeof(unsigned)));
  bigBuffer<<<1, 1024, optin>>>(result, optin / 4);
  CHECK(cudaGetLastError());
  unsigned r[2];
  CHECK(cudaMemcpy(r, result, sizeof r, cudaMemcpyDeviceToHost));
  std::printf("opt-in limit: %u mismatches, checksum %u\n", r[0], r[1]);
  bigBuffer<<<1, 1024, optin + 4>>>(result, optin / 4);
  std::printf("opt-in limit plus 4 bytes: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(result));
  std::printf("done\n");
  return 0;
}
