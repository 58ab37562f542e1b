// Integer and bitwise atom/red: inc/dec wrap-around at their bound, signed
// and unsigned min/max, and/or/xor, exch, cas (b16/b32/b64, success and
// failure), add wrap-around, on global, shared and generic addresses. Then
// all 32 lanes on one address, whose final values do not depend on the
// order of the lanes. Each scalar case writes (old << 32) | new, or two
// words for 64-bit values.
#include <cstdint>

__device__ unsigned int case_count = 94;
__device__ unsigned long long scratch_g[4];

extern "C" __global__ void cases(unsigned long long* out) {
  __shared__ unsigned long long scratch_s[4];
  __shared__ unsigned int counter_s[4];
  unsigned n = 0;
  uint32_t* g32 = reinterpret_cast<uint32_t*>(scratch_g);
  volatile uint32_t* vg32 = g32;
  volatile uint32_t* vs32 = reinterpret_cast<uint32_t*>(scratch_s);
  unsigned sAddr = static_cast<unsigned>(__cvta_generic_to_shared(scratch_s));
  volatile unsigned long long* vg64 = scratch_g;
  if (threadIdx.x == 0) {
    // inc/dec: (old, bound) pairs, on global then on shared.
    const uint32_t incOld[8] = {0, 5, 6, 4, 0xffffffffu, 0xfffffffeu, 0, 7};
    const uint32_t incB[8] = {0, 5, 5, 5, 0xffffffffu, 0xffffffffu, 5, 0};
    for (int i = 0; i < 8; ++i) {
      uint32_t old;
      *vg32 = incOld[i];
      asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(incB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      *vs32 = incOld[i];
      asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(old) : "r"(sAddr), "r"(incB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
    }  // n = 16
    // dec on global, inc on shared, generic.
    for (int i = 0; i < 8; ++i) {
      uint32_t old;
      *vg32 = incOld[i];
      asm volatile("atom.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(incB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      *vs32 = incOld[i];
      asm volatile("atom.shared.inc.u32 %0, [%1], %2;" : "=r"(old) : "r"(sAddr), "r"(incB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
    }  // n = 32
    // min/max 32-bit, signed and unsigned, on the same bit patterns.
    const uint32_t mA[4] = {0xfffffffeu, 5, 0x80000000u, 7};
    const uint32_t mB[4] = {3, 0xffffffffu, 0x7fffffffu, 7};
    for (int i = 0; i < 4; ++i) {
      uint32_t old;
      *vg32 = mA[i];
      asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(mB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      *vg32 = mA[i];
      asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(mB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      *vs32 = mA[i];
      asm volatile("atom.shared.max.s32 %0, [%1], %2;" : "=r"(old) : "r"(sAddr), "r"(mB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
      *vs32 = mA[i];
      asm volatile("atom.shared.max.u32 %0, [%1], %2;" : "=r"(old) : "r"(sAddr), "r"(mB[i]) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
    }  // n = 48
    // 64-bit min/max, add wrap-around.
    {
      unsigned long long old;
      *vg64 = 0xfffffffffffffffeull;
      asm volatile("atom.global.min.s64 %0, [%1], %2;" : "=l"(old) : "l"(scratch_g), "l"(3ull) : "memory");
      out[n++] = old;
      out[n++] = *vg64;
      *vg64 = 0xfffffffffffffffeull;
      asm volatile("atom.global.max.u64 %0, [%1], %2;" : "=l"(old) : "l"(scratch_g), "l"(3ull) : "memory");
      out[n++] = *vg64;
      *vg64 = 0x8000000000000000ull;
      asm volatile("atom.global.max.s64 %0, [%1], %2;" : "=l"(old) : "l"(scratch_g), "l"(0x7fffffffffffffffull)
                   : "memory");
      out[n++] = *vg64;
      *vg64 = 0xffffffffffffffffull;
      asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(scratch_g), "l"(2ull) : "memory");
      out[n++] = *vg64;
      uint32_t o32;
      *vg32 = 0xffffffffu;
      asm volatile("atom.global.add.s32 %0, [%1], %2;" : "=r"(o32) : "l"(g32), "r"(2u) : "memory");
      out[n++] = (uint64_t(o32) << 32) | *vg32;
    }  // n = 54
    // Bitwise, exch, cas.
    {
      uint32_t old;
      *vg32 = 0xf0f0f0f0u;
      asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(0x3c3c3c3cu) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(0x01010101u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      asm volatile("atom.global.xor.b32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(0xffff0000u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(0x12345678u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(g32), "r"(0x12345678u), "r"(9u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(g32), "r"(8u), "r"(10u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vg32;
      unsigned long long o64;
      *vg64 = 0xff00ff00ff00ff00ull;
      asm volatile("atom.global.xor.b64 %0, [%1], %2;" : "=l"(o64) : "l"(scratch_g), "l"(0x0ff00ff00ff00ff0ull) : "memory");
      out[n++] = *vg64;
      asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;"
                   : "=l"(o64) : "l"(scratch_g), "l"(0xf0f0f0f0f0f0f0f0ull), "l"(1ull) : "memory");
      out[n++] = *vg64;
      asm volatile("" ::"l"(o64));  // only the memory is recorded
      unsigned short o16;
      volatile unsigned short* vg16 = reinterpret_cast<unsigned short*>(scratch_g);
      vg64[0] = 0;
      vg16[1] = 0xabcd;
      asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;"
                   : "=h"(o16) : "l"(vg16 + 1), "h"((unsigned short)0xabcd), "h"((unsigned short)0x1234) : "memory");
      out[n++] = (uint64_t(o16) << 32) | vg64[0];
      asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;"
                   : "=h"(o16) : "l"(vg16 + 1), "h"((unsigned short)0xabcd), "h"((unsigned short)0x5678) : "memory");
      out[n++] = (uint64_t(o16) << 32) | vg64[0];
      *vs32 = 5;
      asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(old) : "r"(sAddr), "r"(6u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
      asm volatile("atom.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(scratch_s), "r"(6u), "r"(7u) : "memory");
      out[n++] = (uint64_t(old) << 32) | *vs32;
      asm volatile("red.shared.xor.b32 [%0], %1;" ::"r"(sAddr), "r"(0xffu) : "memory");
      out[n++] = *vs32;
      asm volatile("red.shared.inc.u32 [%0], %1;" ::"r"(sAddr), "r"(0xf9u) : "memory");
      out[n++] = *vs32;
    }  // n = 68
    vg64[0] = 0;
    vg64[1] = 0;
    vg64[2] = 0x00000000ffffffffull;
    vg64[3] = 0;
    for (int i = 0; i < 4; ++i) counter_s[i] = 0;
    counter_s[2] = 0xffffffffu;
  } else {
    n = 68;
  }
  __syncwarp();
  // All 32 lanes on one address: add, inc with bound 10 (32 increments wrap
  // to 32 mod 11), min/max over lanes, or of lane bits, dec with bound 7.
  unsigned lane = threadIdx.x;
  uint32_t old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(g32), "r"(lane * 3 + 1) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(g32 + 1), "r"(10u) : "memory");
  asm volatile("red.global.min.s32 [%0], %1;" ::"l"(g32 + 4), "r"(int(lane) - 7) : "memory");
  asm volatile("red.global.max.u32 [%0], %1;" ::"l"(g32 + 5), "r"(lane * 5) : "memory");
  asm volatile("red.global.or.b64 [%0], %1;" ::"l"(scratch_g + 3), "l"(1ull << (lane * 2)) : "memory");
  unsigned cs = static_cast<unsigned>(__cvta_generic_to_shared(counter_s));
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(cs), "r"(lane) : "memory");
  asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(old) : "r"(cs + 4), "r"(7u) : "memory");
  asm volatile("red.shared.and.b32 [%0], %1;" ::"r"(cs + 8), "r"(~(1u << (lane & 15))) : "memory");
  asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter_s + 3), "r"(1u) : "memory");
  // Every lane's olds of the last atom are 0..31 in some order: their sum
  // does not depend on it.
  __shared__ unsigned sum_s;
  if (lane == 0) sum_s = 0;
  __syncwarp();
  atomicAdd(&sum_s, old);
  __syncwarp();
  if (lane == 0) {
    out[n + 0] = vg32[0];
    out[n + 1] = vg32[1];
    out[n + 2] = vg32[4];
    out[n + 3] = vg32[5];
    out[n + 4] = vg64[3];
    out[n + 5] = counter_s[0];
    out[n + 6] = counter_s[1];
    out[n + 7] = counter_s[2];
    out[n + 8] = counter_s[3];
    out[n + 9] = sum_s;
  }
  n += 10;  // n = 78
  __syncwarp();
  // Each lane on its own address: lane-dependent scalar results.
  if (lane < 8) {
    uint32_t* mine = reinterpret_cast<uint32_t*>(scratch_s) + lane;
    *mine = lane;
    asm volatile("atom.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(mine), "r"(4u) : "memory");
    out[n + lane] = (uint64_t(old) << 32) | *mine;
  }
  n += 8;  // n = 86
  __syncwarp();
  if (lane < 4) {
    unsigned long long* mine = scratch_g + lane;
    *mine = 0x8000000000000000ull >> lane;
    unsigned long long o64;
    asm volatile("atom.global.max.s64 %0, [%1], %2;" : "=l"(o64) : "l"(mine), "l"(0x3000000000000000ull) : "memory");
    out[n + lane] = o64;
    asm volatile("atom.global.min.u64 %0, [%1], %2;" : "=l"(o64) : "l"(mine), "l"(0x3800000000000000ull) : "memory");
    out[n + 4 + lane] = *mine;
  }
  n += 8;  // n = 94
}

#include "harness.h"
