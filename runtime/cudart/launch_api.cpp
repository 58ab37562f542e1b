// Kernel launches: the <<<...>>> configuration stack, the launch entry
// points nvcc's stubs call, and the cudaLaunchKernel family.

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

CUDART_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                   struct CUstream_st* stream) {
  std::lock_guard lock(shimState().mutex());
  shimState().configurations().push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

CUDART_EXPORT cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                                     void* stream) {
  std::lock_guard lock(shimState().mutex());
  auto& stack = shimState().configurations();
  if (stack.empty()) return cudaErrorMissingConfiguration;
  ptxsim::cudart::CallConfiguration c = stack.back();
  stack.pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.sharedBytes;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return cudaSuccess;
}

namespace {

cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem,
                   cudaStream_t stream, bool cooperative = false) {
  std::lock_guard lock(shimState().mutex());
  return result(shimState().launch(func, grid, block, args, sharedMem, stream, cooperative));
}

}  // namespace

CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                             size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                                  size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

CUDART_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                           size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream);
}

CUDART_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream);
}

// Every CTA of a cooperative launch is resident at once, so grid.sync()
// works; a grid larger than the device holds is refused with
// cudaErrorCooperativeLaunchTooLarge (sim::LaunchConfig::cooperative).
CUDART_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                      size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, true);
}

CUDART_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim,
                                                           void** args, size_t sharedMem,
                                                           cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream, true);
}

CUDART_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return result(cudaErrorInvalidValue);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    cudaLaunchAttributeID id = config->attrs[i].id;
    if (id == cudaLaunchAttributeClusterDimension) {
      const auto& c = config->attrs[i].val.clusterDim;
      if (c.x * c.y * c.z > 1) return result(cudaErrorNotSupported);  // clusters of one CTA only
      continue;
    }
    // Attributes that only tune scheduling or caching do not change results.
    if (id != cudaLaunchAttributeIgnore && id != cudaLaunchAttributeAccessPolicyWindow &&
        id != cudaLaunchAttributePriority && id != cudaLaunchAttributeCooperative &&
        id != cudaLaunchAttributeClusterDimension) {
      return result(cudaErrorNotSupported);
    }
  }
  return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream);
}
