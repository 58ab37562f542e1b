// When does the H100's L2 write dirty data back to DRAM during a kernel,
// and what does a partial-sector store cost it? In the accuracy suite the
// H100 writes 40 to 320 kB back in five kernels (transpose_naive, scatter,
// gather, tex1dfetch_gather, vector_add_float4) and none in the others,
// although its 50 MB L2 holds every kernel's data; and transpose_naive and
// scatter, whose stores each write one word of a sector, run 22-24% slower
// than the model. Each launch here, recorded under Nsight Compute with the
// caches flushed before it (record_l2_write.sh), isolates one pattern:
//   fill S MB        coalesced full-sector stores, S = 8..48: write-back by
//                    footprint alone;
//   copy S MB        S MB read, S MB written (footprint 2S);
//   one_word S MB    one 4-byte store per sector over S MB: only partial
//                    sectors, each written once;
//   eight_words S MB the same sectors, then the 7 other words of each, by
//                    later warps of the grid (sectors completed over time);
//   coalesced_words  the same number of store instructions as one_word 2 MB,
//                    coalesced (8 words a sector): the cost of partiality;
//   fill 8 MB on N SMs  N blocks of 1024 threads: whether the store rate is
//                    the SMs' (it scales with N) or the L2's (it does not).
// Usage: l2_write_probe (prints one line per launch, in launch order)
#include <cuda_runtime.h>

#include <cstdio>

#include "../../../cuda/programs/check.h"

constexpr int kBlock = 256;
constexpr size_t kMiB = size_t(1) << 20;
constexpr int kSectorWords = 8;

__global__ void fillKernel(float* out, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    out[i] = float(i & 1023);
}

__global__ void copyKernel(const float* in, float* out, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i] + 1.0f;
}

// Thread i writes word `word` of sector i: one word of each of `sectors`.
__global__ void oneWordKernel(float* out, size_t sectors, int words) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= sectors * words) return;
  // Consecutive threads: consecutive sectors; the grid's later part writes
  // the sectors' later words (block order ~ time order).
  size_t sector = i % sectors, word = i / sectors;
  out[sector * kSectorWords + word] = float(i & 1023);
}

int main() {
  float *a, *b;
  CHECK(cudaMalloc(&a, 48 * kMiB));
  CHECK(cudaMalloc(&b, 48 * kMiB));
  CHECK(cudaMemset(a, 0, 48 * kMiB));
  CHECK(cudaMemset(b, 0, 48 * kMiB));
  auto grid = [](size_t threads) { return unsigned((threads + kBlock - 1) / kBlock); };
  auto gridStride = [](size_t) { return 132u * 8u; };
  for (size_t mb : {8, 16, 20, 24, 28, 32, 48}) {
    size_t words = mb * kMiB / 4;
    fillKernel<<<gridStride(words), kBlock>>>(a, words);
    CHECK(cudaDeviceSynchronize());
    std::printf("fill %zu MB\n", mb);
  }
  for (size_t mb : {4, 8, 12, 16, 20}) {
    size_t words = mb * kMiB / 4;
    copyKernel<<<gridStride(words), kBlock>>>(a, b, words);
    CHECK(cudaDeviceSynchronize());
    std::printf("copy %zu MB\n", mb);
  }
  for (size_t mb : {2, 8}) {
    size_t sectors = mb * kMiB / 32;
    oneWordKernel<<<grid(sectors), kBlock>>>(a, sectors, 1);
    CHECK(cudaDeviceSynchronize());
    std::printf("one_word %zu MB\n", mb);
  }
  for (size_t mb : {2, 8}) {
    size_t sectors = mb * kMiB / 32;
    oneWordKernel<<<grid(sectors * kSectorWords), kBlock>>>(a, sectors, kSectorWords);
    CHECK(cudaDeviceSynchronize());
    std::printf("eight_words %zu MB\n", mb);
  }
  {
    size_t words = 2 * kMiB / 32;  // one_word 2 MB's store count
    fillKernel<<<grid(words), kBlock>>>(b, words);
    CHECK(cudaDeviceSynchronize());
    std::printf("coalesced_words 2 MB\n");
  }
  for (unsigned sms : {16u, 33u, 66u, 132u}) {
    size_t words = 8 * kMiB / 4;
    fillKernel<<<sms, 1024>>>(b, words);
    CHECK(cudaDeviceSynchronize());
    std::printf("fill 8 MB on %u SMs\n", sms);
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 0;
}
