// Comparison and selection: set with every f32 comparison (ordered and
// unordered, NaN, -0, subnormals with and without .ftz) writing u32 and f32
// destinations, boolean-combined set, setp.ftz, and slct with s32 and f32
// selectors (NaN, -0, subnormal, .ftz). Inputs come from device arrays.
#include <cstdint>

__device__ unsigned int case_count = 264;

// 1.0, -0, NaN, smallest negative subnormal, +inf, -1.0
__device__ uint32_t fvals[6] = {0x3f800000u, 0x80000000u, 0x7fc00000u, 0x80000001u, 0x7f800000u, 0xbf800000u};
__device__ int32_t ivals[4] = {INT32_MIN, -1, 0, 5};

#define SET_F32(op)                                                                          \
  asm volatile("set." op ".u32.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b));                \
  out[n++] = d;

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile uint32_t* fv = fvals;
  const volatile int32_t* iv = ivals;
  unsigned n = 0;
  // 4 x 4 pairs x 14 comparisons = 224 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
#pragma unroll 1
    for (int j = 0; j < 4; ++j) {
      float a = __int_as_float(fv[i]), b = __int_as_float(fv[(j + 1) % 6]);
      uint32_t d;
      SET_F32("eq") SET_F32("ne") SET_F32("lt") SET_F32("le") SET_F32("gt") SET_F32("ge") SET_F32("equ")
      SET_F32("neu") SET_F32("ltu") SET_F32("leu") SET_F32("gtu") SET_F32("geu") SET_F32("num") SET_F32("nan")
    }
  }
  // 4 x 10 = 40 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    float a = __int_as_float(fv[i + 2]), b = __int_as_float(fv[1]);
    int32_t s = iv[i];
    uint32_t d;
    asm volatile("set.lt.ftz.f32.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b));
    out[n++] = d;
    asm volatile("set.lt.f32.f32 %0, %1, %2;" : "=r"(d) : "f"(a), "f"(b));
    out[n++] = d;
    asm volatile("set.ge.s32.s32 %0, %1, %2;" : "=r"(d) : "r"(s), "r"(-1));
    out[n++] = d;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0;\n\tset.gt.xor.u32.s32 %0, %1, %2, !p; }"
                 : "=r"(d) : "r"(s), "r"(-1));
    out[n++] = d;
    asm volatile("{ .reg .pred p; setp.le.ftz.f32 p, %1, %2;\n\tselp.u32 %0, 1, 0, p; }" : "=r"(d) : "f"(a), "f"(b));
    out[n++] = d;
    asm volatile("slct.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(1u), "r"(2u), "r"(s));
    out[n++] = d;
    asm volatile("slct.u32.f32 %0, %1, %2, %3;" : "=r"(d) : "r"(1u), "r"(2u), "f"(a));
    out[n++] = d;
    asm volatile("slct.ftz.u32.f32 %0, %1, %2, %3;" : "=r"(d) : "r"(1u), "r"(2u), "f"(a));
    out[n++] = d;
    asm volatile("slct.f32.f32 %0, %1, %2, %3;" : "=r"(d) : "f"(b), "f"(a), "f"(b));
    out[n++] = d;
    asm volatile("{ .reg .pred p; setp.eq.s32 p, %3, 0;\n\tset.leu.or.f32.f32 %0, %1, %2, p; }"
                 : "=r"(d) : "f"(a), "f"(b), "r"(s));
    out[n++] = d;
  }
}

#include "harness.h"
