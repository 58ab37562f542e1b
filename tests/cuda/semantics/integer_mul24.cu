// mul24/mad24 (.lo/.hi, signed and unsigned, mad24.hi.sat.s32), sad, and
// abs/neg/min/max at the type limits. Inputs come from device arrays.
#include <cstdint>

__device__ unsigned int case_count = 248;

__device__ uint32_t m24[5] = {0x00ffffffu, 0x00800000u, 0xff800001u, 0x12345678u, 0xffffffffu};
__device__ int32_t lim[4] = {INT32_MIN, -5, 3, INT32_MAX};
__device__ int16_t lim16[3] = {INT16_MIN, -2, INT16_MAX};
__device__ int64_t lim64[3] = {INT64_MIN, -2, INT64_MAX};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile uint32_t* m = m24;
  const volatile int32_t* l = lim;
  const volatile int16_t* l16 = lim16;
  const volatile int64_t* l64 = lim64;
  unsigned n = 0;
  // 25 pairs x 7 = 175 cases.
#pragma unroll 1
  for (int i = 0; i < 5; ++i) {
#pragma unroll 1
    for (int j = 0; j < 5; ++j) {
      uint32_t a = m[i], b = m[j], c = m[(i + j) % 5], d;
      asm volatile("mul24.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = d;
      asm volatile("mul24.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = d;
      asm volatile("mul24.lo.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = d;
      asm volatile("mul24.hi.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = d;
      asm volatile("mad24.hi.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
      out[n++] = d;
      asm volatile("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0x7ffffff0));
      out[n++] = d;
      asm volatile("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
      out[n++] = d;
    }
  }
  // 16 pairs x 4 = 64 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
#pragma unroll 1
    for (int j = 0; j < 4; ++j) {
      int32_t a = l[i], b = l[j], d;
      asm volatile("sad.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(1));
      out[n++] = static_cast<uint32_t>(d);
      asm volatile("sad.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(1));
      out[n++] = static_cast<uint32_t>(d);
      asm volatile("min.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(d);
      asm volatile("max.relu.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(d);
    }
  }
  // abs/neg at the limits: 9 cases.
  int32_t a = l[0], d;
  asm volatile("abs.s32 %0, %1;" : "=r"(d) : "r"(a));
  out[n++] = static_cast<uint32_t>(d);
  asm volatile("neg.s32 %0, %1;" : "=r"(d) : "r"(a));
  out[n++] = static_cast<uint32_t>(d);
  asm volatile("min.relu.s32 %0, %1, %2;" : "=r"(d) : "r"(l[1]), "r"(l[2]));
  out[n++] = static_cast<uint32_t>(d);
  int16_t h = l16[0], hd;
  asm volatile("abs.s16 %0, %1;" : "=h"(hd) : "h"(h));
  out[n++] = static_cast<uint16_t>(hd);
  asm volatile("neg.s16 %0, %1;" : "=h"(hd) : "h"(h));
  out[n++] = static_cast<uint16_t>(hd);
  asm volatile("max.u16 %0, %1, %2;" : "=h"(hd) : "h"(l16[1]), "h"(l16[2]));
  out[n++] = static_cast<uint16_t>(hd);
  int64_t q = l64[0], qd;
  asm volatile("abs.s64 %0, %1;" : "=l"(qd) : "l"(q));
  out[n++] = static_cast<uint64_t>(qd);
  asm volatile("neg.s64 %0, %1;" : "=l"(qd) : "l"(q));
  out[n++] = static_cast<uint64_t>(qd);
  asm volatile("sad.u64 %0, %1, %2, %3;" : "=l"(qd) : "l"(l64[0]), "l"(l64[2]), "l"(l64[1]));
  out[n++] = static_cast<uint64_t>(qd);
}

#include "harness.h"
