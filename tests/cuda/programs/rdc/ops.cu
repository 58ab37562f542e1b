// Part of the rdc program (see main.cu): extern __device__ functions, a
// static helper() and square<int> of the same names as main.cu's, and a
// printf string of its own.

#include <cstdio>

extern __constant__ int coeffs[4];  // tables.cu

template <typename T>
__device__ __noinline__ T square(T v) {
  return v * v;
}

static __device__ __noinline__ int helper(int x) { return 3 * x; }  // main.cu's helper adds

__device__ int mix(int x) { return helper(x) * 10 + square(x + 1) + coeffs[(x + 1) & 3]; }

__device__ void ops_hello(void) { printf("ops.cu: square(12) = %d, helper(5) = %d\n", square(12), helper(5)); }
