// Integer div and rem at their edges: division by zero and the most
// negative value divided by -1, for 16- and 32-bit signed and unsigned
// types. The PTX ISA leaves these results machine-specific; this program
// records what the GPU does. Inputs come from a device array so that no
// compiler can fold the divisions.
#include <cstdint>

__device__ unsigned int case_count = 288;

__device__ int32_t values32[6] = {0, 1, -1, 7, INT32_MIN, INT32_MAX};
__device__ int16_t values16[6] = {0, 1, -1, 7, INT16_MIN, INT16_MAX};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile int32_t* v32 = values32;
  const volatile int16_t* v16 = values16;
  unsigned n = 0;
#pragma unroll 1
  for (int i = 0; i < 6; ++i) {
#pragma unroll 1
    for (int j = 0; j < 6; ++j) {
      int32_t a = v32[i], b = v32[j], r;
      asm volatile("div.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
      asm volatile("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
      asm volatile("div.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
      asm volatile("rem.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      out[n++] = static_cast<uint32_t>(r);
      int16_t c = v16[i], d = v16[j], s;
      asm volatile("div.s16 %0, %1, %2;" : "=h"(s) : "h"(c), "h"(d));
      out[n++] = static_cast<uint16_t>(s);
      asm volatile("rem.s16 %0, %1, %2;" : "=h"(s) : "h"(c), "h"(d));
      out[n++] = static_cast<uint16_t>(s);
      asm volatile("div.u16 %0, %1, %2;" : "=h"(s) : "h"(c), "h"(d));
      out[n++] = static_cast<uint16_t>(s);
      asm volatile("rem.u16 %0, %1, %2;" : "=h"(s) : "h"(c), "h"(d));
      out[n++] = static_cast<uint16_t>(s);
    }
  }
}

#include "harness.h"
