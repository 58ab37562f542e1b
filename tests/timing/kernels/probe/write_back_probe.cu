// Why does the H100 write dirty lines back to DRAM in kernels whose data
// fits its 50 MB L2 many times over? In the accuracy suite gather and
// tex1dfetch_gather (a 16 MB table read at random, 2 MB written in whole
// sectors) write 250-320 kB back, scatter (2 MB written one word a sector,
// at random) 132 kB, transpose_naive 41 kB; the model writes nothing back
// in any of them. Each launch here, recorded under Nsight Compute with the
// caches flushed before it (record_write_back.sh), varies one thing:
//   gather T MB        out[i] = table[index[i]], 512 Ki random indices over
//                      a table of T MB (2..32), 2 MB written: does the
//                      write-back grow with the random reads' footprint?
//   gather 16 MB, N Ki  N random reads (128..2048 Ki) and N words written:
//                      with the number of reads and lines written?
//   write_first 16 MB  each thread writes its output word, then reads 8
//                      random table words and writes their sum over it: are
//                      lines written early pushed out by the reads after?
//   scatter N Ki       out[permutation[i]] = in[i] over N words (128..2048
//                      Ki; every word written once, one word a sector at a
//                      time): partial sectors by the output's size.
//   scatter_identity   the same with the identity permutation (whole
//                      sectors): the cost of partiality.
//   fill S MB, wait W  coalesced stores of S MB, then every block spins W
//                      thousand cycles: are dirty lines cleaned with time?
//   gather 24 MB, wait W  the same after the 24 MB gather.
//   fill 8 MB, read R MB  every thread stores its words of 8 MB, then reads
//                      R MB of another buffer (coalesced, one sum a block
//                      stored): are dirty lines cleaned as clean lines are
//                      used after them, the L2 far from full?
// Usage: write_back_probe [no-wait] (prints one line per launch, in launch
// order; no-wait leaves out the launches that wait, which take a simulator
// minutes of spinning warps and write nothing back on the H200)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../../cuda/programs/check.h"

constexpr int kBlock = 256;
constexpr size_t kMiB = size_t(1) << 20;

__global__ void gatherKernel(const float* table, const int* index, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[index[i]];
}

__global__ void writeFirstKernel(const float* table, const int* index, float* out, int n, int reads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  volatile float* early = out;
  early[i] = 0.0f;
  float sum = 0.0f;
  for (int r = 0; r < reads; ++r) sum += table[index[(size_t(i) * reads + r) % n]];
  out[i] = sum;
}

__global__ void scatterKernel(const float* in, const int* permutation, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[permutation[i]] = in[i];
}

__device__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

__global__ void fillWaitKernel(float* out, size_t words, long long wait) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    out[i] = float(i & 1023);
  spin(wait);
}

__global__ void gatherWaitKernel(const float* table, const int* index, float* out, int n, long long wait) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[index[i]];
  spin(wait);
}

// Grid-stride: stores `words` of out, then sums `readWords` of in.
__global__ void fillThenReadKernel(float* out, size_t words, const float* in, size_t readWords, float* sums) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  const size_t first = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (size_t i = first; i < words; i += stride) out[i] = float(i & 1023);
  __syncthreads();
  float sum = 0.0f;
  for (size_t i = first; i < readWords; i += stride) sum += in[i];
  if (sum == 1.0f) sums[blockIdx.x] = sum;  // never: the buffer holds zeros
}

// A fixed LCG: the same indices on every machine.
struct Lcg {
  uint64_t state;
  uint32_t below(uint32_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t((state >> 33) % bound);
  }
};

int main(int argc, char** argv) {
  const bool waits = !(argc > 1 && std::strcmp(argv[1], "no-wait") == 0);
  constexpr int kMaxN = 2 << 20;  // 2 Mi words
  constexpr size_t kTableBytes = 32 * kMiB;
  constexpr size_t kBigBytes = 40 * kMiB;
  float *table, *in, *out, *big, *other;
  int *index, *permutation, *identity;
  CHECK(cudaMalloc(&table, kTableBytes));
  CHECK(cudaMalloc(&in, kMaxN * sizeof(float)));
  CHECK(cudaMalloc(&out, kMaxN * sizeof(float)));
  CHECK(cudaMalloc(&index, kMaxN * sizeof(int)));
  CHECK(cudaMalloc(&permutation, kMaxN * sizeof(int)));
  CHECK(cudaMalloc(&identity, kMaxN * sizeof(int)));
  CHECK(cudaMalloc(&big, kBigBytes));
  CHECK(cudaMalloc(&other, kBigBytes));
  CHECK(cudaMemset(table, 0, kTableBytes));
  CHECK(cudaMemset(big, 0, kBigBytes));
  CHECK(cudaMemset(other, 0, kBigBytes));
  CHECK(cudaMemset(in, 0, kMaxN * sizeof(float)));
  CHECK(cudaMemset(out, 0, kMaxN * sizeof(float)));
  std::vector<int> host(kMaxN);
  auto upload = [&](int* to) { return cudaMemcpy(to, host.data(), kMaxN * sizeof(int), cudaMemcpyHostToDevice); };
  for (int i = 0; i < kMaxN; ++i) host[i] = i;
  CHECK(upload(identity));
  auto grid = [](int n) { return unsigned((n + kBlock - 1) / kBlock); };

  Lcg lcg{42};
  for (size_t mb : {2, 4, 8, 16, 24, 32}) {
    const uint32_t words = uint32_t(mb * kMiB / 4);
    for (int& i : host) i = int(lcg.below(words));
    CHECK(upload(index));
    const int n = 512 << 10;
    gatherKernel<<<grid(n), kBlock>>>(table, index, out, n);
    CHECK(cudaDeviceSynchronize());
    std::printf("gather %zu MB\n", mb);
  }
  const uint32_t words16 = uint32_t(16 * kMiB / 4);
  for (int& i : host) i = int(lcg.below(words16));
  CHECK(upload(index));
  for (int kib : {128, 256, 1024, 2048}) {
    gatherKernel<<<grid(kib << 10), kBlock>>>(table, index, out, kib << 10);
    CHECK(cudaDeviceSynchronize());
    std::printf("gather 16 MB, %d Ki\n", kib);
  }
  writeFirstKernel<<<grid(512 << 10), kBlock>>>(table, index, out, 512 << 10, 8);
  CHECK(cudaDeviceSynchronize());
  std::printf("write_first 16 MB\n");

  for (int kib : {128, 256, 512, 1024, 2048}) {
    const int n = kib << 10;
    for (int i = 0; i < n; ++i) host[i] = i;
    for (int i = n - 1; i > 0; --i) std::swap(host[i], host[lcg.below(uint32_t(i) + 1)]);
    CHECK(upload(permutation));
    scatterKernel<<<grid(n), kBlock>>>(in, permutation, out, n);
    CHECK(cudaDeviceSynchronize());
    std::printf("scatter %d Ki\n", kib);
  }
  scatterKernel<<<grid(512 << 10), kBlock>>>(in, identity, out, 512 << 10);
  CHECK(cudaDeviceSynchronize());
  std::printf("scatter_identity 512 Ki\n");

  const unsigned strideGrid = 132 * 8;
  for (size_t mb : {8, 16})
    for (long long wait : {0, 20, 50, 100}) {
      if (wait != 0 && !waits) continue;
      fillWaitKernel<<<strideGrid, kBlock>>>(big, mb * kMiB / 4, wait * 1000);
      CHECK(cudaDeviceSynchronize());
      std::printf("fill %zu MB, wait %lldk\n", mb, wait);
    }
  const uint32_t words24 = uint32_t(24 * kMiB / 4);
  for (int& i : host) i = int(lcg.below(words24));
  CHECK(upload(index));
  for (long long wait : {0, 50}) {
    if (wait != 0 && !waits) continue;
    gatherWaitKernel<<<grid(512 << 10), kBlock>>>(table, index, out, 512 << 10, wait * 1000);
    CHECK(cudaDeviceSynchronize());
    std::printf("gather 24 MB, wait %lldk\n", wait);
  }
  for (size_t mb : {0, 8, 16, 24, 32}) {
    fillThenReadKernel<<<strideGrid, kBlock>>>(big, 8 * kMiB / 4, other, mb * kMiB / 4, out);
    CHECK(cudaDeviceSynchronize());
    std::printf("fill 8 MB, read %zu MB\n", mb);
  }

  for (void* p : {(void*)table, (void*)in, (void*)out, (void*)index, (void*)permutation, (void*)identity, (void*)big,
                  (void*)other})
    CHECK(cudaFree(p));
  return 0;
}
