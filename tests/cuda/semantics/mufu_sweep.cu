// The instructions the multi-function unit computes (rcp, sqrt, rsqrt,
// ex2, lg2 .approx.f32, with and without .ftz) on 256 inputs each, drawn
// from a fixed hash over every sign, exponent and mantissa, so the
// simulator's tables and the rules extending them (sim/data/mufu) meet
// inputs the tables were not read at. Inputs come from a __device__
// variable, so ptxas cannot fold the instructions at compile time.
#include <cstdint>

__device__ unsigned int case_count = 2560;
__device__ uint64_t seed = 0x9e3779b97f4a7c15ull;

__device__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// A quarter of the inputs in (-2, 2), where ex2 and lg2 read their tables
// most finely; the rest anywhere (NaNs, infinities and subnormals included).
__device__ float input(int form, int i) {
  uint32_t r = static_cast<uint32_t>(mix(seed + form * 1000 + i));
  if (i % 4 == 0) r = (r & 0x807fffff) | ((0x70 + (r >> 23) % 16) << 23);
  return __uint_as_float(r);
}

#define FORM(inst)                                                          \
  for (int i = 0; i < 256; ++i, ++k) {                                      \
    float y;                                                                \
    asm volatile(inst " %0, %1;" : "=f"(y) : "f"(input(k / 256, i)));      \
    out[k] = __float_as_uint(y);                                            \
  }

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  FORM("rcp.approx.f32") FORM("rcp.approx.ftz.f32") FORM("sqrt.approx.f32") FORM("sqrt.approx.ftz.f32")
  FORM("rsqrt.approx.f32") FORM("rsqrt.approx.ftz.f32") FORM("ex2.approx.f32") FORM("ex2.approx.ftz.f32")
  FORM("lg2.approx.f32") FORM("lg2.approx.ftz.f32")
}

#include "harness.h"
