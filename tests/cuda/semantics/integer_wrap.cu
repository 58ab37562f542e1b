// Integer add/sub/mul/mad wrap-around and .hi/.wide products at the type
// limits, through inline PTX.
#include <cstdint>

__device__ unsigned int case_count = 12;

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  int32_t imax = 0x7fffffff, imin = INT32_MIN;
  uint32_t umax = 0xffffffffu;
  int32_t r32;
  uint32_t u32;
  int64_t r64;
  asm("add.s32 %0, %1, %2;" : "=r"(r32) : "r"(imax), "r"(1));
  out[0] = static_cast<uint32_t>(r32);
  asm("sub.s32 %0, %1, %2;" : "=r"(r32) : "r"(imin), "r"(1));
  out[1] = static_cast<uint32_t>(r32);
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(u32) : "r"(umax), "r"(umax));
  out[2] = u32;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(u32) : "r"(umax), "r"(umax));
  out[3] = u32;
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r32) : "r"(imin), "r"(imax));
  out[4] = static_cast<uint32_t>(r32);
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(r64) : "r"(imin), "r"(imin));
  out[5] = static_cast<uint64_t>(r64);
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(r64) : "r"(umax), "r"(umax));
  out[6] = static_cast<uint64_t>(r64);
  asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r32) : "r"(imax), "r"(2), "r"(3));
  out[7] = static_cast<uint32_t>(r32);
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(u32) : "r"(umax), "r"(umax), "r"(umax));
  out[8] = u32;
  asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(r64) : "r"(imin), "r"(-1), "l"(int64_t{-1}));
  out[9] = static_cast<uint64_t>(r64);
  uint64_t a = 0xffffffffffffffffull, b = 3;
  uint64_t h;
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(h) : "l"(a), "l"(b));
  out[10] = h;
  int64_t sh;
  asm("mul.hi.s64 %0, %1, %2;" : "=l"(sh) : "l"(INT64_MIN), "l"(int64_t{3}));
  out[11] = static_cast<uint64_t>(sh);
}

#include "harness.h"
