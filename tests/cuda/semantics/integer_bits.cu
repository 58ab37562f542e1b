// Bit manipulation: popc, clz, bfind (.shiftamt), brev, bfe, bfi, fns,
// szext and bmsk (.wrap/.clamp) with out-of-range positions and widths,
// and dp4a/dp2a for every signedness combination. Inputs come from device
// arrays so that nothing is folded at compile time.
#include <cstdint>

__device__ unsigned int case_count = 298;

__device__ uint64_t bits[6] = {0ull, 1ull, 0xffffffffffffffffull, 0x8000000000000000ull, 0x00000000f0f0f0f0ull,
                               0x7fff0000000a5a5aull};
__device__ uint32_t amounts[7] = {0u, 1u, 5u, 31u, 32u, 33u, 200u};
__device__ uint32_t mixed[4] = {0x80ff017fu, 0x12345678u, 0xfffefd80u, 0x7f7f8080u};
__device__ int32_t offsets[6] = {0, 1, -1, 3, -3, 40};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile uint64_t* v = bits;
  const volatile uint32_t* am = amounts;
  const volatile uint32_t* mx = mixed;
  const volatile int32_t* off = offsets;
  unsigned n = 0;
  // 6 values x 12 = 72 cases.
#pragma unroll 1
  for (int i = 0; i < 6; ++i) {
    uint64_t x = v[i];
    uint32_t lo = static_cast<uint32_t>(x), hi = static_cast<uint32_t>(x >> 32), d;
    uint64_t q;
    asm volatile("popc.b64 %0, %1;" : "=r"(d) : "l"(x));
    out[n++] = d;
    asm volatile("clz.b32 %0, %1;" : "=r"(d) : "r"(hi));
    out[n++] = d;
    asm volatile("clz.b64 %0, %1;" : "=r"(d) : "l"(x));
    out[n++] = d;
    asm volatile("bfind.u32 %0, %1;" : "=r"(d) : "r"(lo));
    out[n++] = d;
    asm volatile("bfind.s32 %0, %1;" : "=r"(d) : "r"(hi));
    out[n++] = d;
    asm volatile("bfind.shiftamt.u32 %0, %1;" : "=r"(d) : "r"(lo));
    out[n++] = d;
    asm volatile("bfind.shiftamt.s32 %0, %1;" : "=r"(d) : "r"(hi));
    out[n++] = d;
    asm volatile("bfind.s64 %0, %1;" : "=r"(d) : "l"(x));
    out[n++] = d;
    asm volatile("bfind.shiftamt.u64 %0, %1;" : "=r"(d) : "l"(x));
    out[n++] = d;
    asm volatile("brev.b32 %0, %1;" : "=r"(d) : "r"(lo));
    out[n++] = d;
    asm volatile("brev.b64 %0, %1;" : "=l"(q) : "l"(x));
    out[n++] = q;
    asm volatile("popc.b32 %0, %1;" : "=r"(d) : "r"(hi));
    out[n++] = d;
  }
  // bfe/bfi: 3 values x 7 positions x 2 lengths x 4 = 168 cases.
#pragma unroll 1
  for (int i = 2; i < 5; ++i) {
#pragma unroll 1
    for (int p = 0; p < 7; ++p) {
#pragma unroll 1
      for (int k = 2; k < 4; ++k) {
        uint64_t x = v[i] ^ 0x0123456789abcdefull;
        uint32_t pos = am[p], len = am[k] + 8 * (p & 1), d;
        uint64_t q;
        asm volatile("bfe.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(static_cast<uint32_t>(x)), "r"(pos), "r"(len));
        out[n++] = d;
        asm volatile("bfe.u64 %0, %1, %2, %3;" : "=l"(q) : "l"(x), "r"(pos), "r"(len));
        out[n++] = q;
        asm volatile("bfe.s64 %0, %1, %2, %3;" : "=l"(q) : "l"(x), "r"(pos + 20), "r"(len + 24));
        out[n++] = q;
        asm volatile("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(0xffffffffu), "r"(static_cast<uint32_t>(x)),
                     "r"(pos), "r"(len));
        out[n++] = d;
      }
    }
  }
  // szext/bmsk: 7 amounts x 4 = 28 cases.
#pragma unroll 1
  for (int p = 0; p < 7; ++p) {
    uint32_t b = am[p], d;
    asm volatile("szext.wrap.s32 %0, %1, %2;" : "=r"(d) : "r"(0x0000a5b6u), "r"(b));
    out[n++] = d;
    asm volatile("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(0xffff25b6u), "r"(b));
    out[n++] = d;
    asm volatile("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(am[(p + 2) % 7]), "r"(b));
    out[n++] = d;
    asm volatile("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(am[(p + 3) % 7]), "r"(b));
    out[n++] = d;
  }
  // fns: 6 offsets x 2 = 12 cases.
#pragma unroll 1
  for (int k = 0; k < 6; ++k) {
    uint32_t d;
    asm volatile("fns.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(0xaaaaaaaau), "r"(am[2]), "r"(off[k]));
    out[n++] = d;
    asm volatile("fns.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(0x80000101u), "r"(am[1]), "r"(off[k]));
    out[n++] = d;
  }
  // dp4a/dp2a: 2 pairs x 9 = 18 cases.
#pragma unroll 1
  for (int i = 0; i < 2; ++i) {
    uint32_t a = mx[i], b = mx[i + 2], c = mx[(i + 1) % 4], d;
    asm volatile("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
  }
}

#include "harness.h"
