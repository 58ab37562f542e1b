// How far apart in time do the warps of one transpose_naive block store?
// In transpose_naive (dense.cu) the 8 warps of a 32x8 block each store one
// word of the same 32 sectors, and the H100 counts a store as an L1 miss
// when another store wrote its sector fewer than ~128 cycles before
// (l1_store_probe.cu). So its store hit rate (72.5%) is set by the spread
// of the 8 warps' store times. This is transpose_naive with the same grid,
// sizes and caches flushed before the launch, plus, per warp, lane 0
// records %smid and clock64 before the load and after its value arrived.
// Run on the H100 and under `ptxsim run --timing`, the two files compare
// the spreads directly (store_spread.py).
// Usage: store_spread_probe OUT.bin
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../../../cuda/programs/check.h"

constexpr int kRows = 512, kCols = 1024;  // dense.cu's transpose sizes
constexpr size_t kFlushBytes = size_t(160) << 20;  // over the 50 MB L2 three times

struct WarpStamp {
  long long beforeLoad;  // clock64 before the load was issued
  long long afterLoad;   // clock64 once the loaded value is usable
  unsigned sm;
  unsigned warpInBlock;
};

__global__ void transposeNaiveStamped(const float* in, float* out, int rows, int cols, WarpStamp* stamps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  long long before = clock64();
  float v = in[size_t(y) * cols + x];
  // A branch on the value waits for the load, so the clock read below
  // comes after it (the bit pattern is a NaN no input holds).
  if (__float_as_uint(v) == 0x7fc01234u) return;
  long long after = clock64();
  out[size_t(x) * rows + y] = v;
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    size_t warp = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * blockDim.y + threadIdx.y;
    stamps[warp] = WarpStamp{before, after, sm, threadIdx.y};
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: store_spread_probe OUT.bin\n");
    return 2;
  }
  std::vector<float> host(size_t(kRows) * kCols);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 9973);
  float *in, *out;
  WarpStamp* stamps;
  char* flush;
  dim3 block(32, 8), grid(kCols / 32, kRows / 8);
  size_t warps = size_t(grid.x) * grid.y * block.y;
  CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, host.size() * sizeof(float)));
  CHECK(cudaMalloc(&stamps, warps * sizeof(WarpStamp)));
  CHECK(cudaMalloc(&flush, kFlushBytes));
  CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(flush, 1, kFlushBytes));  // evicts in and out from the L2
  CHECK(cudaDeviceSynchronize());
  transposeNaiveStamped<<<grid, block>>>(in, out, kRows, kCols, stamps);
  CHECK(cudaDeviceSynchronize());
  std::vector<WarpStamp> got(warps);
  CHECK(cudaMemcpy(got.data(), stamps, warps * sizeof(WarpStamp), cudaMemcpyDeviceToHost));
  std::vector<float> transposed(host.size());
  CHECK(cudaMemcpy(transposed.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) wrong += transposed[size_t(c) * kRows + r] != host[size_t(r) * kCols + c];
  FILE* file = std::fopen(argv[1], "wb");
  if (!file || std::fwrite(got.data(), sizeof(WarpStamp), warps, file) != warps || std::fclose(file) != 0) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("transpose %dx%d: %d wrong, %zu warp stamps written\n", kRows, kCols, wrong, warps);
  return wrong == 0 ? 0 : 1;
}
