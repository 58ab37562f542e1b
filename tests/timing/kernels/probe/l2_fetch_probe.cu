// How many bytes does the H100's L2 fetch from DRAM for a read miss of one
// 32-byte sector, and does cudaLimitMaxL2FetchGranularity change it? In the
// accuracy suite, gather and tex1dfetch_gather read one word at random
// places of a 16 MB table: the H100 reads 16.6 MB from DRAM, the 64-byte
// pairs of sectors they touch (plus the index), where a model fetching only
// the sectors asked for reads 12.7 MB. Each launch here, recorded under
// Nsight Compute with the caches flushed before it (record_l2_fetch.sh),
// reads one word of each of `count` sectors `stride` bytes apart:
//   stride 32         every sector of 8 MB: the fetch granularity hides;
//   stride 64, 128    one sector of each 64-byte pair, each 128-byte line:
//                     DRAM bytes / 32 B sectors read = the sectors fetched
//                     for each;
//   pair 64           the first sector of each pair, then (the same thread,
//                     after the first load's value) the second: L2 hits
//                     if the first fetch brought the pair in.
// under the default limit and under each limit set, after printing the
// limit cudaDeviceGetLimit reports.
// Usage: l2_fetch_probe (prints one line per launch, in launch order)
#include <cuda_runtime.h>

#include <cstdio>

#include "../../../cuda/programs/check.h"

constexpr int kBlock = 256;
constexpr size_t kSectors = size_t(1) << 18;  // 256 Ki sectors: 8 MB asked for

__global__ void strideKernel(const float* in, float* out, size_t strideWords) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  out[i] = in[i * strideWords];
}

// The second load's address depends on the first's value (0 * v is not
// folded for floats), so it issues after the first one's data is back.
__global__ void pairKernel(const float* in, float* out) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float first = in[i * 16];
  float second = in[i * 16 + 8 + int(first * 0.0f)];
  out[i] = first + second;
}

int main() {
  float *in, *out;
  CHECK(cudaMalloc(&in, 32 * kSectors * 4));  // room for stride 128
  CHECK(cudaMalloc(&out, kSectors * 4));
  CHECK(cudaMemset(in, 0, 32 * kSectors * 4));
  const unsigned grid = unsigned(kSectors / kBlock);
  for (int limit : {-1, 32, 64, 128}) {
    if (limit >= 0) CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, size_t(limit)));
    size_t reported = 0;
    CHECK(cudaDeviceGetLimit(&reported, cudaLimitMaxL2FetchGranularity));
    for (size_t strideBytes : {32, 64, 128}) {
      strideKernel<<<grid, kBlock>>>(in, out, strideBytes / 4);
      CHECK(cudaDeviceSynchronize());
      printf("limit %s%d reported %zu: stride %zu\n", limit < 0 ? "default " : "", limit, reported,
             strideBytes);
    }
    pairKernel<<<grid, kBlock>>>(in, out);
    CHECK(cudaDeviceSynchronize());
    printf("limit %s%d reported %zu: pair 64\n", limit < 0 ? "default " : "", limit, reported);
  }
  return 0;
}
