// The arguments of a launch or a kernel node, from either form the driver
// API takes them in.

#include "launch_arguments.h"

namespace ptxsim::driver {

CUresult argumentPointers(CUfunction f, void** kernelParams, void** extra, std::vector<void*>& pointers,
                          void**& args) {
  if (kernelParams != nullptr && extra != nullptr) return CUDA_ERROR_INVALID_VALUE;
  args = kernelParams;
  if (extra == nullptr) return CUDA_SUCCESS;
  char* buffer = nullptr;
  size_t bufferBytes = 0;
  bool sized = false;
  for (void** e = extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
    if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = static_cast<char*>(e[1]);
    } else if (*e == CU_LAUNCH_PARAM_BUFFER_SIZE) {
      bufferBytes = *static_cast<size_t*>(e[1]);
      sized = true;
    } else {
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  if (buffer == nullptr || !sized) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(reinterpret_cast<const void*>(f), i, &offset, &size) != cudaSuccess) break;
    if (offset + size > bufferBytes) return CUDA_ERROR_INVALID_VALUE;
    pointers.push_back(buffer + offset);
  }
  args = pointers.data();
  return CUDA_SUCCESS;
}

}  // namespace ptxsim::driver
