// The CDP2 streams: a named stream (two grids in order, the second using
// the first's results), a fire-and-forget grid, and a tail launch that sums
// everything the others wrote (it runs once the launching grid and all its
// other work completed); launches into each block's own NULL stream in
// order; and an invalid launch configuration seen by the device-side
// cudaGetLastError.

#include "cdp.h"

namespace {

constexpr int kCount = 1000;
constexpr int kBlock = 128;
constexpr int kGrid = (kCount + kBlock - 1) / kBlock;

}  // namespace

__global__ void fill(int* x, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = base + i;
}

__global__ void square(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

__global__ void negate(int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -i;
}

__global__ void summarize(const int* x, const int* y, int n, long long* out) {
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += x[i] + y[i];
  *out = sum;
}

__global__ void pipeline(int* x, int* y, int n, long long* out, int* errors) {
  if (threadIdx.x != 0) return;
  cudaStream_t s;
  errors[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fill<<<kGrid, kBlock, 0, s>>>(x, n, 3);
  errors[1] = cudaGetLastError();
  square<<<kGrid, kBlock, 0, s>>>(x, n);
  errors[2] = cudaGetLastError();
  negate<<<kGrid, kBlock, 0, cudaStreamFireAndForget>>>(y, n);
  errors[3] = cudaGetLastError();
  summarize<<<1, 1, 0, cudaStreamTailLaunch>>>(x, y, n, out);
  errors[4] = cudaGetLastError();
  errors[5] = cudaStreamDestroy(s);
  fill<<<1, 2048>>>(x, n, 0);  // more threads per block than any device has
  errors[6] = cudaGetLastError();
  errors[7] = cudaGetLastError();  // the call before cleared it
}

// Appends a digit to the block's slot: in order only if the block's NULL
// stream ran the three grids in the order they were launched.
__global__ void appendDigit(int* slot, int digit) { *slot = *slot * 10 + digit; }

__global__ void perBlockStream(int* slots) {
  if (threadIdx.x != 0) return;
  for (int digit = 1; digit <= 3; ++digit) appendDigit<<<1, 1>>>(&slots[blockIdx.x], digit);
}

int runStreams() {
  int *x, *y, *errors, *slots;
  long long* out;
  CHECK(cudaMalloc(&x, kCount * sizeof(int)));
  CHECK(cudaMalloc(&y, kCount * sizeof(int)));
  CHECK(cudaMalloc(&errors, 8 * sizeof(int)));
  CHECK(cudaMalloc(&slots, 4 * sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof(long long)));
  CHECK(cudaMemset(errors, 0xff, 8 * sizeof(int)));
  CHECK(cudaMemset(slots, 0, 4 * sizeof(int)));
  pipeline<<<1, 32>>>(x, y, kCount, out, errors);
  CHECK(cudaGetLastError());
  perBlockStream<<<4, 32>>>(slots);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long sum = 0;
  int hostErrors[8], hostSlots[4];
  CHECK(cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostErrors, errors, sizeof hostErrors, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostSlots, slots, sizeof hostSlots, cudaMemcpyDeviceToHost));
  long long expected = 0;
  for (long long i = 0; i < kCount; ++i) expected += (3 + i) * (3 + i) - i;
  std::printf("named stream, fire-and-forget and tail launch: sum %lld (%s)\n", sum,
              sum == expected ? "right" : "WRONG");
  const char* calls[8] = {"cudaStreamCreateWithFlags", "launch fill",           "launch square",
                          "launch fire-and-forget",    "tail launch",           "cudaStreamDestroy",
                          "launch of 2048 threads",    "cudaGetLastError again"};
  for (int i = 0; i < 8; ++i) {
    std::printf("  device %s: %s\n", calls[i], cudaGetErrorName(static_cast<cudaError_t>(hostErrors[i])));
  }
  std::printf("per-block streams: %d %d %d %d\n", hostSlots[0], hostSlots[1], hostSlots[2], hostSlots[3]);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(errors));
  CHECK(cudaFree(slots));
  CHECK(cudaFree(out));
  return 0;
}
