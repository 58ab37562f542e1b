#pragma once

// CHECK(call): on an error, print the call and the error's name and make
// main return 1, so the output says which call failed.

#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(call)                                                \
  do {                                                             \
    cudaError_t e_ = (call);                                       \
    if (e_ != cudaSuccess) {                                       \
      std::printf("%s failed: %s\n", #call, cudaGetErrorName(e_)); \
      return 1;                                                    \
    }                                                              \
  } while (0)
