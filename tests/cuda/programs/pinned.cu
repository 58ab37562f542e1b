// Pinned (page-locked) host memory: cudaMallocHost, cudaHostAlloc with its
// flags, memory registered with cudaHostRegister, kernels reading and
// writing mapped host memory directly (zero-copy), cudaHostGetDevicePointer,
// cudaHostGetFlags and cudaPointerGetAttributes on each kind of pointer.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.h"

__global__ void squareInPlace(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

__global__ void sumInto(const int* in, unsigned long long* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(in[i]));
}

const char* typeName(cudaMemoryType t) {
  switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

void describe(const char* what, const void* p) {
  cudaPointerAttributes a;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  std::printf("%-28s %s type %s, host pointer %s, device pointer %s\n", what, cudaGetErrorName(e), typeName(a.type),
              a.hostPointer == nullptr ? "null" : (a.hostPointer == p ? "same" : "other"),
              a.devicePointer == nullptr ? "null" : (a.devicePointer == p ? "same" : "other"));
}

int main() {
  const int n = 1000;
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags));
  std::printf("device flags include cudaDeviceMapHost: %s\n", (flags & cudaDeviceMapHost) ? "yes" : "no");

  int* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  for (int i = 0; i < n; ++i) pinned[i] = i - 500;
  int* device = nullptr;
  CHECK(cudaMalloc(&device, n * sizeof(int)));
  CHECK(cudaMemcpy(device, pinned, n * sizeof(int), cudaMemcpyHostToDevice));
  squareInPlace<<<(n + 127) / 128, 128>>>(device, n);
  CHECK(cudaMemcpy(pinned, device, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("copied through pinned memory: %d %d %d\n", pinned[0], pinned[500], pinned[999]);

  // Zero-copy: the kernel works on host memory itself.
  int* mapped = nullptr;
  CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; ++i) mapped[i] = i % 37;
  int* mappedOnDevice = nullptr;
  CHECK(cudaHostGetDevicePointer(&mappedOnDevice, mapped, 0));
  std::printf("device pointer of mapped memory is the host pointer: %s\n", mappedOnDevice == mapped ? "yes" : "no");
  squareInPlace<<<(n + 127) / 128, 128>>>(mappedOnDevice, n);
  CHECK(cudaDeviceSynchronize());
  long long mappedSum = 0;
  for (int i = 0; i < n; ++i) mappedSum += mapped[i];
  std::printf("zero-copy squares: %d %d, sum %lld\n", mapped[6], mapped[36], mappedSum);
  CHECK(cudaHostGetFlags(&flags, mapped));
  std::printf("cudaHostGetFlags: mapped %s, portable %s\n", (flags & cudaHostAllocMapped) ? "yes" : "no",
              (flags & cudaHostAllocPortable) ? "yes" : "no");

  // Write-combined memory: written by the host, read by a kernel.
  int* combined = nullptr;
  CHECK(cudaHostAlloc(&combined, n * sizeof(int), cudaHostAllocWriteCombined | cudaHostAllocMapped));
  for (int i = 0; i < n; ++i) combined[i] = 3 * i;
  unsigned long long* total = nullptr;
  CHECK(cudaMallocHost(&total, sizeof *total));
  *total = 0;
  sumInto<<<(n + 255) / 256, 256>>>(combined, total, n);
  CHECK(cudaDeviceSynchronize());
  std::printf("sum of write-combined memory, accumulated in pinned memory: %llu\n", *total);

  // Ordinary memory registered after the fact.
  const size_t registeredBytes = 4096;
  int* ordinary = static_cast<int*>(std::aligned_alloc(4096, registeredBytes));
  for (int i = 0; i < 1024; ++i) ordinary[i] = i;
  describe("before cudaHostRegister:", ordinary);
  CHECK(cudaHostRegister(ordinary, registeredBytes, cudaHostRegisterMapped));
  describe("after cudaHostRegister:", ordinary);
  int* ordinaryOnDevice = nullptr;
  CHECK(cudaHostGetDevicePointer(&ordinaryOnDevice, ordinary, 0));
  squareInPlace<<<8, 128>>>(ordinaryOnDevice, 1024);
  CHECK(cudaDeviceSynchronize());
  std::printf("registered memory squared: %d %d %d\n", ordinary[2], ordinary[100], ordinary[1023]);
  std::printf("cudaHostRegister twice: %s\n",
              cudaGetErrorName(cudaHostRegister(ordinary, registeredBytes, cudaHostRegisterDefault)));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaHostUnregister(ordinary));
  describe("after cudaHostUnregister:", ordinary);
  std::printf("cudaHostUnregister twice: %s\n", cudaGetErrorName(cudaHostUnregister(ordinary)));
  std::printf("cudaHostGetDevicePointer of unregistered memory: %s\n",
              cudaGetErrorName(cudaHostGetDevicePointer(&ordinaryOnDevice, ordinary, 0)));
  cudaGetLastError();
  std::free(ordinary);

  describe("cudaMallocHost pointer:", pinned);
  describe("cudaMalloc pointer:", device);
  int onStack = 0;
  describe("stack pointer:", &onStack);
  describe("null:", nullptr);

  // Asynchronous copies between pinned buffers and the device, in a stream.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  for (int i = 0; i < n; ++i) pinned[i] = 2 * i + 1;
  CHECK(cudaMemcpyAsync(device, pinned, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  squareInPlace<<<(n + 127) / 128, 128, 0, stream>>>(device, n);
  CHECK(cudaMemcpyAsync(pinned, device, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("async round trip: %d %d\n", pinned[0], pinned[999]);
  CHECK(cudaStreamDestroy(stream));

  std::printf("cudaFreeHost of a device pointer: %s\n", cudaGetErrorName(cudaFreeHost(device)));
  cudaGetLastError();
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFreeHost(mapped));
  CHECK(cudaFreeHost(combined));
  CHECK(cudaFreeHost(total));
  CHECK(cudaFree(device));
  std::printf("done\n");
  return 0;
}
