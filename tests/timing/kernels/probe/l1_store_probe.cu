// When does a global store hit in the H100's L1? transpose_naive's strided
// stores (each sector written by 8 warps of one block, one word each) hit
// 72.5% on the H100 where a model that allocates on the first store hits
// 87.5%. Each kernel here is one block of WARPS warps; warp w waits
// w * GAP cycles (clock64 spin), then each lane stores one word to its own
// line: lane l writes line l, word w, so the warps share 32 sectors. Nsight
// Compute's store hit rate per launch (record_l1_store.sh) tells how long
// after a sector's first store a later store to it still misses.
// Also: a single warp storing twice to its sectors GAP cycles apart, and a
// store to sectors a load brought in.
#include <cuda_runtime.h>

#include <cstdio>

#include "../../../cuda/programs/check.h"

constexpr int kLineWords = 32;  // 128-byte lines

__device__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Warp w waits w * gap cycles, then lane l stores to word w of line l.
__global__ void staggeredStores(float* out, long long gap) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  spin(warp * gap);
  out[lane * kLineWords + warp] = float(warp);
}

// One warp: lane l stores word 0 of line l, waits gap cycles, stores word 1.
__global__ void storeTwice(float* out, long long gap) {
  int lane = threadIdx.x;
  out[lane * kLineWords] = 1.0f;
  spin(gap);
  out[lane * kLineWords + 1] = 2.0f;
}

// One warp: lane l loads word 0 of line l, waits gap cycles, stores word 1.
__global__ void loadThenStore(float* out, long long gap) {
  int lane = threadIdx.x;
  float v = out[lane * kLineWords];
  spin(gap);
  out[lane * kLineWords + 1] = v + 1.0f;
}

int main() {
  float* out;
  CHECK(cudaMalloc(&out, 32 * kLineWords * sizeof(float) * 64));
  const long long gaps[] = {0, 100, 200, 400, 800, 1600, 3200, 10000};
  for (int warps : {2, 8}) {
    for (long long gap : gaps) {
      CHECK(cudaMemset(out, 0, 32 * kLineWords * sizeof(float)));
      staggeredStores<<<1, warps * 32>>>(out, gap);
      CHECK(cudaDeviceSynchronize());
      std::printf("staggeredStores warps=%d gap=%lld\n", warps, gap);
    }
  }
  for (long long gap : gaps) {
    storeTwice<<<1, 32>>>(out, gap);
    CHECK(cudaDeviceSynchronize());
    std::printf("storeTwice gap=%lld\n", gap);
  }
  for (long long gap : {0LL, 1000LL, 10000LL}) {
    loadThenStore<<<1, 32>>>(out, gap);
    CHECK(cudaDeviceSynchronize());
    std::printf("loadThenStore gap=%lld\n", gap);
  }
  return 0;
}
