// 64-bit integer div and rem at their edges: division by zero and INT64_MIN
// divided by -1, signed and unsigned. Inputs come from a device array so
// that no compiler can fold the divisions.
#include <cstdint>

__device__ unsigned int case_count = 144;

__device__ int64_t values64[6] = {0, 1, -1, 7, INT64_MIN, INT64_MAX};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile int64_t* v = values64;
  unsigned n = 0;
#pragma unroll 1
  for (int i = 0; i < 6; ++i) {
#pragma unroll 1
    for (int j = 0; j < 6; ++j) {
      int64_t a = v[i], b = v[j], r;
      asm volatile("div.s64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b));
      out[n++] = static_cast<uint64_t>(r);
      asm volatile("rem.s64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b));
      out[n++] = static_cast<uint64_t>(r);
      asm volatile("div.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b));
      out[n++] = static_cast<uint64_t>(r);
      asm volatile("rem.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b));
      out[n++] = static_cast<uint64_t>(r);
    }
  }
}

#include "harness.h"
