// Kernel launches: the <<<...>>> configuration stack, the launch entry
// points nvcc's stubs call, and the cudaLaunchKernel family.

#include <cstdio>

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

// Every launch is a stream operation: run now, or recorded while the stream captures.
cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem,
                   cudaStream_t stream, bool cooperative = false, dim3 cluster = dim3(0, 0, 0)) {
  std::unique_lock lock(shimState().mutex());
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  ptxsim::cudart::KernelOperation kernel;
  cudaError_t e = ptxsim::cudart::makeKernelOperation(func, grid, block, sharedMem, args, kernel);
  if (e != cudaSuccess) return result(e);
  kernel.cooperative = cooperative;
  kernel.cluster = cluster;
  return result(ptxsim::cudart::issue(stream, std::move(kernel), lock));
}

}  // namespace

CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                             size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                                                  size_t sharedMem, cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem,
                ptxsim::cudart::perThread(stream));
}

CUDART_EXPORT cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                           size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, stream);
}

CUDART_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                                size_t sharedMem, cudaStream_t stream) {
  return launch(func, gridDim, blockDim, args, sharedMem, ptxsim::cudart::perThread(stream));
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
  return launch(func, gridDim, blockDim, args, sharedMem, ptxsim::cudart::perThread(stream), true);
}

namespace {

// What cudaLaunchKernelEx's attributes ask of a launch. Attributes that
// only tune scheduling, caching or overlap are accepted and have no
// functional effect: every launch runs to completion when issued.
struct LaunchRequest {
  bool cooperative = false;
  dim3 cluster{0, 0, 0};                  // cudaLaunchAttributeClusterDimension; zeros for none
  cudaEvent_t completionEvent = nullptr;  // programmatic or launch-completion event
};

// CUDA's validation of a cluster shape: every dimension at least 1 and a
// divisor of the grid's.
bool clusterFitsGrid(const cudaLaunchConfig_t& config, unsigned x, unsigned y, unsigned z) {
  return x > 0 && y > 0 && z > 0 && config.gridDim.x % x == 0 && config.gridDim.y % y == 0 &&
         config.gridDim.z % z == 0;
}

cudaError_t readLaunchAttributes(const cudaLaunchConfig_t& config, LaunchRequest& request) {
  if (config.numAttrs > 0 && config.attrs == nullptr) return cudaErrorInvalidValue;
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    const cudaLaunchAttribute& a = config.attrs[i];
    switch (a.id) {
      case cudaLaunchAttributeClusterDimension: {
        const auto& c = a.val.clusterDim;
        if (!clusterFitsGrid(config, c.x, c.y, c.z)) return cudaErrorInvalidClusterSize;
        // The launch checks the size against the kernel (sim/cluster_shape.h).
        request.cluster = dim3(c.x, c.y, c.z);
        break;
      }
      case cudaLaunchAttributePreferredClusterDimension:
        // Best effort on a GPU too: the regular clusters are used.
        if (!clusterFitsGrid(config, a.val.preferredClusterDim.x, a.val.preferredClusterDim.y,
                             a.val.preferredClusterDim.z)) {
          return cudaErrorInvalidClusterSize;
        }
        break;
      case cudaLaunchAttributeCooperative: request.cooperative = a.val.cooperative != 0; break;
      case cudaLaunchAttributeProgrammaticEvent: request.completionEvent = a.val.programmaticEvent.event; break;
      case cudaLaunchAttributeLaunchCompletionEvent:
        request.completionEvent = a.val.launchCompletionEvent.event;
        break;
      case cudaLaunchAttributeDeviceUpdatableKernelNode:
        ptxsim::cudart::reportError(
            "error: cudaLaunchKernelEx: cudaLaunchAttributeDeviceUpdatableKernelNode applies to "
            "graph kernel nodes only, not to a launch in a stream");
        return cudaErrorInvalidValue;
      case cudaLaunchAttributeIgnore:
      case cudaLaunchAttributeAccessPolicyWindow:
      case cudaLaunchAttributeSynchronizationPolicy:
      case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      case cudaLaunchAttributeProgrammaticStreamSerialization:
      case cudaLaunchAttributePriority:
      case cudaLaunchAttributeMemSyncDomainMap:
      case cudaLaunchAttributeMemSyncDomain:
      case cudaLaunchAttributePreferredSharedMemoryCarveout:
      case cudaLaunchAttributeNvlinkUtilCentricScheduling: break;
      default: return cudaErrorInvalidValue;  // an id CUDA 13 does not define
    }
  }
  return cudaSuccess;
}

cudaError_t launchWithConfig(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (config == nullptr) return result(cudaErrorInvalidValue);
  LaunchRequest request;
  cudaError_t error = readLaunchAttributes(*config, request);
  if (error != cudaSuccess) return result(error);
  error = launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
                 request.cooperative, request.cluster);
  // The launch has completed when issued, so its events fire now.
  if (error == cudaSuccess && request.completionEvent != nullptr) {
    error = cudaEventRecord(request.completionEvent, config->stream);
  }
  return error;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return launchWithConfig(config, func, args);
}

CUDART_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return launchWithConfig(config, func, args);
}
