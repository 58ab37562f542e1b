// Streams and events: work split over several streams with asynchronous
// copies from pinned memory, a cross-stream dependency through
// cudaStreamWaitEvent, event queries and elapsed times (only their sign is
// printed: the values depend on the machine).
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

__global__ void fill(int* data, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = base + i * 3;
}

// Spins a little so that a missing dependency would show on the GPU.
__global__ void slowScale(int* data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = data[i];
  for (int k = 0; k < 200; ++k) v = (v * 7 + k) % 1000003;
  data[i] = v * factor;
}

// Reads what another stream produced.
__global__ void combine(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] - b[i];
}

int main() {
  const int n = 4096, kStreams = 4;
  const size_t bytes = n * sizeof(int);
  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamCreate(&streams[s]));
  cudaStream_t nonBlocking;
  CHECK(cudaStreamCreateWithFlags(&nonBlocking, cudaStreamNonBlocking));

  int* host = nullptr;
  CHECK(cudaMallocHost(&host, kStreams * bytes));
  int* dev[kStreams];
  for (int s = 0; s < kStreams; ++s) CHECK(cudaMalloc(&dev[s], bytes));
  for (int s = 0; s < kStreams; ++s)
    for (int i = 0; i < n; ++i) host[s * n + i] = s * 100000 + i;

  cudaEvent_t start, stop, produced[kStreams], untimed;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  for (int s = 0; s < kStreams; ++s) CHECK(cudaEventCreateWithFlags(&produced[s], cudaEventDisableTiming));

  CHECK(cudaEventRecord(start, 0));
  // Each stream: copy in, scale, copy out, in its own order.
  for (int s = 0; s < kStreams; ++s) {
    CHECK(cudaMemcpyAsync(dev[s], host + s * n, bytes, cudaMemcpyHostToDevice, streams[s]));
    slowScale<<<(n + 255) / 256, 256, 0, streams[s]>>>(dev[s], n, s + 1);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(produced[s], streams[s]));
  }
  // Stream 0 waits for stream 3's result and combines the two.
  int* combined = nullptr;
  CHECK(cudaMalloc(&combined, bytes));
  CHECK(cudaStreamWaitEvent(streams[0], produced[3], 0));
  combine<<<(n + 127) / 128, 128, 0, streams[0]>>>(dev[3], dev[0], combined, n);
  CHECK(cudaGetLastError());
  // The non-blocking stream waits on stream 1 and overwrites its input copy
  // only after stream 1's kernel has read it.
  CHECK(cudaStreamWaitEvent(nonBlocking, produced[1], 0));
  fill<<<(n + 255) / 256, 256, 0, nonBlocking>>>(dev[1], n, -5);
  CHECK(cudaEventRecord(untimed, nonBlocking));
  for (int s = 0; s < kStreams; ++s) {
    CHECK(cudaMemcpyAsync(host + s * n, dev[s], bytes, cudaMemcpyDeviceToHost, s == 1 ? nonBlocking : streams[s]));
  }
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventSynchronize(stop));
  for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamSynchronize(streams[s]));
  CHECK(cudaStreamSynchronize(nonBlocking));

  std::printf("cudaEventQuery(stop): %s\n", cudaGetErrorName(cudaEventQuery(stop)));
  std::printf("cudaEventQuery(untimed): %s\n", cudaGetErrorName(cudaEventQuery(untimed)));
  for (int s = 0; s < kStreams; ++s)
    std::printf("cudaStreamQuery(stream %d): %s\n", s, cudaGetErrorName(cudaStreamQuery(streams[s])));

  for (int s = 0; s < kStreams; ++s) {
    long long sum = 0;
    for (int i = 0; i < n; ++i) sum += host[s * n + i];
    std::printf("stream %d: first %d last %d sum %lld\n", s, host[s * n], host[s * n + n - 1], sum);
  }
  int* result = nullptr;
  CHECK(cudaMallocHost(&result, bytes));
  CHECK(cudaMemcpy(result, combined, bytes, cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += result[i];
  std::printf("combined: first %d sum %lld\n", result[0], sum);

  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("elapsed time >= 0: %s\n", ms >= 0 ? "yes" : "no");
  std::printf("elapsed time with an untimed event: %s\n",
              cudaGetErrorName(cudaEventElapsedTime(&ms, start, untimed)));
  cudaGetLastError();

  // A kernel in the legacy default stream waits for the blocking streams.
  fill<<<(n + 255) / 256, 256, 0, streams[2]>>>(dev[2], n, 7);
  fill<<<(n + 255) / 256, 256>>>(dev[2], n, 9);
  CHECK(cudaMemcpy(result, dev[2], bytes, cudaMemcpyDeviceToHost));
  std::printf("default stream after stream 2: first %d last %d\n", result[0], result[n - 1]);

  CHECK(cudaFreeHost(result));
  for (int s = 0; s < kStreams; ++s) CHECK(cudaEventDestroy(produced[s]));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(untimed));
  for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamDestroy(streams[s]));
  CHECK(cudaStreamDestroy(nonBlocking));
  for (int s = 0; s < kStreams; ++s) CHECK(cudaFree(dev[s]));
  CHECK(cudaFree(combined));
  CHECK(cudaFreeHost(host));
  std::printf("done\n");
  return 0;
}
