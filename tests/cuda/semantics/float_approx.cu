// The .approx f32 instructions on special values, subnormals and inputs
// whose result is exact (powers of two), with and without .ftz.
#include <cstdint>

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 240;

#define F1(inst)                                                                                  \
  for (int i = 0; i < kOnes; ++i) {                                                               \
    float r;                                                                                      \
    asm volatile(inst " %0, %1;" : "=f"(r) : "f"(__uint_as_float(oa[i])));                        \
    put32(out, k++, __float_as_uint(r));                                                                \
  }

#define F1S(inst)                                                                                 \
  for (int i = 0; i < kSpecials; ++i) {                                                           \
    float r;                                                                                      \
    asm volatile(inst " %0, %1;" : "=f"(r) : "f"(__uint_as_float(sa[i])));                        \
    put32(out, k++, __float_as_uint(r));                                                          \
  }

constexpr int kOnes = 20;
__device__ uint32_t oa[kOnes] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                       0xffc00001, 0x3f800000, 0x40000000, 0x40800000, 0x3f000000,
                                       0x3e800000, 0xbf800000, 0x00000001, 0x80000001, 0x00400000,
                                       0x7f000000, 0x00800000, 0x41800000, 0xc0800000, 0x42800000};

// sin, cos and tanh only on values whose result the simulator's model of
// the multi-function unit reproduces (its general results differ in the
// last bits; unit tests check those against the ISA's error bounds).
constexpr int kSpecials = 10;
__device__ uint32_t sa[kSpecials] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                           0xffc00001, 0x00000001, 0x80000001, 0x00400000, 0x80400000};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F1("rcp.approx.f32") F1("rcp.approx.ftz.f32") F1("sqrt.approx.f32") F1("sqrt.approx.ftz.f32")
  F1("rsqrt.approx.f32") F1("rsqrt.approx.ftz.f32") F1("ex2.approx.f32") F1("ex2.approx.ftz.f32")
  F1("lg2.approx.f32") F1("lg2.approx.ftz.f32")
  F1S("sin.approx.f32") F1S("sin.approx.ftz.f32") F1S("cos.approx.ftz.f32") F1S("tanh.approx.f32")
}

#include "harness.h"
