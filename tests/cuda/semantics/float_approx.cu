// The .approx f32 instructions on special values, subnormals and inputs
// whose result is exact (powers of two), with and without .ftz.
#include <cstdint>

__device__ unsigned int case_count = 280;

#define F1(inst)                                                                                  \
  for (int i = 0; i < kOnes; ++i) {                                                               \
    float r;                                                                                      \
    asm volatile(inst " %0, %1;" : "=f"(r) : "f"(__uint_as_float(oa[i])));                        \
    out[k++] = __float_as_uint(r);                                                                \
  }

constexpr int kOnes = 20;
__device__ const uint32_t oa[kOnes] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                       0xffc00001, 0x3f800000, 0x40000000, 0x40800000, 0x3f000000,
                                       0x3e800000, 0xbf800000, 0x00000001, 0x80000001, 0x00400000,
                                       0x7f000000, 0x00800000, 0x41800000, 0xc0800000, 0x42800000};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F1("rcp.approx.f32") F1("rcp.approx.ftz.f32") F1("sqrt.approx.f32") F1("sqrt.approx.ftz.f32")
  F1("rsqrt.approx.f32") F1("rsqrt.approx.ftz.f32") F1("ex2.approx.f32") F1("ex2.approx.ftz.f32")
  F1("lg2.approx.f32") F1("lg2.approx.ftz.f32") F1("sin.approx.f32") F1("sin.approx.ftz.f32")
  F1("cos.approx.ftz.f32") F1("tanh.approx.f32")
}

#include "harness.h"
