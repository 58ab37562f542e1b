// Saturating add/sub, the carry flag of add.cc/sub.cc/mad.cc and its use by
// addc/subc/madc (including mixed chains such as sub.cc then addc), and
// mad.hi.sat.s32. A carry chain must stay inside one asm statement; the
// flag is read back with `addc.u32 d, 0, 0`.
#include <cstdint>

__device__ unsigned int case_count = 236;

__device__ int32_t sat32[6] = {0, 1, -1, INT32_MAX, INT32_MIN, 0x40000000};
__device__ uint32_t carry32[4] = {0u, 1u, 0xffffffffu, 0x80000000u};
__device__ uint64_t carry64[3] = {0ull, 1ull, 0xffffffffffffffffull};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile int32_t* s = sat32;
  const volatile uint32_t* c = carry32;
  const volatile uint64_t* w = carry64;
  unsigned n = 0;
  // 72 cases.
#pragma unroll 1
  for (int i = 0; i < 6; ++i) {
#pragma unroll 1
    for (int j = 0; j < 6; ++j) {
      int32_t a = s[i], b = s[j], r;
      asm volatile("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
      asm volatile("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
    }
  }
  // 16 pairs x 8 = 128 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
#pragma unroll 1
    for (int j = 0; j < 4; ++j) {
      uint32_t a = c[i], b = c[j], d, f;
      asm volatile("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, 0, 0;" : "=r"(d), "=r"(f) : "r"(a), "r"(b));
      out[n++] = d;
      out[n++] = f;
      asm volatile("sub.cc.u32 %0, %2, %3;\n\taddc.u32 %1, 0, 0;" : "=r"(d), "=r"(f) : "r"(a), "r"(b));
      out[n++] = d;
      out[n++] = f;
      // The borrow of sub.cc consumed by subc; then add.cc's carry consumed by subc.
      asm volatile("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, 0, 0;" : "=r"(d), "=r"(f) : "r"(a), "r"(b));
      out[n++] = d;
      out[n++] = f;
      asm volatile("add.cc.u32 %0, %2, %3;\n\tsubc.cc.u32 %1, 5, 0;\n\taddc.u32 %0, 0, 0;" : "=r"(d), "=r"(f)
                   : "r"(a), "r"(b));
      out[n++] = f;
      out[n++] = d;
    }
  }
  // 64-bit chains: 9 pairs x 2 = 18 cases.
#pragma unroll 1
  for (int i = 0; i < 3; ++i) {
#pragma unroll 1
    for (int j = 0; j < 3; ++j) {
      uint64_t a = w[i], b = w[j], d, f;
      asm volatile("add.cc.u64 %0, %2, %3;\n\taddc.cc.u64 %1, %2, %3;\n\tsubc.u64 %1, %1, 0;" : "=l"(d), "=l"(f)
                   : "l"(a), "l"(b));
      out[n++] = d;
      out[n++] = f;
    }
  }
  // mad.cc / madc and mad.hi.sat.s32: 18 cases.
#pragma unroll 1
  for (int i = 0; i < 3; ++i) {
    uint32_t a = c[i + 1], d, e, f;
    asm volatile("mad.lo.cc.u32 %0, %3, %3, %3;\n\tmadc.hi.cc.u32 %1, %3, %3, %3;\n\taddc.u32 %2, 0, 0;"
                 : "=r"(d), "=r"(e), "=r"(f) : "r"(a));
    out[n++] = d;
    out[n++] = e;
    out[n++] = f;
    int32_t x = s[i + 3], y = s[i + 1], r;
    asm volatile("mad.hi.sat.s32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
    out[n++] = static_cast<uint32_t>(r);
    asm volatile("mad.hi.sat.s32 %0, %1, %2, %2;" : "=r"(r) : "r"(x), "r"(y));
    out[n++] = static_cast<uint32_t>(r);
    asm volatile("mad.hi.s32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
    out[n++] = static_cast<uint32_t>(r);
  }
}

#include "harness.h"
