#pragma once

// For the driver-API programs: printResult prints what a call did beside
// its CUresult's name, in a column `width` wide; CU_CHECK(call), on an
// error, prints the call that way (through the program's show(what,
// result)) and makes main return 1.

#include <cuda.h>

#include <cstdio>

inline void printResult(const char* what, CUresult r, int width) {
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "(unknown)";
  std::printf("%-*s %s\n", width, what, name);
}

#define CU_CHECK(call)        \
  do {                        \
    CUresult r_ = (call);     \
    if (r_ != CUDA_SUCCESS) { \
      show(#call, r_);        \
      return 1;               \
    }                         \
  } while (0)

inline CUresult usePrimaryContext(CUdevice& device, CUcontext& context) {
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&device, 0);
  if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&context, device);
  if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(context);
  return r;
}
