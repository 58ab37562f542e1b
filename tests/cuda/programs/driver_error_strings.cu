// cuGetErrorName and cuGetErrorString for every CUresult value from 0 to
// 1000: the names and texts the driver gives, and the values it does not
// know (reported with CUDA_ERROR_INVALID_VALUE). Needs no device.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdio>

int main() {
  int unknown = 0;
  for (int code = 0; code <= 1000; ++code) {
    const char* name = nullptr;
    const char* text = nullptr;
    CUresult nameResult = cuGetErrorName(static_cast<CUresult>(code), &name);
    CUresult textResult = cuGetErrorString(static_cast<CUresult>(code), &text);
    if (nameResult != CUDA_SUCCESS || textResult != CUDA_SUCCESS) {
      ++unknown;
      continue;
    }
    std::printf("%d %s: %s\n", code, name, text);
  }
  std::printf("unknown values: %d\n", unknown);
  return 0;
}
