// The packed 16-bit integer forms of PTX 8.0 (sm_90): add, min, max on
// .u16x2 and .s16x2, and min/max .relu on .s16x2. nvcc emits them for
// __vadd2, __vmaxs2, __vminu2 and relatives; there is no sub form, so
// __vsub2 becomes add.s16x2 of a negation. Each operand pair
// mixes halves that wrap, hit the signed and unsigned extremes, and differ
// in sign, so each half is checked independently of the other.
#include <cstdint>

__device__ unsigned int case_count = 176;

__device__ uint32_t kA[16] = {0x00000000, 0xffffffff, 0x7fff8000, 0x80007fff, 0x00017fff, 0xffff0001,
                                    0x12345678, 0x9abcdef0, 0x80008000, 0x7fff7fff, 0x0001ffff, 0xfffe0002,
                                    0x40000000, 0xc000c000, 0x00ff0100, 0x5555aaaa};
__device__ uint32_t kB[16] = {0x00000000, 0x00010001, 0x00010001, 0xffffffff, 0x7fff0001, 0x0001ffff,
                                    0x87654321, 0x0fedcba9, 0x80008000, 0x80018001, 0xffff0001, 0x00030003,
                                    0x40004000, 0x40003fff, 0xff0000ff, 0xaaaa5555};

#define OP(inst)                                                 \
  {                                                              \
    uint32_t r;                                                  \
    asm volatile(inst " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); \
    out[k++] = r;                                                \
  }

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  for (int i = 0; i < 16; ++i) {
    uint32_t a = kA[i], b = kB[i];
    OP("add.u16x2") OP("add.s16x2") OP("min.u16x2") OP("min.s16x2")
    OP("max.u16x2") OP("max.s16x2") OP("min.relu.s16x2") OP("max.relu.s16x2")
    // What nvcc emits for the CUDA SIMD intrinsics built on these.
    out[k++] = __vmaxs2(a, b);
    out[k++] = __vsub2(a, b);
    out[k++] = __vminu2(a, b);
  }
}

#include "harness.h"
