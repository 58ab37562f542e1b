// What becomes of the dirty lines the L2 writes back while a kernel runs:
// evicted, or written back and kept (cleaned)? Each case runs after a
// kernel that reads 128 MB (the L2 emptied, its dirty lines written back
// in that launch), then a kernel reads back what the case wrote, the
// caches not flushed in between (record_write_back_fate.sh: Nsight
// Compute with --cache-control none, application replay): the DRAM bytes
// the read-back reads are the lines the case lost.
//   gather T MB   out[i] = table[index[i]], 512 Ki random indices over T MB
//                 (24, 32), 2 MB written (write_back_probe: 0.58 and 1.23
//                 MB written back on the H200); then out is read back.
//   copy 24 MB    dst[i] = src[i] (on the H100's 50 MB, 20 MB write 4.5 MB
//                 back: l2_write_probe); then dst is read back.
//   fill 36 MB    stores (on the H100, 28 MB write 6.3 MB back, as if it
//                 kept 21.5 MB dirty); then read back.
// Usage: write_back_fate_probe (prints one line per launch, in launch order)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../../../cuda/programs/check.h"

constexpr int kBlock = 256;
constexpr size_t kMiB = size_t(1) << 20;
constexpr unsigned kStrideGrid = 132 * 8;

__global__ void gatherKernel(const float* table, const int* index, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[index[i]];
}

__global__ void copyKernel(const float* src, float* dst, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void fillKernel(float* out, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    out[i] = float(i & 1023);
}

// Sums `words` (grid-stride, coalesced); stores a block's sum only when it
// is 1 (never: what is read holds zeros and whole numbers below 1024).
__global__ void readKernel(const float* in, size_t words, float* sums) {
  float sum = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    sum += in[i];
  if (sum == 1.0f) sums[blockIdx.x] = sum;
}

struct Lcg {
  uint64_t state;
  uint32_t below(uint32_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t((state >> 33) % bound);
  }
};

int main() {
  constexpr int kGather = 512 << 10;
  constexpr size_t kFlushBytes = 128 * kMiB;
  float *table, *out, *src, *dst, *flush, *sums;
  int* index;
  CHECK(cudaMalloc(&table, 32 * kMiB));
  CHECK(cudaMalloc(&out, kGather * sizeof(float)));
  CHECK(cudaMalloc(&index, kGather * sizeof(int)));
  CHECK(cudaMalloc(&src, 36 * kMiB));
  CHECK(cudaMalloc(&dst, 36 * kMiB));
  CHECK(cudaMalloc(&flush, kFlushBytes));
  CHECK(cudaMalloc(&sums, kStrideGrid * sizeof(float)));
  CHECK(cudaMemset(table, 0, 32 * kMiB));
  CHECK(cudaMemset(src, 0, 36 * kMiB));
  CHECK(cudaMemset(flush, 0, kFlushBytes));
  // Each returns 0, or 1 when a call failed (CHECK has printed which).
  auto emptyL2 = [&]() -> int {
    readKernel<<<kStrideGrid, kBlock>>>(flush, kFlushBytes / 4, sums);
    CHECK(cudaDeviceSynchronize());
    std::printf("empty the L2\n");
    return 0;
  };
  auto readBack = [&](const float* what, size_t bytes, const char* name) -> int {
    readKernel<<<kStrideGrid, kBlock>>>(what, bytes / 4, sums);
    CHECK(cudaDeviceSynchronize());
    std::printf("read back %s\n", name);
    return 0;
  };

  Lcg lcg{42};
  std::vector<int> host(kGather);
  for (size_t mb : {24, 32}) {
    for (int& i : host) i = int(lcg.below(uint32_t(mb * kMiB / 4)));
    CHECK(cudaMemcpy(index, host.data(), kGather * sizeof(int), cudaMemcpyHostToDevice));
    if (emptyL2() != 0) return 1;
    gatherKernel<<<kGather / kBlock, kBlock>>>(table, index, out, kGather);
    CHECK(cudaDeviceSynchronize());
    std::printf("gather %zu MB\n", mb);
    if (readBack(out, kGather * sizeof(float), "out, 2 MB") != 0) return 1;
  }
  if (emptyL2() != 0) return 1;
  copyKernel<<<kStrideGrid, kBlock>>>(src, dst, 24 * kMiB / 4);
  CHECK(cudaDeviceSynchronize());
  std::printf("copy 24 MB\n");
  if (readBack(dst, 24 * kMiB, "dst, 24 MB") != 0 || emptyL2() != 0) return 1;
  fillKernel<<<kStrideGrid, kBlock>>>(dst, 36 * kMiB / 4);
  CHECK(cudaDeviceSynchronize());
  std::printf("fill 36 MB\n");
  if (readBack(dst, 36 * kMiB, "the fill, 36 MB") != 0) return 1;

  for (void* p : {(void*)table, (void*)out, (void*)index, (void*)src, (void*)dst, (void*)flush, (void*)sums})
    CHECK(cudaFree(p));
  return 0;
}
