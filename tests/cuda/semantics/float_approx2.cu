// div.approx, div.full, rcp.approx.ftz.f64 and rsqrt.approx.f64 on special
// values and exact cases.
#include <cstdint>

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 84;

#define F2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(pa[i])), "f"(__uint_as_float(pb[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define D1(inst)                                                                                  \
  for (int i = 0; i < kDOnes; ++i) {                                                              \
    double r;                                                                                     \
    asm volatile(inst " %0, %1;" : "=d"(r) : "d"(__longlong_as_double(d1[i])));                   \
    out[k++] = __double_as_longlong(r);                                                           \
  }

constexpr int kPairs = 14;
__device__ uint32_t pa[kPairs] = {0x40800000, 0x00000000, 0x7f800000, 0x3f800000, 0x3f800000, 0x7f800000,
                                        0x40000000, 0x00000001, 0x3f800000, 0xc0000000, 0x7fc00000, 0x3f800000,
                                        0x00800000, 0x40400000};
__device__ uint32_t pb[kPairs] = {0x40000000, 0x00000000, 0x7f800000, 0x00000000, 0x7f800000, 0x7f000000,
                                        0x7f000000, 0x3f800000, 0x00000001, 0x3f000000, 0x3f800000, 0x80000000,
                                        0x3f800000, 0x40400000};
constexpr int kDOnes = 14;
__device__ long long d1[kDOnes] = {0x3ff0000000000000, 0x4000000000000000, 0x3fe0000000000000,
                                         (long long)0xc010000000000000, 0, (long long)0x8000000000000000,
                                         0x7ff0000000000000, (long long)0xfff0000000000000, 0x7ff8000000000000,
                                         0x0000000000000001, 0x7fe0000000000000, 0x3ff00000ffffffff,
                                         0x4010000000000000, 0x3fd0000000000000};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F2("div.approx.f32") F2("div.approx.ftz.f32") F2("div.full.f32") F2("div.full.ftz.f32")
  D1("rcp.approx.ftz.f64") D1("rsqrt.approx.f64")
}

#include "harness.h"
