// f32/f64 div, rcp and sqrt in every rounding mode (with .ftz), and the
// special values of div.approx, div.full and rcp.approx.ftz.f64.
#include <cstdint>

// A 32-bit result into its zeroed 64-bit slot (low half: little-endian),
// stored as 32 bits so the program needs no cvt.
__device__ void put32(unsigned long long* out, int k, uint32_t v) { reinterpret_cast<uint32_t*>(out)[2 * k] = v; }

__device__ unsigned int case_count = 256;

#define F2(inst)                                                                                  \
  for (int i = 0; i < kPairs; ++i) {                                                              \
    float r;                                                                                      \
    asm volatile(inst " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(pa[i])), "f"(__uint_as_float(pb[i]))); \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define F1(inst)                                                                                  \
  for (int i = 0; i < kOnes; ++i) {                                                               \
    float r;                                                                                      \
    asm volatile(inst " %0, %1;" : "=f"(r) : "f"(__uint_as_float(oa[i])));                        \
    put32(out, k++, __float_as_uint(r));                                                                \
  }
#define D2(inst)                                                                                  \
  for (int i = 0; i < kDPairs; ++i) {                                                             \
    double r;                                                                                     \
    asm volatile(inst " %0, %1, %2;" : "=d"(r) : "d"(__longlong_as_double(da[i])), "d"(__longlong_as_double(db[i]))); \
    out[k++] = __double_as_longlong(r);                                                           \
  }
#define D1(inst)                                                                                  \
  for (int i = 0; i < kDOnes; ++i) {                                                              \
    double r;                                                                                     \
    asm volatile(inst " %0, %1;" : "=d"(r) : "d"(__longlong_as_double(d1[i])));                   \
    out[k++] = __double_as_longlong(r);                                                           \
  }

constexpr int kPairs = 12;
__device__ uint32_t pa[kPairs] = {0x3f800000, 0x40000000, 0xbf800000, 0x00000000, 0x7f800000, 0x3f800000,
                                        0x00800000, 0x7f7fffff, 0x00000001, 0x40400000, 0xc0e00000, 0x80000000};
__device__ uint32_t pb[kPairs] = {0x40400000, 0x40400000, 0x40400000, 0x00000000, 0x7f800000, 0x00000000,
                                        0x40000000, 0x3f000000, 0x40000000, 0x40400000, 0x3f800000, 0x3f800000};
constexpr int kOnes = 10;
__device__ uint32_t oa[kOnes] = {0x40400000, 0x40000000, 0xc0400000, 0x00000000, 0x80000000,
                                       0x7f800000, 0x00000001, 0x7f000000, 0x40800000, 0xbf800000};
constexpr int kDPairs = 8;
__device__ long long da[kDPairs] = {0x3ff0000000000000, 0x4000000000000000, (long long)0xbff0000000000000, 0,
                                          0x0010000000000000, 0x7fefffffffffffff, 0x0000000000000001, 0x4008000000000000};
__device__ long long db[kDPairs] = {0x4008000000000000, 0x4008000000000000, 0x4008000000000000, 0,
                                          0x4000000000000000, 0x3fe0000000000000, 0x4000000000000000, 0x4008000000000000};
constexpr int kDOnes = 8;
__device__ long long d1[kDOnes] = {0x4008000000000000, 0x4000000000000000, (long long)0xc008000000000000, 0,
                                         (long long)0x8000000000000000, 0x7ff0000000000000, 0x0000000000000001,
                                         0x4010000000000000};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int k = 0;
  F2("div.rn.f32") F2("div.rz.f32") F2("div.rm.f32") F2("div.rp.f32") F2("div.rn.ftz.f32")
  F1("rcp.rn.f32") F1("rcp.rz.f32") F1("rcp.rm.f32") F1("rcp.rp.f32") F1("rcp.rn.ftz.f32")
  F1("sqrt.rn.f32") F1("sqrt.rz.f32") F1("sqrt.rm.f32") F1("sqrt.rp.f32") F1("sqrt.rn.ftz.f32")
  D2("div.rn.f64") D2("div.rz.f64") D2("div.rm.f64") D2("div.rp.f64")
  D1("rcp.rn.f64") D1("rcp.rz.f64") D1("rcp.rm.f64") D1("rcp.rp.f64")
  D1("sqrt.rn.f64") D1("sqrt.rz.f64") D1("sqrt.rm.f64") D1("sqrt.rp.f64")
}

#include "harness.h"
