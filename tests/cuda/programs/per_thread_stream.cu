// nvcc flags: --default-stream per-thread
// A program built for the per-thread default stream (the flag defines
// CUDA_API_PER_THREAD_DEFAULT_STREAM, which makes every API call the
// _ptds/_ptsz variant), with two host threads each
// working on its own default stream: synchronous and asynchronous copies and
// fills (1D, 2D, 3D, symbols, arrays), kernel launches and peer copies on
// the single device; each thread checks its results against a host
// computation.
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

#include "check.h"

__constant__ int offsets[2];

__global__ void scaleAndOffset(int* data, int n, int factor, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offsets[which];
}

int work(int which, int* errors) {
  const int n = 4096;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i + which * 100000;
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemcpy(a, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scaleAndOffset<<<n / 256, 256>>>(a, n, 3, which);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyPeer(b, 0, a, 0, n * sizeof(int)));
  CHECK(cudaMemsetAsync(a, 0, n * sizeof(int), 0));
  scaleAndOffset<<<n / 256, 256, 0, 0>>>(b, n, 2, which);
  std::vector<int> out(n);
  CHECK(cudaMemcpyAsync(out.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  CHECK(cudaStreamSynchronize(0));
  int offset = which == 0 ? 7 : -5;
  for (int i = 0; i < n; ++i) *errors += out[i] != (host[i] * 3 + offset) * 2 + offset;

  // 2D: a 64 x 16 window of a pitched allocation, filled then copied back.
  void* pitched = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pitched, &pitch, 64, 16));
  CHECK(cudaMemset2D(pitched, pitch, 0x11 * (which + 1), 64, 16));
  CHECK(cudaMemset2DAsync(pitched, pitch, 0x7f, 8, 4, 0));
  std::vector<unsigned char> window(64 * 16);
  CHECK(cudaMemcpy2D(window.data(), 64, pitched, pitch, 64, 16, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 64; ++x) *errors += window[y * 64 + x] != (x < 8 && y < 4 ? 0x7f : 0x11 * (which + 1));
  }
  // A CUDA array round trip.
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &desc, 256, 1));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), 256 * sizeof(int), 256 * sizeof(int), 1,
                            cudaMemcpyHostToDevice));
  std::vector<int> back(256);
  CHECK(cudaMemcpy2DFromArrayAsync(back.data(), 256 * sizeof(int), array, 0, 0, 256 * sizeof(int), 1,
                                   cudaMemcpyDeviceToHost, 0));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  for (int i = 0; i < 256; ++i) *errors += back[i] != host[i];
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 0;
}

int main() {
  const int values[2] = {7, -5};
  CHECK(cudaMemcpyToSymbol(offsets, values, sizeof values));
  int readBack[2] = {};
  CHECK(cudaMemcpyFromSymbolAsync(readBack, offsets, sizeof readBack, 0, cudaMemcpyDeviceToHost, 0));
  CHECK(cudaDeviceSynchronize());
  std::printf("symbol: %d %d\n", readBack[0], readBack[1]);

  int errors[2] = {0, 0}, status[2] = {-1, -1};
  std::thread first([&] { status[0] = work(0, &errors[0]); });
  std::thread second([&] { status[1] = work(1, &errors[1]); });
  first.join();
  second.join();
  for (int t = 0; t < 2; ++t) std::printf("thread %d: status %d, %d errors\n", t, status[t], errors[t]);

  int* d = nullptr;
  CHECK(cudaMalloc(&d, 64));
  std::printf("cudaMemcpyPeer to device 1: %s\n", cudaGetErrorName(cudaMemcpyPeer(d, 1, d, 0, 64)));
  std::printf("get last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(d));
  return 0;
}
