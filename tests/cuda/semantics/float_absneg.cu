// abs and neg of f32 (with and without .ftz) and f64 on the values where a
// sign-bit operation and an arithmetic one part: NaNs of either sign, quiet
// and signalling, with payloads; infinities; zeros; denormals; normals.
// Also the f16/bf16 forms and copysign-style uses nvcc makes of them.
#include <cstdint>

__device__ unsigned int case_count = 192;

__device__ uint32_t kF32[16] = {0x7fc00000, 0xffc00000, 0x7fc00001, 0xffc00002, 0x7f800001, 0xff800003,
                                      0x7fffffff, 0xffffffff, 0x7f800000, 0xff800000, 0x00000000, 0x80000000,
                                      0x00000001, 0x807fffff, 0x3f800000, 0xc0490fdb};
__device__ uint64_t kF64[16] = {0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001,
                                      0xfff8000000000002, 0x7ff0000000000001, 0xfff0000000000003,
                                      0x7fffffffffffffff, 0xffffffffffffffff, 0x7ff0000000000000,
                                      0xfff0000000000000, 0x0000000000000000, 0x8000000000000000,
                                      0x0000000000000001, 0x800fffffffffffff, 0x3ff0000000000000,
                                      0xc00921fb54442d18};
__device__ uint16_t kF16[16] = {0x7e00, 0xfe00, 0x7e01, 0xfe02, 0x7c01, 0xfc03, 0x7fff, 0xffff,
                                      0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xc248};

#define F1(inst)                                              \
  {                                                           \
    uint32_t r;                                               \
    asm volatile(inst " %0, %1;" : "=f"(*(float*)&r) : "f"(__uint_as_float(f))); \
    out[k++] = r;                                             \
  }
#define D1(inst)                                                         \
  {                                                                      \
    double r;                                                            \
    asm volatile(inst " %0, %1;" : "=d"(r) : "d"(__longlong_as_double(d))); \
    out[k++] = __double_as_longlong(r);                                  \
  }
#define H1(inst)                                            \
  {                                                         \
    uint16_t r;                                             \
    asm volatile(inst " %0, %1;" : "=h"(r) : "h"(h));       \
    out[k++] = r;                                           \
  }

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  for (int i = 0; i < 16; ++i) {
    uint32_t f = kF32[i];
    uint64_t d = kF64[i];
    uint16_t h = kF16[i];
    F1("abs.f32") F1("abs.ftz.f32") F1("neg.f32") F1("neg.ftz.f32")
    D1("abs.f64") D1("neg.f64")
    H1("abs.f16") H1("neg.f16") H1("abs.ftz.f16") H1("neg.ftz.f16") H1("abs.bf16") H1("neg.bf16")
  }
}

#include "harness.h"
