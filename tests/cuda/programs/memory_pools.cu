// Stream-ordered allocation and memory pools: cudaMallocAsync/cudaFreeAsync
// on the default pool, its attributes and byte counts, the release
// threshold and trimming, a created pool with its access, the device's
// current pool, and the errors CUDA gives for misuse.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "check.h"

__global__ void iota(int* data, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = base + 2 * i;
}

unsigned long long attribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  uint64_t value = 0;
  cudaError_t e = cudaMemPoolGetAttribute(pool, attr, &value);
  return e == cudaSuccess ? value : ~0ull;
}

int flagAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  int value = -1;
  cudaError_t e = cudaMemPoolGetAttribute(pool, attr, &value);
  return e == cudaSuccess ? value : -1;
}

// Fills `bytes` of pool memory in `stream`, copies it back and counts wrong values.
int roundTrip(int* dev, size_t bytes, cudaStream_t stream, int base) {
  int n = static_cast<int>(bytes / sizeof(int));
  int* host = nullptr;
  if (cudaMallocHost(&host, bytes) != cudaSuccess) return -1;
  iota<<<(n + 255) / 256, 256, 0, stream>>>(dev, n, base);
  cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != base + 2 * i;
  cudaFreeHost(host);
  return bad;
}

int main() {
  const size_t mib = 1 << 20;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  cudaMemPool_t current;
  CHECK(cudaDeviceGetMemPool(&current, 0));
  std::printf("current pool is the default: %s\n", current == pool ? "yes" : "no");
  std::printf("default pool: release threshold %llu, follow event dependencies %d, opportunistic %d, internal "
              "dependencies %d\n",
              attribute(pool, cudaMemPoolAttrReleaseThreshold), flagAttribute(pool, cudaMemPoolReuseFollowEventDependencies),
              flagAttribute(pool, cudaMemPoolReuseAllowOpportunistic),
              flagAttribute(pool, cudaMemPoolReuseAllowInternalDependencies));

  // Allocate, use, free in stream order.
  int* a = nullptr;
  CHECK(cudaMallocAsync(&a, 4 * mib, stream));
  std::printf("4 MiB in use: used %llu, reserved at least used %s\n", attribute(pool, cudaMemPoolAttrUsedMemCurrent),
              attribute(pool, cudaMemPoolAttrReservedMemCurrent) >= 4 * mib ? "yes" : "no");
  std::printf("4 MiB round trip: %d wrong\n", roundTrip(a, 4 * mib, stream, 7));
  int* b = nullptr;
  CHECK(cudaMallocAsync(&b, 2 * mib, stream));
  std::printf("6 MiB in use: used %llu\n", attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaFreeAsync(a, stream));
  CHECK(cudaFreeAsync(b, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after free and synchronize: used %llu, used high %llu, reserved %llu\n",
              attribute(pool, cudaMemPoolAttrUsedMemCurrent), attribute(pool, cudaMemPoolAttrUsedMemHigh),
              attribute(pool, cudaMemPoolAttrReservedMemCurrent));

  // A release threshold keeps freed memory reserved across synchronisation.
  uint64_t threshold = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK(cudaMallocAsync(&a, 8 * mib, stream));
  CHECK(cudaFreeAsync(a, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("threshold max: reserved kept %s, used %llu\n",
              attribute(pool, cudaMemPoolAttrReservedMemCurrent) >= 8 * mib ? "yes" : "no",
              attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaMemPoolTrimTo(pool, 0));
  std::printf("trimmed to 0: reserved %llu\n", attribute(pool, cudaMemPoolAttrReservedMemCurrent));
  uint64_t zero = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  std::printf("high watermarks reset: used high %llu, reserved high %llu\n",
              attribute(pool, cudaMemPoolAttrUsedMemHigh), attribute(pool, cudaMemPoolAttrReservedMemHigh));
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero));

  // Misuse.
  uint64_t one = 1;
  std::printf("set used current: %s\n",
              cudaGetErrorName(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &one)));
  std::printf("set used high to 1: %s\n",
              cudaGetErrorName(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one)));
  std::printf("destroy the default pool: %s\n", cudaGetErrorName(cudaMemPoolDestroy(pool)));
  std::printf("default pool of device 5: %s\n", cudaGetErrorName(cudaDeviceGetDefaultMemPool(&current, 5)));
  cudaGetLastError();

  // A pool of our own.
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CHECK(cudaMemPoolCreate(&mine, &props));
  cudaMemAccessDesc access{};
  access.location = props.location;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(mine, &access, 1));
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation location = props.location;
  CHECK(cudaMemPoolGetAccess(&flags, mine, &location));
  std::printf("own pool access from device 0: %s\n", flags == cudaMemAccessFlagsProtReadWrite ? "read-write" : "other");
  std::printf("own pool: release threshold %llu, opportunistic %d\n", attribute(mine, cudaMemPoolAttrReleaseThreshold),
              flagAttribute(mine, cudaMemPoolReuseAllowOpportunistic));
  int* c = nullptr;
  CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&c), 2 * mib, mine, stream));
  std::printf("own pool round trip: %d wrong, used %llu, default pool used %llu\n", roundTrip(c, 2 * mib, stream, -5),
              attribute(mine, cudaMemPoolAttrUsedMemCurrent), attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaFreeAsync(c, stream));

  // The device's current pool serves cudaMallocAsync.
  CHECK(cudaDeviceSetMemPool(0, mine));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  std::printf("current pool is ours: %s\n", current == mine ? "yes" : "no");
  CHECK(cudaMallocAsync(&a, 2 * mib, stream));
  std::printf("cudaMallocAsync from ours: used %llu\n", attribute(mine, cudaMemPoolAttrUsedMemCurrent));
  // cudaFree frees stream-ordered memory too (after synchronising).
  CHECK(cudaFree(a));
  std::printf("after cudaFree: used %llu\n", attribute(mine, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after a synchronisation: used %llu\n", attribute(mine, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaMemPoolDestroy(mine));
  a = reinterpret_cast<int*>(&a);  // not null, to see what a zero-byte allocation writes
  cudaError_t zeroBytes = cudaMallocAsync(&a, 0, stream);
  std::printf("zero-byte cudaMallocAsync: %s, pointer %s\n", cudaGetErrorName(zeroBytes), a == nullptr ? "null" : "set");
  cudaGetLastError();
  CHECK(cudaStreamDestroy(stream));
  return 0;
}
