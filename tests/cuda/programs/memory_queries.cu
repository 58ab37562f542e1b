// Unified-memory queries and batches as programs use them: advice and
// prefetches read back with cudaMemRangeGetAttribute(s), batch prefetch,
// discard and copies (1D and 3D with a CUDA array) in stream order, the
// per-location memory pools, driver entry points, host atomic
// capabilities and the error log's iterator.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "check.h"

constexpr size_t kChunk = 64 * 1024;  // advice ranges: whole 64 KiB chunks

__global__ void fill(int* data, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = base + i;
}

int rangeInt(cudaMemRangeAttribute attribute, const void* p, size_t bytes) {
  int value = 777;
  cudaError_t e = cudaMemRangeGetAttribute(&value, sizeof value, attribute, p, bytes);
  return e == cudaSuccess ? value : -1000 - static_cast<int>(e);
}

int main() {
  char* managed = nullptr;
  CHECK(cudaMallocManaged(&managed, 16 * kChunk));
  cudaMemLocation device{cudaMemLocationTypeDevice, 0}, host{cudaMemLocationTypeHost, 0};

  // Advice.
  CHECK(cudaMemAdvise(managed, 4 * kChunk, cudaMemAdviseSetReadMostly, device));
  CHECK(cudaMemAdvise(managed + 4 * kChunk, 4 * kChunk, cudaMemAdviseSetPreferredLocation, device));
  CHECK(cudaMemAdvise(managed + 8 * kChunk, 4 * kChunk, cudaMemAdviseSetPreferredLocation, host));
  CHECK(cudaMemAdvise(managed, 16 * kChunk, cudaMemAdviseSetAccessedBy, device));
  std::printf("read mostly: first %d, all %d\n", rangeInt(cudaMemRangeAttributeReadMostly, managed, 4 * kChunk),
              rangeInt(cudaMemRangeAttributeReadMostly, managed, 16 * kChunk));
  std::printf("preferred: device part %d, host part %d, both %d\n",
              rangeInt(cudaMemRangeAttributePreferredLocation, managed + 4 * kChunk, 4 * kChunk),
              rangeInt(cudaMemRangeAttributePreferredLocation, managed + 8 * kChunk, 4 * kChunk),
              rangeInt(cudaMemRangeAttributePreferredLocation, managed + 4 * kChunk, 8 * kChunk));
  std::printf("preferred type: device part %d (id %d), host part %d, none %d\n",
              rangeInt(cudaMemRangeAttributePreferredLocationType, managed + 4 * kChunk, kChunk),
              rangeInt(cudaMemRangeAttributePreferredLocationId, managed + 4 * kChunk, kChunk),
              rangeInt(cudaMemRangeAttributePreferredLocationType, managed + 8 * kChunk, kChunk),
              rangeInt(cudaMemRangeAttributePreferredLocationType, managed + 12 * kChunk, kChunk));
  int accessedBy[3];
  CHECK(cudaMemRangeGetAttribute(accessedBy, sizeof accessedBy, cudaMemRangeAttributeAccessedBy, managed,
                                 16 * kChunk));
  std::printf("accessed by: %d %d %d\n", accessedBy[0], accessedBy[1], accessedBy[2]);
  std::printf("wrong size: %s\n",
              cudaGetErrorName(cudaMemRangeGetAttribute(accessedBy, 8, cudaMemRangeAttributeReadMostly, managed, 64)));
  int* device_only = nullptr;
  CHECK(cudaMalloc(&device_only, 4096));
  std::printf("device memory: %s\n", cudaGetErrorName(cudaMemRangeGetAttribute(
                                         accessedBy, 4, cudaMemRangeAttributeReadMostly, device_only, 64)));
  cudaGetLastError();

  // Prefetches in a stream, then several attributes at once.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  std::printf("before prefetch: %d\n", rangeInt(cudaMemRangeAttributeLastPrefetchLocation, managed, kChunk));
  CHECK(cudaMemPrefetchAsync(managed, 8 * kChunk, device, 0, stream));
  void* ptrs[2] = {managed + 8 * kChunk, managed + 12 * kChunk};
  size_t sizes[2] = {2 * kChunk, 4 * kChunk};
  cudaMemLocation locations[2] = {device, host};
  size_t locationStarts[2] = {0, 1};
  CHECK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locations, locationStarts, 2, 0, stream));
  CHECK(cudaStreamSynchronize(stream));
  int last = 0, lastType = 0, readMostly = 0;
  void* data[3] = {&last, &lastType, &readMostly};
  size_t dataSizes[3] = {4, 4, 4};
  cudaMemRangeAttribute attributes[3] = {cudaMemRangeAttributeLastPrefetchLocation,
                                         cudaMemRangeAttributeLastPrefetchLocationType,
                                         cudaMemRangeAttributeReadMostly};
  CHECK(cudaMemRangeGetAttributes(data, dataSizes, attributes, 3, managed, 8 * kChunk));
  std::printf("after prefetch: last %d, type %d, read mostly %d\n", last, lastType, readMostly);
  std::printf("batch: first %d, second %d, mixed %d\n",
              rangeInt(cudaMemRangeAttributeLastPrefetchLocation, managed + 8 * kChunk, 2 * kChunk),
              rangeInt(cudaMemRangeAttributeLastPrefetchLocation, managed + 12 * kChunk, 4 * kChunk),
              rangeInt(cudaMemRangeAttributeLastPrefetchLocation, managed, 16 * kChunk));
  size_t badStarts[2] = {1, 1};
  std::printf("batch prefetch, first index 1: %s\n",
              cudaGetErrorName(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locations, badStarts, 2, 0, stream)));
  std::printf("batch prefetch, legacy stream: %s\n",
              cudaGetErrorName(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locations, locationStarts, 2, 0, 0)));
  cudaGetLastError();

  // Discard, then write again with a kernel: the data are the kernel's.
  int* numbers = reinterpret_cast<int*>(managed);
  void* discard[1] = {numbers};
  size_t discardSize[1] = {kChunk};
  CHECK(cudaMemDiscardBatchAsync(discard, discardSize, 1, 0, stream));
  fill<<<4, 64, 0, stream>>>(numbers, 256, 1000);
  CHECK(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locations, locationStarts, 2, 0, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after discard and fill: %d %d\n", numbers[0], numbers[255]);

  // A batch of 1D copies: host to device to host, in stream order.
  int source[64], back[64];
  for (int i = 0; i < 64; ++i) source[i] = i * i;
  int* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, sizeof source));
  void* dsts[2] = {buffer, buffer + 32};
  const void* srcs[2] = {source, source + 32};
  size_t copySizes[2] = {32 * sizeof(int), 32 * sizeof(int)};
  cudaMemcpyAttributes attrs{};
  attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t attrsStart = 0;
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, copySizes, 2, &attrs, &attrsStart, 1, stream));
  CHECK(cudaMemcpyAsync(back, buffer, sizeof back, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("batch copy: %d %d %d\n", back[0], back[33], back[63]);
  cudaMemcpyAttributes noOrder{};
  std::printf("batch copy, no access order: %s\n",
              cudaGetErrorName(cudaMemcpyBatchAsync(dsts, srcs, copySizes, 2, &noOrder, &attrsStart, 1, stream)));
  cudaGetLastError();

  // A 3D batch: host rows into a 2D array, and back out into a pitched layout.
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, 8, 4));
  int rows[4][8], out[4][10];
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) rows[y][x] = 100 * y + x;
  std::memset(out, 0, sizeof out);
  cudaMemcpy3DBatchOp ops[2]{};
  ops[0].src.type = cudaMemcpyOperandTypePointer;
  ops[0].src.op.ptr.ptr = rows;
  ops[0].dst.type = cudaMemcpyOperandTypeArray;
  ops[0].dst.op.array.array = array;
  ops[0].extent = {8, 4, 1};
  ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  CHECK(cudaMemcpy3DBatchAsync(1, ops, 0, stream));
  ops[1].src.type = cudaMemcpyOperandTypeArray;
  ops[1].src.op.array.array = array;
  ops[1].src.op.array.offset = {2, 1, 0};
  ops[1].dst.type = cudaMemcpyOperandTypePointer;
  ops[1].dst.op.ptr.ptr = out;
  ops[1].dst.op.ptr.rowLength = 10;
  ops[1].extent = {5, 3, 1};
  ops[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  CHECK(cudaMemcpy3DBatchAsync(1, ops + 1, 0, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("3D batch: %d %d %d %d\n", out[0][0], out[0][4], out[2][0], out[2][4]);
  ops[1].extent = {0, 3, 1};
  std::printf("3D batch, empty extent: %s\n", cudaGetErrorName(cudaMemcpy3DBatchAsync(1, ops + 1, 0, stream)));
  cudaGetLastError();

  // Pools per location.
  cudaMemPool_t defaultPool, current, created;
  cudaMemLocation device0{cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemGetDefaultMemPool(&defaultPool, &device0, cudaMemAllocationTypePinned));
  cudaMemPool_t deviceDefault;
  CHECK(cudaDeviceGetDefaultMemPool(&deviceDefault, 0));
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = device0;
  CHECK(cudaMemPoolCreate(&created, &props));
  CHECK(cudaMemSetMemPool(&device0, cudaMemAllocationTypePinned, created));
  CHECK(cudaMemGetMemPool(&current, &device0, cudaMemAllocationTypePinned));
  cudaMemPool_t deviceCurrent;
  CHECK(cudaDeviceGetMemPool(&deviceCurrent, 0));
  std::printf("pools: default is the device's %d, current is the created %d and the device's %d\n",
              defaultPool == deviceDefault, current == created, deviceCurrent == created);
  CHECK(cudaMemSetMemPool(&device0, cudaMemAllocationTypePinned, defaultPool));
  std::printf("pool, invalid type: %s\n",
              cudaGetErrorName(cudaMemGetMemPool(&current, &device0, cudaMemAllocationTypeInvalid)));
  cudaGetLastError();
  CHECK(cudaMemPoolDestroy(created));

  // Driver entry points: a symbol that does not exist.
  void* fn = &fn;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSuccess;
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &status);
  std::printf("entry point: %s, status %d, null %d\n", cudaGetErrorName(e), static_cast<int>(status), fn == nullptr);

  // Host atomics over PCIe.
  cudaAtomicOperation operations[3] = {cudaAtomicOperationIntegerAdd, cudaAtomicOperationCAS,
                                       cudaAtomicOperationFloatAdd};
  unsigned capabilities[3] = {9, 9, 9};
  CHECK(cudaDeviceGetHostAtomicCapabilities(capabilities, operations, 3, 0));
  std::printf("host atomics: %u %u %u\n", capabilities[0], capabilities[1], capabilities[2]);
  std::printf("p2p atomics: %s\n",
              cudaGetErrorName(cudaDeviceGetP2PAtomicCapabilities(capabilities, operations, 3, 0, 0)));
  cudaGetLastError();

  // The error log: nothing new after the current position.
  cudaLogIterator position;
  CHECK(cudaLogsCurrent(&position, 0));
  char logText[256];
  size_t logSize = sizeof logText;
  CHECK(cudaLogsDumpToMemory(&position, logText, &logSize, 0));
  std::printf("log after current: %zu bytes\n", logSize);

  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(buffer));
  CHECK(cudaFree(device_only));
  CHECK(cudaFree(managed));
  CHECK(cudaStreamDestroy(stream));
  std::printf("done\n");
  return 0;
}
