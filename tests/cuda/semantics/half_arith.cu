// f16/bf16 add, sub, mul and fma through inline PTX: NaN bit patterns,
// signed zeros, subnormals with and without .ftz, overflow, .sat, .relu,
// .oob, ties of the .rn rounding, and the packed x2 forms.
#include <cstdint>

__device__ unsigned int case_count = 232;

// f16 operands: +0, -0, 1, -1, min subnormal, -max subnormal, max, inf,
// -inf, qNaN, sNaN, -NaN with payload, 2048, 1/3, 0.5+ulp, 0x0400 (min normal).
__device__ uint16_t kF16[16] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff, 0x7bff, 0x7c00,
                                      0xfc00, 0x7e00, 0x7d01, 0xfe01, 0x6800, 0x3555, 0x3801, 0x0400};
// bf16 operands in the same roles.
__device__ uint16_t kBF16[16] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x807f, 0x7f7f, 0x7f80,
                                       0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x4b00, 0x3eab, 0x3f01, 0x0080};
// Operand pairs (indices into the tables above).
__device__ uint8_t kPairs[16][2] = {{0, 1}, {1, 1}, {2, 3},  {4, 4},  {4, 5},  {6, 6},  {6, 2},   {7, 8},
                                          {7, 2}, {9, 2}, {10, 2}, {11, 3}, {12, 2}, {13, 14}, {15, 5}, {3, 13}};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  for (int i = 0; i < 16; ++i) {
    uint16_t a = kF16[kPairs[i][0]], b = kF16[kPairs[i][1]], r;
    asm("add.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("add.ftz.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("add.sat.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("sub.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("mul.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    asm("mul.ftz.sat.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    out[k++] = r;
    uint16_t c = kF16[(kPairs[i][0] + 3) & 15];
    asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(c));
    out[k++] = r;
    asm("fma.rn.relu.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(c));
    out[k++] = r;
    asm("fma.rn.oob.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(c));
    out[k++] = r;
    uint16_t x = kBF16[kPairs[i][0]], y = kBF16[kPairs[i][1]], z = kBF16[(kPairs[i][0] + 3) & 15];
    asm("add.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    asm("sub.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    asm("mul.bf16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
    out[k++] = r;
    asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(x), "h"(y), "h"(z));
    out[k++] = r;
    asm("fma.rn.relu.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(x), "h"(y), "h"(z));
    out[k++] = r;
  }  // 224 cases
  // Rounding ties and the exactness of fma, f16 and bf16.
  uint16_t r;
  asm("add.f16 %0, %1, %2;" : "=h"(r) : "h"(uint16_t(0x6800)), "h"(uint16_t(0x3c00)));  // 2048+1: tie to even
  out[k++] = r;
  asm("add.f16 %0, %1, %2;" : "=h"(r) : "h"(uint16_t(0x6801)), "h"(uint16_t(0x3c00)));  // 2050+1: tie up
  out[k++] = r;
  // (1+2^-10)^2 - 1 exactly needs the unrounded product.
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(uint16_t(0x3c01)), "h"(uint16_t(0x3c01)), "h"(uint16_t(0xbc00)));
  out[k++] = r;
  // 1 + 2^-11 + tiny: a tie broken by a product bit far below.
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(uint16_t(0x1001)), "h"(uint16_t(0x1001)), "h"(uint16_t(0x3c00)));
  out[k++] = r;
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(uint16_t(0x3f81)), "h"(uint16_t(0x3f81)), "h"(uint16_t(0xbf80)));
  out[k++] = r;
  asm("add.bf16 %0, %1, %2;" : "=h"(r) : "h"(uint16_t(0x3f80)), "h"(uint16_t(0x3b80)));  // 1 + 2^-8: tie
  out[k++] = r;
  // Packed: element 0 in the low half.
  uint32_t p;
  asm("add.f16x2 %0, %1, %2;" : "=r"(p) : "r"(0x3c007e00u), "r"(0x40003c00u));
  out[k++] = p;
  asm("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(p) : "r"(0xbf803f80u), "r"(0x3f803f80u), "r"(0x00000000u));
  out[k++] = p;
}

#include "harness.h"
