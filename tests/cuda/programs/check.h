#pragma once

// CHECK(call): on an error, print the call and the error's name and make
// main return 1, so the output says which call failed. STATUS_CHECK does the
// same for a library's own status type: nameOf(status) names it, or is
// statusNumber to print its number.

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

inline const char* statusNumber(int status) {
  static thread_local char text[16];
  std::snprintf(text, sizeof text, "status %d", status);
  return text;
}

#define STATUS_CHECK(call, success, nameOf)                           \
  do {                                                              \
    auto s_ = (call);                                               \
    if (s_ != (success)) {                                          \
      std::printf("%s failed: %s\n", #call, nameOf(s_));            \
      return 1;                                                     \
    }                                                               \
  } while (0)
