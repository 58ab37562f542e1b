// f64 add/sub/mul/fma in every rounding mode on ties, overflow, underflow
// into subnormals and exact zero sums.
#include <cstdint>

__device__ unsigned int case_count = 157;

#define D2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    double r;                                                                                     \
    asm volatile(inst " %0, %1, %2;" : "=d"(r) : "d"(__longlong_as_double(pa[i])), "d"(__longlong_as_double(pb[i]))); \
    out[k++] = __double_as_longlong(r);                                                           \
  }
#define D3(inst)                                                                                  \
  for (int i = 0; i < kTriples; ++i) {                                                            \
    double r;                                                                                     \
    asm volatile(inst " %0, %1, %2, %3;"                                                          \
                 : "=d"(r)                                                                        \
                 : "d"(__longlong_as_double(ta[i])), "d"(__longlong_as_double(tb[i])), "d"(__longlong_as_double(tc[i]))); \
    out[k++] = __double_as_longlong(r);                                                           \
  }

constexpr int kPairs = 12;
__device__ long long pa[kPairs] = {
    0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000, 0x7fefffffffffffff, 0x3ff0000000000000,
    0x0000000000000001, 0x3fd5555555555555, 0x2000000000000000, 0x3fefffffffffffff, (long long)0xbff0000000000001,
    0x1ff8000000000000, 0x4340000000000001};
__device__ long long pb[kPairs] = {
    0x3ca0000000000000, 0x3ca0000000000001, (long long)0xbca0000000000000, 0x7fefffffffffffff, (long long)0xbff0000000000000,
    0x0000000000000001, 0x4008000000000000, 0x1ff0000000000000, 0x0010000000000000, 0x3ff0000000000001,
    0x1ff8000000000000, (long long)0xbff8000000000000};
constexpr int kTriples = 5;
__device__ long long ta[kTriples] = {0x3ff0000000000001, 0x3fd5555555555555, 0x7fefffffffffffff, 0x1ff8000000000000,
                                           (long long)0xbff0000000000001};
__device__ long long tb[kTriples] = {0x3ff0000000000001, 0x4008000000000000, 0x4000000000000000, 0x1ff8000000000000,
                                           0x3ff0000000000001};
__device__ long long tc[kTriples] = {(long long)0xbff0000000000002, (long long)0xbff0000000000000,
                                           (long long)0xffefffffffffffff, 0x0000000000000001, 0x3ff0000000000002};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  D2("add.rn.f64") D2("add.rz.f64") D2("add.rm.f64") D2("add.rp.f64") D2("sub.rz.f64")
  D2("mul.rn.f64") D2("mul.rz.f64") D2("mul.rm.f64") D2("mul.rp.f64")
  D3("fma.rn.f64") D3("fma.rz.f64") D3("fma.rm.f64") D3("fma.rp.f64") D3("mad.rm.f64")
  D2("add.f64") D2("mul.f64")
}

#include "harness.h"
