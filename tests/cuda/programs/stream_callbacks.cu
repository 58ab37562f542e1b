// Host functions in stream order (cudaLaunchHostFunc, cudaStreamAddCallback)
// on created, legacy and per-thread default streams; stream priorities,
// flags, ids, devices, queries and access-policy attributes.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "check.h"

__global__ void scale(int* data, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offset;
}

struct Log {
  char lines[16][96];
  int count = 0;
};

struct HostCheck {
  Log* log;
  const int* host;
  int n;
  int factor, offset;
  const char* name;
};

// Runs after the copy back issued before it: checks the data it finds.
void CUDART_CB checkResult(void* userData) {
  auto* c = static_cast<HostCheck*>(userData);
  int bad = 0;
  for (int i = 0; i < c->n; ++i) bad += c->host[i] != i * c->factor + c->offset;
  std::snprintf(c->log->lines[c->log->count++], 96, "%s: %d of %d values wrong", c->name, bad, c->n);
}

struct CallbackData {
  Log* log;
  cudaStream_t expected;
};

void CUDART_CB streamCallback(cudaStream_t stream, cudaError_t status, void* userData) {
  auto* d = static_cast<CallbackData*>(userData);
  std::snprintf(d->log->lines[d->log->count++], 96, "callback: status %s, stream %s", cudaGetErrorName(status),
                stream == d->expected ? "as passed" : "different");
}

int main() {
  const int n = 1 << 12;
  Log log;
  int *host = nullptr, *dev = nullptr;
  CHECK(cudaMallocHost(&host, n * sizeof(int)));
  CHECK(cudaMalloc(&dev, n * sizeof(int)));

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  // Created stream: copy in, scale, copy out, then a host function that checks.
  for (int i = 0; i < n; ++i) host[i] = i;
  CHECK(cudaMemcpyAsync(dev, host, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  scale<<<n / 256, 256, 0, stream>>>(dev, n, 3, 1);
  CHECK(cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  HostCheck created{&log, host, n, 3, 1, "host function after copy (created stream)"};
  CHECK(cudaLaunchHostFunc(stream, checkResult, &created));
  CallbackData createdCallback{&log, stream};
  CHECK(cudaStreamAddCallback(stream, streamCallback, &createdCallback, 0));
  CHECK(cudaStreamSynchronize(stream));

  // Legacy default stream.
  for (int i = 0; i < n; ++i) host[i] = i;
  CHECK(cudaMemcpyAsync(dev, host, n * sizeof(int), cudaMemcpyHostToDevice, 0));
  scale<<<n / 256, 256>>>(dev, n, 5, -2);
  CHECK(cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  HostCheck legacy{&log, host, n, 5, -2, "host function after copy (legacy stream)"};
  CHECK(cudaLaunchHostFunc(0, checkResult, &legacy));
  CallbackData legacyCallback{&log, 0};
  CHECK(cudaStreamAddCallback(0, streamCallback, &legacyCallback, 0));
  CHECK(cudaDeviceSynchronize());

  // Per-thread default stream.
  for (int i = 0; i < n; ++i) host[i] = i;
  CHECK(cudaMemcpyAsync(dev, host, n * sizeof(int), cudaMemcpyHostToDevice, cudaStreamPerThread));
  scale<<<n / 256, 256, 0, cudaStreamPerThread>>>(dev, n, 7, 4);
  CHECK(cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread));
  HostCheck perThread{&log, host, n, 7, 4, "host function after copy (per-thread stream)"};
  CHECK(cudaLaunchHostFunc(cudaStreamPerThread, checkResult, &perThread));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  for (int i = 0; i < log.count; ++i) std::printf("%s\n", log.lines[i]);

  std::printf("callback with flags 1: %s\n",
              cudaGetErrorName(cudaStreamAddCallback(stream, streamCallback, &createdCallback, 1)));
  std::printf("host function null: %s\n", cudaGetErrorName(cudaLaunchHostFunc(stream, nullptr, nullptr)));
  cudaGetLastError();

  // Priorities: the device's range, clamping, flags.
  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  std::printf("priority range: least %d, greatest %d\n", least, greatest);
  const int asked[] = {0, -1, -5, -9, 4};
  for (int p : asked) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p));
    int got = 99;
    unsigned flags = 99;
    CHECK(cudaStreamGetPriority(s, &got));
    CHECK(cudaStreamGetFlags(s, &flags));
    std::printf("created with priority %d: priority %d, flags %u\n", p, got, flags);
    CHECK(cudaStreamDestroy(s));
  }
  int defaultPriority = 99;
  unsigned defaultFlags = 99;
  CHECK(cudaStreamGetPriority(stream, &defaultPriority));
  CHECK(cudaStreamGetFlags(stream, &defaultFlags));
  std::printf("cudaStreamCreate: priority %d, flags %u\n", defaultPriority, defaultFlags);

  // Ids: distinct for distinct streams, stable for one.
  cudaStream_t other;
  CHECK(cudaStreamCreate(&other));
  unsigned long long id1 = 0, id1again = 0, id2 = 0;
  CHECK(cudaStreamGetId(stream, &id1));
  CHECK(cudaStreamGetId(stream, &id1again));
  CHECK(cudaStreamGetId(other, &id2));
  std::printf("stream ids: stable %s, distinct %s\n", id1 == id1again ? "yes" : "no", id1 != id2 ? "yes" : "no");
  int device = -1;
  CHECK(cudaStreamGetDevice(stream, &device));
  std::printf("stream device: %d\n", device);
  std::printf("query after synchronize: %s\n", cudaGetErrorName(cudaStreamQuery(stream)));

  // An access-policy window: a cache hint, read back as set and copied.
  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = dev;
  window.accessPolicyWindow.num_bytes = n * sizeof(int);
  window.accessPolicyWindow.hitRatio = 0.5f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window));
  CHECK(cudaStreamCopyAttributes(other, stream));
  cudaStreamAttrValue readBack{};
  CHECK(cudaStreamGetAttribute(other, cudaStreamAttributeAccessPolicyWindow, &readBack));
  std::printf("copied window: %zu bytes, hit ratio %.2f, same base %s, hit persisting %s\n",
              readBack.accessPolicyWindow.num_bytes, readBack.accessPolicyWindow.hitRatio,
              readBack.accessPolicyWindow.base_ptr == dev ? "yes" : "no",
              readBack.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting ? "yes" : "no");
  // The hint does not change results.
  scale<<<n / 256, 256, 0, stream>>>(dev, n, 1, 10);
  CHECK(cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != i * 7 + 4 + 10;
  std::printf("with the window: %d of %d values wrong\n", bad, n);

  CHECK(cudaStreamDestroy(other));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(host));
  return 0;
}
