// f32 add/sub/mul/fma in every rounding mode, with .ftz and .sat, on ties,
// overflow, underflow into subnormals and exact zero sums.
#include <cstdint>

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 292;

#define F2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(pa[i])), "f"(__uint_as_float(pb[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define F3(inst)                                                                                  \
  for (int i = 0; i < kTriples; ++i) {                                                            \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2, %3;"                                                          \
                 : "=f"(r)                                                                        \
                 : "f"(__uint_as_float(ta[i])), "f"(__uint_as_float(tb[i])), "f"(__uint_as_float(tc[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }

constexpr int kPairs = 16;
__device__ uint32_t pa[kPairs] = {0x3f800000, 0x3f800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0x3f800000,
                                        0x80000000, 0x00000001, 0x00400000, 0x3eaaaaab, 0x0c000000, 0x1a400000,
                                        0x3f7fffff, 0x3f000000, 0xbf000000, 0x80000000};
__device__ uint32_t pb[kPairs] = {0x33800000, 0x33800001, 0x337fffff, 0xb3800000, 0x7f7fffff, 0xbf800000,
                                        0x00000000, 0x00000001, 0x00400000, 0x40400000, 0x0b000000, 0x1a400000,
                                        0x00800000, 0x3f333333, 0x3e4ccccd, 0x80000000};
constexpr int kTriples = 6;
__device__ uint32_t ta[kTriples] = {0x3f800001, 0x3eaaaaab, 0x7f7fffff, 0x3f800000, 0x1a400000, 0xbf800001};
__device__ uint32_t tb[kTriples] = {0x3f800001, 0x40400000, 0x40000000, 0x00000000, 0x1a400000, 0x3f800001};
__device__ uint32_t tc[kTriples] = {0xbf800002, 0xbf800000, 0xff7fffff, 0x80000000, 0x00000001, 0x3f800002};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F2("add.rn.f32") F2("add.rz.f32") F2("add.rm.f32") F2("add.rp.f32")
  F2("sub.rm.f32") F2("mul.rn.f32") F2("mul.rz.f32") F2("mul.rm.f32") F2("mul.rp.f32")
  F2("add.rn.ftz.f32") F2("mul.rn.ftz.f32") F2("mul.rp.ftz.f32") F2("add.rn.sat.f32") F2("mul.rz.ftz.sat.f32")
  F3("fma.rn.f32") F3("fma.rz.f32") F3("fma.rm.f32") F3("fma.rp.f32") F3("fma.rn.ftz.sat.f32")
  F3("mad.rp.f32")
  F2("add.f32") F2("mul.f32")
}

#include "harness.h"
