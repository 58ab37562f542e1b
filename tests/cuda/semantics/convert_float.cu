// cvt between floating-point formats through inline PTX: f32 to f16/bf16
// with every rounding, .relu, .satfinite and .ftz; NaN patterns each way;
// tf32; the e4m3x2/e5m2x2 pairs; f64 to f32 roundings; integral rounding
// of floats; .sat on float destinations.
#include <cstdint>

__device__ unsigned int case_count = 264;

// Zero, but only known at run time.
__device__ uint32_t opaque_zero = 0;
__device__ uint16_t opaque16(uint16_t bits) {
  return static_cast<uint16_t>(bits ^ *reinterpret_cast<volatile uint32_t*>(&opaque_zero));
}
__device__ uint32_t opaque32(uint32_t bits) {
  return bits ^ *reinterpret_cast<volatile uint32_t*>(&opaque_zero);
}

// f32 inputs: +0, -0, 1+2^-11 (f16 tie), 65504, 65520 (f16 overflow tie),
// 1e10, -inf, -NaN with payload, sNaN, f32 min subnormal, 2^-25 (half the
// smallest f16 subnormal), -1e-10, 1+2^-8+2^-20 (bf16), 448+16 (e4m3 tie),
// 0.1, -3.0.
__device__ uint32_t kF32[16] = {0x00000000, 0x80000000, 0x3f801000, 0x477fe000, 0x477ff000, 0x501502f9,
                                      0xff800000, 0xffc00001, 0x7f800001, 0x00000001, 0x33000000, 0xaedbe6ff,
                                      0x3f808008, 0x43e80000, 0x3dcccccd, 0xc0400000};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  uint16_t h;
  uint32_t t;
  for (int i = 0; i < 16; ++i) {
    uint32_t f = kF32[i];
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rp.ftz.f16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rn.relu.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "r"(f));
    out[k++] = t;
    uint32_t g = kF32[(i + 5) & 15];
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "r"(f), "r"(g));
    out[k++] = h;
  }  // 192 cases
  for (int i = 0; i < 16; i += 2) {
    uint32_t f = kF32[i], g = kF32[i + 1];
    asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "r"(f), "r"(g));
    out[k++] = h;
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(t) : "r"(f), "r"(g));
    out[k++] = t;
    asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(t) : "r"(f), "r"(g));
    out[k++] = t;
    asm("cvt.sat.f32.f32 %0, %1;" : "=r"(t) : "r"(f));
    out[k++] = t;
    asm("cvt.rpi.f32.f32 %0, %1;" : "=r"(t) : "r"(g));
    out[k++] = t;
  }  // 40 cases
  // NaN and subnormal patterns widening to f32 and f64, read through
  // opaque(): ptxas folds a conversion of a literal at compile time, and its
  // folding of cvt.f32.bf16 gives the canonical NaN where the hardware's
  // shift by 16 keeps a NaN's bits.
  uint32_t w;
  asm("cvt.f32.f16 %0, %1;" : "=r"(w) : "h"(opaque16(0x7d01)));
  out[k++] = w;
  asm("cvt.f32.f16 %0, %1;" : "=r"(w) : "h"(opaque16(0xfe01)));
  out[k++] = w;
  asm("cvt.f32.bf16 %0, %1;" : "=r"(w) : "h"(opaque16(0x7f81)));
  out[k++] = w;
  asm("cvt.ftz.f32.bf16 %0, %1;" : "=r"(w) : "h"(opaque16(0x8001)));
  out[k++] = w;
  unsigned long long dd;
  asm("cvt.f64.f32 %0, %1;" : "=l"(dd) : "r"(opaque32(0x7f800001u)));
  out[k++] = dd;
  asm("cvt.f64.f16 %0, %1;" : "=l"(dd) : "h"(opaque16(0x0001)));
  out[k++] = dd;
  // f64 to f32: a tie, a value between subnormals, overflow, NaN.
  const unsigned long long kF64[4] = {0x3ff0000010000000ull, 0x36a8000000000000ull, 0x47f0000000000000ull,
                                      0xfff0000000000001ull};
  for (int i = 0; i < 4; ++i) {
    asm("cvt.rn.f32.f64 %0, %1;" : "=r"(w) : "l"(kF64[i]));
    out[k++] = w;
    asm("cvt.rm.f32.f64 %0, %1;" : "=r"(w) : "l"(kF64[i]));
    out[k++] = w;
    asm("cvt.rp.ftz.f32.f64 %0, %1;" : "=r"(w) : "l"(kF64[i]));
    out[k++] = w;
  }
  // 8-bit float pairs to f16x2 and back from f16x2.
  const uint16_t kF8[4] = {0x0080, 0x7fff, 0x7e01, 0x3808};
  for (int i = 0; i < 4; ++i) {
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(w) : "h"(kF8[i]));
    out[k++] = w;
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(w) : "h"(kF8[i]));
    out[k++] = w;
  }
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(h) : "r"(0x7e00fc00u));
  out[k++] = h;
  asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(h) : "r"(0xbc007bffu));
  out[k++] = h;
  asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(w) : "r"(0x7f7fffffu));
  out[k++] = w;
  asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(w) : "r"(0xff800000u));
  out[k++] = w;
  asm("cvt.rn.sat.f16.f32 %0, %1;" : "=h"(h) : "r"(0x80000000u));
  out[k++] = h;
  asm("cvt.rni.f16.f16 %0, %1;" : "=h"(h) : "h"(uint16_t(0x4100)));
  out[k++] = h;
}

#include "harness.h"
