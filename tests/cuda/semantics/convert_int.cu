// cvt to and from integers through inline PTX: float-to-integer with each
// integer rounding, clamping and the NaN results; integer-to-float with
// each rounding; integer-to-integer extension, truncation and .sat, with
// destination registers wider than the type.
#include <cstdint>

__device__ unsigned int case_count = 202;

// f32: 2.5, -2.5, 1e10, -1e10, NaN, +inf, -0.5, 3e9.
__device__ uint32_t kF32[8] = {0x40200000, 0xc0200000, 0x501502f9, 0xd01502f9,
                                     0x7fc00000, 0x7f800000, 0xbf000000, 0x4f32d05e};
// f64: NaN, -1e300, 4294967295.5, -0.0.
__device__ unsigned long long kF64[4] = {0x7ff8000000000000ull, 0xfe37e43c8800759cull,
                                               0x41efffffffff0000ull, 0x8000000000000000ull};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  uint32_t r;
  unsigned long long r64;
  uint16_t h;
  for (int i = 0; i < 8; ++i) {
    uint32_t f = kF32[i];
    asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rpi.u32.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rzi.s8.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rni.u8.f32 %0, %1;" : "=r"(r) : "r"(f));
    out[k++] = r;
    asm("cvt.rzi.s16.f32 %0, %1;" : "=h"(h) : "r"(f));
    out[k++] = h;
    asm("cvt.rzi.s64.f32 %0, %1;" : "=l"(r64) : "r"(f));
    out[k++] = r64;
    asm("cvt.rpi.u64.f32 %0, %1;" : "=l"(r64) : "r"(f));
    out[k++] = r64;
    // The same value through f16 and bf16 sources (relaxed register width).
    uint16_t half;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(half) : "r"(f));
    asm("cvt.rni.s32.f16 %0, %1;" : "=r"(r) : "h"(half));
    out[k++] = r;
    asm("cvt.rzi.u16.f16 %0, %1;" : "=h"(h) : "h"(half));
    out[k++] = h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(half) : "r"(f));
    asm("cvt.rmi.s64.bf16 %0, %1;" : "=l"(r64) : "h"(half));
    out[k++] = r64;
  }  // 96 cases
  for (int i = 0; i < 4; ++i) {
    unsigned long long d = kF64[i];
    asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(r) : "l"(d));
    out[k++] = r;
    asm("cvt.rzi.u32.f64 %0, %1;" : "=r"(r) : "l"(d));
    out[k++] = r;
    asm("cvt.rni.u8.f64 %0, %1;" : "=r"(r) : "l"(d));
    out[k++] = r;
    asm("cvt.rzi.s64.f64 %0, %1;" : "=l"(r64) : "l"(d));
    out[k++] = r64;
    asm("cvt.rzi.u64.f64 %0, %1;" : "=l"(r64) : "l"(d));
    out[k++] = r64;
    asm("cvt.rpi.f64.f64 %0, %1;" : "=l"(r64) : "l"(d));
    out[k++] = r64;
  }  // 24 cases
  // Integers to floats: 0xffffffff, -2^31+1, 2049, 70000, 2^24+1, -3.
  const uint32_t kInt[6] = {0xffffffffu, 0x80000001u, 2049u, 70000u, 16777217u, 0xfffffffdu};
  for (int i = 0; i < 6; ++i) {
    uint32_t v = kInt[i];
    asm("cvt.rn.f16.u32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.rz.f16.s32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.rm.f16.s32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.rp.f16.u32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.rn.f32.u32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.rz.f32.s32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.rp.bf16.s32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.rn.f64.s32 %0, %1;" : "=l"(r64) : "r"(v));
    out[k++] = r64;
  }  // 48 cases
  const unsigned long long kInt64[2] = {0xffffffffffffffffull, 0x8000000000000001ull};
  for (int i = 0; i < 2; ++i) {
    asm("cvt.rn.f32.u64 %0, %1;" : "=r"(r) : "l"(kInt64[i]));
    out[k++] = r;
    asm("cvt.rm.f64.s64 %0, %1;" : "=l"(r64) : "l"(kInt64[i]));
    out[k++] = r64;
    asm("cvt.rz.f64.u64 %0, %1;" : "=l"(r64) : "l"(kInt64[i]));
    out[k++] = r64;
  }  // 6 cases
  // Integer to integer, into registers as wide as the constraint gives.
  const uint32_t kI[4] = {0x000000ffu, 0x80000080u, 0x00012345u, 0xfffffff0u};
  for (int i = 0; i < 4; ++i) {
    uint32_t v = kI[i];
    asm("cvt.s8.s32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.u8.s32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.sat.u16.s32 %0, %1;" : "=h"(h) : "r"(v));
    out[k++] = h;
    asm("cvt.s64.s16 %0, %1;" : "=l"(r64) : "r"(v));
    out[k++] = r64;
    asm("cvt.sat.s32.u32 %0, %1;" : "=r"(r) : "r"(v));
    out[k++] = r;
    asm("cvt.sat.u32.s64 %0, %1;" : "=r"(r) : "l"(0xffffffff00000000ull | v));
    out[k++] = r;
  }  // 28 cases
}

#include "harness.h"
