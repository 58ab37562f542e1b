// Floating-point atom/red: f32 add on global (subnormals flushed to zero)
// and shared memory (kept) and through generic addresses, f64 add, f16 and
// bf16 add rounding (.noftz, round to nearest even, overflow, subnormals,
// NaN), the packed and vector forms, min/max of f16/bf16 with NaN and
// signed zeros. One thread runs them, so the results do not depend on the
// order of lanes. Each case writes (old << 32) | new, or for 64-bit values
// two words; vector cases pack their elements.
#include <cstdint>

__device__ unsigned int case_count = 178;
__device__ unsigned long long scratch_g[8];

__device__ __forceinline__ float f(uint32_t bits) { return __uint_as_float(bits); }
__device__ __forceinline__ uint32_t u(float x) { return __float_as_uint(x); }

extern "C" __global__ void cases(unsigned long long* out) {
  __shared__ unsigned long long scratch_s[8];
  if (threadIdx.x != 0) return;
  unsigned n = 0;
  uint32_t* g32 = reinterpret_cast<uint32_t*>(scratch_g);
  uint32_t* s32 = reinterpret_cast<uint32_t*>(scratch_s);
  unsigned sAddr = static_cast<unsigned>(__cvta_generic_to_shared(s32));
  volatile uint32_t* vg32 = g32;
  volatile uint32_t* vs32 = s32;

  // f32 add: 14 pairs on global, shared, generic-to-shared and generic-to-global.
  const uint32_t f32a[14] = {0x3f800000, 0x00000001, 0x00400000, 0x3f800000, 0x80000000, 0x80000000, 0x7f800000,
                             0x7fc00001, 0xffc00000, 0x7f7fffff, 0x00800000, 0x3f800000, 0x00800001, 0x3f800000};
  const uint32_t f32b[14] = {0x40000000, 0x00000000, 0x00400000, 0x00000001, 0x80000000, 0x00000000, 0xff800000,
                             0x3f800000, 0x3f800000, 0x7f7fffff, 0x80000001, 0x33800000, 0x80800000, 0x33c00000};
  for (int i = 0; i < 14; ++i) {
    float old;
    *vg32 = f32a[i];
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(g32), "f"(f(f32b[i])) : "memory");
    out[n++] = (uint64_t(u(old)) << 32) | *vg32;
    *vs32 = f32a[i];
    asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(old) : "r"(sAddr), "f"(f(f32b[i])) : "memory");
    out[n++] = (uint64_t(u(old)) << 32) | *vs32;
    *vs32 = f32a[i];
    asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(s32), "f"(f(f32b[i])) : "memory");
    out[n++] = (uint64_t(u(old)) << 32) | *vs32;
    *vg32 = f32a[i];
    asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(g32), "f"(f(f32b[i])) : "memory");
    out[n++] = (uint64_t(u(old)) << 32) | *vg32;
  }  // n = 56
  // red.add.f32 on global and shared with subnormals.
  for (int i = 1; i < 3; ++i) {
    *vg32 = f32a[i];
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(g32), "f"(f(f32b[i])) : "memory");
    out[n++] = *vg32;
    *vs32 = f32a[i];
    asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(sAddr), "f"(f(f32b[i])) : "memory");
    out[n++] = *vs32;
  }  // n = 60

  // f64 add: old and new as two words each.
  const uint64_t f64a[6] = {0x3ff0000000000000ull, 0x0000000000000001ull, 0x7ff0000000000000ull,
                            0x7ff8000000000001ull, 0x3ff0000000000000ull, 0x8000000000000000ull};
  const uint64_t f64b[6] = {0x3ca0000000000000ull, 0x0000000000000001ull, 0xfff0000000000000ull,
                            0x3ff0000000000000ull, 0x3cb0000000000000ull, 0x8000000000000000ull};
  volatile unsigned long long* vg64 = scratch_g;
  for (int i = 0; i < 6; ++i) {
    double old;
    *vg64 = f64a[i];
    asm volatile("atom.global.add.f64 %0, [%1], %2;"
                 : "=d"(old)
                 : "l"(scratch_g), "d"(__longlong_as_double(f64b[i]))
                 : "memory");
    out[n++] = __double_as_longlong(old);
    out[n++] = *vg64;
  }  // n = 72

  // f16 and bf16 add, global then shared.
  uint16_t* g16 = reinterpret_cast<uint16_t*>(scratch_g);
  uint16_t* s16 = reinterpret_cast<uint16_t*>(scratch_s);
  volatile uint16_t* vg16 = g16;
  volatile uint16_t* vs16 = s16;
  const uint16_t h16a[12] = {0x3c00, 0x3c01, 0x0001, 0x8001, 0x7bff, 0x7bff, 0x7e01, 0x7c00, 0x8000, 0x8000, 0x03ff, 0x3c00};
  const uint16_t h16b[12] = {0x1000, 0x1000, 0x0001, 0x0001, 0x4c00, 0x4bff, 0x3c00, 0xfc00, 0x8000, 0x0000, 0x0001, 0x1001};
  for (int i = 0; i < 12; ++i) {
    unsigned short old;
    *vg16 = h16a[i];
    asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"(g16), "h"(h16b[i]) : "memory");
    out[n++] = (uint64_t(old) << 32) | *vg16;
    *vs16 = h16a[i];
    asm volatile("atom.shared.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "r"(sAddr), "h"(h16b[i]) : "memory");
    out[n++] = (uint64_t(old) << 32) | *vs16;
  }  // n = 96
  const uint16_t b16a[10] = {0x3f80, 0x3f81, 0x3f80, 0x0001, 0x7f7f, 0x7fc1, 0x7f80, 0x8000, 0x0080, 0x3f80};
  const uint16_t b16b[10] = {0x3b80, 0x3b80, 0x0001, 0x0001, 0x7b80, 0x3f80, 0xff80, 0x8000, 0x8001, 0x3b81};
  for (int i = 0; i < 10; ++i) {
    unsigned short old;
    *vg16 = b16a[i];
    asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(g16), "h"(b16b[i]) : "memory");
    out[n++] = (uint64_t(old) << 32) | *vg16;
    *vs16 = b16a[i];
    asm volatile("atom.shared.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "r"(sAddr), "h"(b16b[i]) : "memory");
    out[n++] = (uint64_t(old) << 32) | *vs16;
  }  // n = 116

  // Packed pairs: f16x2 and bf16x2 (element 0 low), global and generic.
  const uint32_t p16a[4] = {0x3c013c00, 0x80017bff, 0x3f813f80, 0x7f7f0001};
  const uint32_t p16b[4] = {0x10001000, 0x00014c00, 0x3b803b80, 0x7b800001};
  for (int i = 0; i < 4; ++i) {
    uint32_t old;
    *vg32 = p16a[i];
    if (i < 2) {
      asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(p16b[i]) : "memory");
    } else {
      asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(p16b[i]) : "memory");
    }
    out[n++] = (uint64_t(old) << 32) | *vg32;
    *vs32 = p16a[i];
    if (i < 2) {
      asm volatile("atom.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(s32), "r"(p16b[i]) : "memory");
    } else {
      asm volatile("atom.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(old) : "l"(s32), "r"(p16b[i]) : "memory");
    }
    out[n++] = (uint64_t(old) << 32) | *vs32;
  }  // n = 124

  // Vector min/max of f16 and bf16: NaN against a number, two NaNs, signed
  // zeros, ordinary values. Each v2 case packs old0, old1, new0, new1.
  const uint16_t mmA[8] = {0x7e01, 0x3c00, 0x7e01, 0x0000, 0x8000, 0x3c00, 0xfc00, 0x0001};
  const uint16_t mmB[8] = {0x3c00, 0x7e01, 0x7e02, 0x8000, 0x0000, 0x4000, 0x7c00, 0x8001};
  const uint16_t bmA[8] = {0x7fc1, 0x3f80, 0x7fc1, 0x0000, 0x8000, 0x3f80, 0xff80, 0x0001};
  const uint16_t bmB[8] = {0x3f80, 0x7fc1, 0x7fc2, 0x8000, 0x0000, 0x4000, 0x7f80, 0x8001};
  for (int kind = 0; kind < 4; ++kind) {
    const uint16_t* A = kind < 2 ? mmA : bmA;
    const uint16_t* B = kind < 2 ? mmB : bmB;
    for (int i = 0; i < 8; i += 2) {
      unsigned short o0, o1;
      vg16[0] = A[i];
      vg16[1] = A[i + 1];
      switch (kind) {
        case 0:
          asm volatile("atom.global.v2.f16.min.noftz {%0, %1}, [%2], {%3, %4};"
                       : "=h"(o0), "=h"(o1) : "l"(g16), "h"(B[i]), "h"(B[i + 1]) : "memory");
          break;
        case 1:
          asm volatile("atom.global.v2.f16.max.noftz {%0, %1}, [%2], {%3, %4};"
                       : "=h"(o0), "=h"(o1) : "l"(g16), "h"(B[i]), "h"(B[i + 1]) : "memory");
          break;
        case 2:
          asm volatile("atom.global.v2.bf16.min.noftz {%0, %1}, [%2], {%3, %4};"
                       : "=h"(o0), "=h"(o1) : "l"(g16), "h"(B[i]), "h"(B[i + 1]) : "memory");
          break;
        default:
          asm volatile("atom.global.v2.bf16.max.noftz {%0, %1}, [%2], {%3, %4};"
                       : "=h"(o0), "=h"(o1) : "l"(g16), "h"(B[i]), "h"(B[i + 1]) : "memory");
          break;
      }
      out[n++] = (uint64_t(o0) << 48) | (uint64_t(o1) << 32) | (uint64_t(vg16[0]) << 16) | vg16[1];
    }
  }  // n = 140

  // Vector f32 add (global only): subnormals, a tie, NaN.
  {
    float o0, o1, o2, o3;
    vg32[0] = 0x00400000; vg32[1] = 0x3f800000; vg32[2] = 0x7fc00001; vg32[3] = 0x00800001;
    asm volatile("atom.global.v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=f"(o0), "=f"(o1), "=f"(o2), "=f"(o3)
                 : "l"(g32), "f"(f(0x00400000)), "f"(f(0x33800000)), "f"(f(0x3f800000)), "f"(f(0x80800000))
                 : "memory");
    out[n++] = (uint64_t(u(o0)) << 32) | vg32[0];
    out[n++] = (uint64_t(u(o1)) << 32) | vg32[1];
    out[n++] = (uint64_t(u(o2)) << 32) | vg32[2];
    out[n++] = (uint64_t(u(o3)) << 32) | vg32[3];
    vg32[0] = 0x00000001; vg32[1] = 0xbf800000;
    asm volatile("red.global.v2.f32.add [%0], {%1, %2};" ::"l"(g32), "f"(f(0x00000001)), "f"(f(0x3f800000)) : "memory");
    out[n++] = (uint64_t(vg32[0]) << 32) | vg32[1];
  }  // n = 145

  // Vector f16/bf16 add: v4 f16 with ties and overflow; v8 bf16.
  {
    unsigned short o[8];
    const uint16_t a4[4] = {0x3c00, 0x3c01, 0x7bff, 0x0001};
    const uint16_t b4[4] = {0x1000, 0x1000, 0x4c00, 0x8002};
    for (int i = 0; i < 4; ++i) vg16[i] = a4[i];
    asm volatile("atom.global.v4.f16.add.noftz {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3])
                 : "l"(g16), "h"(b4[0]), "h"(b4[1]), "h"(b4[2]), "h"(b4[3])
                 : "memory");
    for (int i = 0; i < 4; ++i) out[n++] = (uint64_t(o[i]) << 32) | vg16[i];
    const uint16_t a8[8] = {0x3f80, 0x3f81, 0x7f7f, 0x0001, 0x7fc1, 0x8000, 0x4049, 0xc049};
    const uint16_t b8[8] = {0x3b80, 0x3b80, 0x7b80, 0x8002, 0x3f80, 0x8000, 0x3c23, 0x3c23};
    for (int i = 0; i < 8; ++i) vg16[i] = a8[i];
    asm volatile("red.global.v8.bf16.add.noftz [%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
                 ::"l"(g16), "h"(b8[0]), "h"(b8[1]), "h"(b8[2]), "h"(b8[3]), "h"(b8[4]), "h"(b8[5]), "h"(b8[6]),
                 "h"(b8[7])
                 : "memory");
    for (int i = 0; i < 8; ++i) out[n++] = vg16[i];
  }  // n = 157

  // Packed vector min/max: v2.f16x2 min, v2.bf16x2 max.
  {
    uint32_t o0, o1;
    vg32[0] = 0x7e013c00; vg32[1] = 0x80000000;
    asm volatile("atom.global.v2.f16x2.min.noftz {%0, %1}, [%2], {%3, %4};"
                 : "=r"(o0), "=r"(o1) : "l"(g32), "r"(0x3c007e01u), "r"(0x00008000u) : "memory");
    out[n++] = (uint64_t(o0) << 32) | o1;
    out[n++] = (uint64_t(vg32[0]) << 32) | vg32[1];
    vg32[0] = 0x7fc13f80; vg32[1] = 0x80000000;
    asm volatile("atom.global.v2.bf16x2.max.noftz {%0, %1}, [%2], {%3, %4};"
                 : "=r"(o0), "=r"(o1) : "l"(g32), "r"(0x3f807fc1u), "r"(0x00008000u) : "memory");
    out[n++] = (uint64_t(o0) << 32) | o1;
    out[n++] = (uint64_t(vg32[0]) << 32) | vg32[1];
  }  // n = 161

  // red.add f16 / bf16 / f16x2 on shared and global.
  {
    *vs16 = 0x3c01;
    asm volatile("red.shared.add.noftz.f16 [%0], %1;" ::"r"(sAddr), "h"((unsigned short)0x1000) : "memory");
    out[n++] = *vs16;
    *vg16 = 0x3f81;
    asm volatile("red.global.add.noftz.bf16 [%0], %1;" ::"l"(g16), "h"((unsigned short)0x3b80) : "memory");
    out[n++] = *vg16;
    *vg32 = 0x3c017bff;
    asm volatile("red.add.noftz.f16x2 [%0], %1;" ::"l"(g32), "r"(0x10004c00u) : "memory");
    out[n++] = *vg32;
    *vs32 = 0x3f813f80;
    asm volatile("red.shared.add.noftz.bf16x2 [%0], %1;" ::"r"(sAddr), "r"(0x3b803b80u) : "memory");
    out[n++] = *vs32;
  }  // n = 165

  // f64 red and generic-to-shared f64 add.
  {
    volatile unsigned long long* vs64 = scratch_s;
    *vs64 = 0x0000000000000001ull;
    double old;
    asm volatile("atom.add.f64 %0, [%1], %2;" : "=d"(old) : "l"(scratch_s), "d"(__longlong_as_double(1)) : "memory");
    out[n++] = __double_as_longlong(old);
    out[n++] = *vs64;
    *vg64 = 0x3ff0000000000001ull;
    asm volatile("red.global.add.f64 [%0], %1;" ::"l"(scratch_g), "d"(__longlong_as_double(0x3ca0000000000000ull))
                 : "memory");
    out[n++] = *vg64;
  }  // n = 168

  // bf16 sums far apart and near the overflow threshold.
  {
    const uint16_t a[7] = {0x7f7f, 0x7f7f, 0x4b80, 0x0080, 0x8080, 0x3f80, 0x0100};
    const uint16_t b[7] = {0x7380, 0x737f, 0x3f80, 0x807f, 0x0001, 0xbf80, 0x80ff};
    for (int i = 0; i < 7; ++i) {
      unsigned short old;
      *vg16 = a[i];
      asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(g16), "h"(b[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg16;
    }
  }  // n = 175

  // f64 NaN propagation: two NaN payloads, a signaling NaN, a NaN addend.
  {
    const uint64_t na[3] = {0x7ff8000000000011ull, 0x7ff0000000000001ull, 0x3ff0000000000000ull};
    const uint64_t nb[3] = {0xfff8000000000022ull, 0x3ff0000000000000ull, 0x7ff4000000000033ull};
    for (int i = 0; i < 3; ++i) {
      double old;
      *vg64 = na[i];
      asm volatile("atom.global.add.f64 %0, [%1], %2;"
                   : "=d"(old)
                   : "l"(scratch_g), "d"(__longlong_as_double(nb[i]))
                   : "memory");
      asm volatile("" ::"d"(old));  // only the memory is recorded
      out[n++] = *vg64;
    }
  }  // n = 178
}

#include "harness.h"
