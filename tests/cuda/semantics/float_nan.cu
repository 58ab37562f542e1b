// Which NaN f32/f64 arithmetic writes: invalid operations, NaN operands in
// each position (payload and sign), min/max of two NaNs.
//
// The f64 operands pass through opaque(): with literal operands ptxas folds
// most of these instructions at compile time, and its folding prefers NaNs
// differently from the hardware (the larger payload, and sub negating a
// NaN b), so the recording would not show what DADD/DMUL/DFMA do.
#include <cstdint>

// Zero, but only known at run time.
__device__ long long opaque_zero = 0;
__device__ double opaque(long long bits) {
  return __longlong_as_double(bits ^ *reinterpret_cast<volatile long long*>(&opaque_zero));
}

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 43;

#define D2(inst, a, b)                                                            \
  {                                                                               \
    double r;                                                                     \
    asm volatile(inst " %0, %1, %2;" : "=d"(r) : "d"(opaque(a)), "d"(opaque(b))); \
    out[k++] = __double_as_longlong(r);                                           \
  }
#define D3(inst, a, b, c)                                                                             \
  {                                                                                                   \
    double r;                                                                                         \
    asm volatile(inst " %0, %1, %2, %3;" : "=d"(r) : "d"(opaque(a)), "d"(opaque(b)), "d"(opaque(c))); \
    out[k++] = __double_as_longlong(r);                                                               \
  }
#define F2(inst, a, b)                                                                            \
  {                                                                                               \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  const long long one = 0x3ff0000000000000, inf = 0x7ff0000000000000, ninf = (long long)0xfff0000000000000;
  const long long q1 = 0x7ff8000000000001, q2 = (long long)0xfff8000000000002, s3 = 0x7ff0000000000003;
  D2("add.rn.f64", inf, ninf) D2("add.rn.f64", q1, one) D2("add.rn.f64", one, q2) D2("add.rn.f64", q1, q2)
  D2("add.rn.f64", q2, q1) D2("add.rn.f64", s3, q1) D2("add.rn.f64", q1, s3) D2("add.rz.f64", one, q2)
  D2("sub.rn.f64", one, q1) D2("sub.rn.f64", q2, one) D2("sub.rm.f64", one, q2) D2("mul.rn.f64", q2, q1)
  D2("mul.rp.f64", one, s3) D2("mul.rn.f64", 0, inf) D2("div.rn.f64", one, q1) D2("div.rz.f64", q2, q1)
  D3("fma.rn.f64", q1, q2, one) D3("fma.rn.f64", one, q1, q2) D3("fma.rn.f64", q2, one, q1) D3("fma.rn.f64", one, one, q1)
  D3("fma.rz.f64", 0, inf, q1) D3("fma.rn.f64", 0, inf, one) D3("fma.rn.f64", inf, one, ninf)
  D2("min.f64", q1, q2) D2("min.f64", q2, q1) D2("max.f64", q1, s3) D2("min.f64", q1, one)
  F2("add.rn.f32", 0x7fc00001u, 0x3f800000u) F2("sub.rz.f32", 0x3f800000u, 0xffc00002u)
  F2("mul.rm.f32", 0x7f800001u, 0x3f800000u) F2("div.rn.f32", 0x7f800000u, 0x7f800000u)
  F2("div.rp.f32", 0x00000000u, 0x00000000u) F2("min.f32", 0x7fc00001u, 0xffc00002u)
  F2("max.NaN.f32", 0x7fc00001u, 0x3f800000u) F2("min.xorsign.abs.f32", 0x7fc00001u, 0xffc00002u)
  F2("copysign.f32", 0x80000000u, 0x7fc00001u) D2("copysign.f64", one, q2)
  D2("copysign.f64", (long long)0x8000000000000000, q1)
  D2("sub.rn.f64", inf, inf) D2("div.rm.f64", inf, ninf)
  const long long q5 = 0x7ff8000000000005;  // larger payload, smaller bit pattern than q2
  D2("add.rn.f64", q5, q2) D2("add.rn.f64", q2, q5) D2("min.f64", q5, q2)
}

#include "harness.h"
