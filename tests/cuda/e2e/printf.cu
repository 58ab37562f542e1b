// Device printf with several conversions. The first two lanes of every
// warp print; CUDA writes one warp's lines in lane order.

#include <cstdio>

extern "C" __global__ void print_values(int base) {
  int lane = threadIdx.x % 32;
  if (lane >= 2) return;
  int warp = threadIdx.x / 32;
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  long big = 10000000000L * (id + 1) + base;
  printf("block %d warp %d lane %d: u=%u x=%x f=%f s=%s c=%c ld=%ld\n", blockIdx.x, warp, lane,
         (unsigned)(id * 3000000000u), (unsigned)(0xabc0 + id), 0.25f * id - 1.0f, lane == 0 ? "even" : "odd",
         'A' + id % 26, -big);
}

extern "C" __global__ void print_padded(double value) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("[%5d] [%-4d] [%08.3f] [%e] [%g] [%5.1f%%] [%llu]\n", -42, 7, value, value, value, 12.25,
           18446744073709551615ull);
}
