// What the hardware probes here share: CK(call) prints a failing CUDA call with its line and makes
// the function return 1; fb() gives a float's bits.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#define CK(x)                                                                 \
  do {                                                                        \
    cudaError_t err_ = (x);                                                   \
    if (err_ != cudaSuccess) {                                                \
      printf("ERR %s line %d: %s\n", #x, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

static unsigned fb(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
