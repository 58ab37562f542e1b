// f32/f64 abs, neg, min, max (.ftz, .NaN, .xorsign.abs) and
// testp on zeros, subnormals, infinities and NaNs.
#include <cstdint>

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 288;

#define F2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(pa[i])), "f"(__uint_as_float(pb[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define F3(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2, %3;"                                                          \
                 : "=f"(r)                                                                        \
                 : "f"(__uint_as_float(pa[i])), "f"(__uint_as_float(pb[i])), "f"(__uint_as_float(pa[(i + 5) % kPairs]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
// abs and neg read their operand at run time (a volatile load): from an
// immediate, ptxas evaluates them at compile time, where a NaN keeps its
// bits, while the H100 executing them writes the canonical NaN.
#define F1(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1;" : "=f"(r) : "f"(__uint_as_float(*(const volatile uint32_t*)&pa[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define T1(prop)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    unsigned r;                                                                                   \
    asm volatile("{.reg .pred p; testp." prop ".f32 p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "f"(__uint_as_float(pa[i]))); \
    put32(out, k++, r);                                                                               \
  }
#define D2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    double r;                                                                                     \
    asm volatile(inst " %0, %1, %2;" : "=d"(r) : "d"(wide(pa[i])), "d"(wide(pb[i])));             \
    out[k++] = __double_as_longlong(r);                                                           \
  }

constexpr int kPairs = 16;
__device__ uint32_t pa[kPairs] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x80000001,
                                        0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0xc0000000, 0x00400000,
                                        0x80400000, 0x7fc00000, 0x40400000, 0x00800000};
__device__ uint32_t pb[kPairs] = {0x80000000, 0x00000000, 0xc0000000, 0x40000000, 0x80000001, 0x00000000,
                                        0x3f800000, 0x7f800000, 0x3f800000, 0x7fc00000, 0x80000000, 0x80400000,
                                        0x80000000, 0xffc00000, 0xc0400000, 0x80800000};

// An f32 bit pattern as an f64 of the same class and sign.
__device__ double wide(uint32_t b) { return (double)__uint_as_float(b) * ((b & 0x7f800000u) == 0 ? 0x1p-900 : 1.0); }

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F2("min.f32") F2("max.f32") F2("min.ftz.f32") F2("max.NaN.f32") F2("min.xorsign.abs.f32")
  F2("max.ftz.NaN.xorsign.abs.f32") T1("number")
  F1("abs.f32") F1("abs.ftz.f32") F1("neg.f32") F1("neg.ftz.f32")
  T1("finite") T1("infinite") T1("notanumber")
  T1("normal") T1("subnormal")
  D2("min.f64") D2("max.f64")
}

#include "harness.h"
