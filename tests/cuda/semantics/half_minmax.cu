// f16/bf16 min, max (.NaN, .xorsign.abs, .ftz), neg, abs, setp and set
// (packed halves, NaN operands, signed zeros), ex2.approx and tanh.approx,
// through inline PTX.
#include <cstdint>

__device__ unsigned int case_count = 262;

__device__ uint16_t kF16[12] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff,
                                      0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe01, 0x4200};
__device__ uint16_t kBF16[12] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x807f,
                                       0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x4040};
__device__ uint8_t kPairs[12][2] = {{0, 1}, {1, 0}, {2, 3}, {4, 5}, {4, 0}, {6, 7},
                                          {8, 2}, {3, 9}, {8, 10}, {10, 11}, {5, 3}, {11, 2}};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  for (int i = 0; i < 12; ++i) {
    uint16_t a = kF16[kPairs[i][0]], b = kF16[kPairs[i][1]], r;
    asm("min.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("max.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("min.NaN.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("max.ftz.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("min.xorsign.abs.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("max.NaN.xorsign.abs.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    uint16_t x = kBF16[kPairs[i][0]], y = kBF16[kPairs[i][1]];
    asm("min.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    asm("max.NaN.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    asm("max.xorsign.abs.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    uint32_t s;
    asm("{ .reg .pred p, q; setp.lt.f16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(s) : "h"(a), "h"(b));
    out[k++] = s;
    asm("{ .reg .pred p, q; setp.geu.ftz.f16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(s) : "h"(a), "h"(b));
    out[k++] = s;
    asm("{ .reg .pred p, q; setp.neu.bf16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(s) : "h"(x), "h"(y));
    out[k++] = s;
    asm("set.le.u32.f16 %0, %1, %2;" : "=r"(s) : "h"(a), "h"(b));
    out[k++] = s;
    asm("set.eq.f16.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
  }  // 168 cases
  for (int i = 0; i < 12; ++i) {
    uint16_t a = kF16[i], x = kBF16[i], r;
    asm("neg.f16 %0, %1;" : "=h"(r) : "h"(a));
    out[k++] = r;
    asm("neg.ftz.f16 %0, %1;" : "=h"(r) : "h"(a));
    out[k++] = r;
    asm("abs.f16 %0, %1;" : "=h"(r) : "h"(a));
    out[k++] = r;
    asm("abs.ftz.f16 %0, %1;" : "=h"(r) : "h"(a));
    out[k++] = r;
    asm("neg.bf16 %0, %1;" : "=h"(r) : "h"(x));
    out[k++] = r;
    asm("abs.bf16 %0, %1;" : "=h"(r) : "h"(x));
    out[k++] = r;
  }  // 72 cases
  // Packed compares: which half lands in p and which in q.
  uint32_t s;
  asm("{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(s) : "r"(0x3c004000u), "r"(0x40003c00u));
  out[k++] = s;
  asm("{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, q; }" : "=r"(s) : "r"(0x3c004000u), "r"(0x40003c00u));
  out[k++] = s;
  asm("{ .reg .pred p, q, t; setp.eq.u32 t, 1, 1; setp.lt.and.bf16x2 p|q, %1, %2, t; selp.u32 %0, 1, 0, q; }" : "=r"(s) : "r"(0x3f804000u), "r"(0x40003f80u));
  out[k++] = s;
  asm("set.lt.f16x2.f16x2 %0, %1, %2;" : "=r"(s) : "r"(0x3c004000u), "r"(0x40003c00u));
  out[k++] = s;
  asm("set.lt.u32.f16x2 %0, %1, %2;" : "=r"(s) : "r"(0x3c004000u), "r"(0x40003c00u));
  out[k++] = s;
  asm("set.gtu.bf16x2.bf16x2 %0, %1, %2;" : "=r"(s) : "r"(0x7fc03f80u), "r"(0x3f804000u));
  out[k++] = s;
  asm("min.f16x2 %0, %1, %2;" : "=r"(s) : "r"(0x7e003c00u), "r"(0x3c00bc00u));
  out[k++] = s;
  asm("max.bf16x2 %0, %1, %2;" : "=r"(s) : "r"(0x7fc03f80u), "r"(0xbf804000u));
  out[k++] = s;
  // ex2.approx and tanh.approx.
  const uint16_t ex[5] = {0x0000, 0x3c00, 0xc500, 0x4900, 0x3555};
  for (int i = 0; i < 5; ++i) {
    uint16_t r;
    asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(ex[i]));
    out[k++] = r;
    asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(ex[i]));
    out[k++] = r;
  }
  const uint16_t bx[4] = {0x0000, 0x3f80, 0xc0a0, 0x3eab};
  for (int i = 0; i < 4; ++i) {
    uint16_t r;
    asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(bx[i]));
    out[k++] = r;
  }
}

#include "harness.h"
