// Kernel attributes, names, parameter layouts and occupancy. A function
// may be a host stub or a cudaKernel_t (cudaGetKernel, cudaLibraryGetKernel):
// both are keys of the shim's kernel table.

#include <algorithm>

#include "export.h"
#include "ptxsim/sim/occupancy.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

// The kernel's PTX entry (loading its module on first use).
cudaError_t entryOf(const void* func, const ptxsim::isa::Function*& entry) {
  ptxsim::cudart::ShimState& s = shimState();
  const ptxsim::cudart::KernelRecord* k = s.kernel(func);
  if (k == nullptr) return cudaErrorInvalidDeviceFunction;
  cudaError_t error = cudaSuccess;
  ptxsim::sim::LoadedModule* module = s.moduleOf(*k->fatbin, error);
  if (module == nullptr) return error;
  entry = module->module().findFunction(k->name);
  return entry != nullptr && entry->isKernel ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t resourcesOf(const void* func, ptxsim::sim::Gpu::KernelResources& out) {
  ptxsim::cudart::ShimState& s = shimState();
  const ptxsim::cudart::KernelRecord* k = s.kernel(func);
  if (k == nullptr) return cudaErrorInvalidDeviceFunction;
  cudaError_t error = cudaSuccess;
  ptxsim::sim::LoadedModule* module = s.moduleOf(*k->fatbin, error);
  if (module == nullptr) return error;
  std::string why;
  if (!s.device().gpu().kernelResources(*module, k->name, out, why)) return cudaErrorInvalidDeviceFunction;
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  std::lock_guard lock(shimState().mutex());
  if (attr == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::sim::Gpu::KernelResources r;
  cudaError_t e = resourcesOf(func, r);
  if (e != cudaSuccess) return result(e);
  const ptxsim::sim::GpuConfig& c = shimState().device().config();
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = r.staticSharedBytes;
  attr->localSizeBytes = r.localBytesPerThread;
  attr->maxThreadsPerBlock = static_cast<int>(r.maxThreadsPerBlock);
  attr->numRegs = static_cast<int>(r.registersPerThread);
  attr->ptxVersion = static_cast<int>(c.smVersion);
  attr->binaryVersion = static_cast<int>(c.smVersion);
  auto it = shimState().maxDynamicShared.find(func);
  attr->maxDynamicSharedSizeBytes =
      it != shimState().maxDynamicShared.end() ? it->second
                                               : static_cast<int>(c.sharedBytesPerBlock - r.staticSharedBytes);
  attr->preferredShmemCarveout = -1;
  return cudaSuccess;
}

namespace {

cudaError_t setAttribute(const void* func, cudaFuncAttribute attr, int value) {
  ptxsim::sim::Gpu::KernelResources r;
  cudaError_t e = resourcesOf(func, r);
  if (e != cudaSuccess) return result(e);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    const ptxsim::sim::GpuConfig& c = shimState().device().config();
    if (value < 0 || static_cast<uint64_t>(value) + r.staticSharedBytes > c.sharedBytesPerBlockOptin) {
      return result(cudaErrorInvalidValue);
    }
    shimState().maxDynamicShared[func] = value;
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;  // a hint
  return result(cudaErrorInvalidValue);
}

}  // namespace

CUDART_EXPORT cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  std::lock_guard lock(shimState().mutex());
  return setAttribute(func, attr, value);
}

// The simulated system has one device, so the attribute applies to it.
CUDART_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, cudaFuncAttribute attr, int value,
                                                          int device) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  return setAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}

CUDART_EXPORT cudaError_t cudaGetKernel(cudaKernel_t* kernelPtr, const void* entryFuncAddr) {
  std::lock_guard lock(shimState().mutex());
  if (kernelPtr == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().kernel(entryFuncAddr) == nullptr) return result(cudaErrorInvalidDeviceFunction);
  // A host stub's kernel handle is the stub itself (as __cudaGetKernel's).
  *kernelPtr = reinterpret_cast<cudaKernel_t>(const_cast<void*>(entryFuncAddr));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFuncGetName(const char** name, const void* func) {
  std::lock_guard lock(shimState().mutex());
  if (name == nullptr) return result(cudaErrorInvalidValue);
  const ptxsim::cudart::KernelRecord* k = shimState().kernel(func);
  if (k == nullptr) return result(cudaErrorInvalidDeviceFunction);
  *name = k->name.c_str();  // the record lives as long as the kernel does
  return cudaSuccess;
}

// Offsets and sizes as the PTX entry lays out its .param space (the ABI's
// alignment rules, applied when the module was lowered).
CUDART_EXPORT cudaError_t cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                               size_t* paramSize) {
  std::lock_guard lock(shimState().mutex());
  const ptxsim::isa::Function* entry = nullptr;
  cudaError_t e = entryOf(func, entry);
  if (e != cudaSuccess) return result(e);
  if (paramIndex >= entry->params.size()) return result(cudaErrorInvalidValue);
  if (paramOffset != nullptr) *paramOffset = static_cast<size_t>(entry->params[paramIndex].offset);
  if (paramSize != nullptr) *paramSize = static_cast<size_t>(entry->params[paramIndex].size);
  return cudaSuccess;
}

// Preferences without functional effect, validated as CUDA does.
CUDART_EXPORT cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().kernel(func) == nullptr) return result(cudaErrorInvalidDeviceFunction);
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().kernel(func) == nullptr) return result(cudaErrorInvalidDeviceFunction);
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize,
                                                                                 unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  (void)flags;
  if (numBlocks == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::sim::Gpu::KernelResources r;
  cudaError_t e = resourcesOf(func, r);
  if (e != cudaSuccess) return result(e);
  *numBlocks =
      ptxsim::sim::maxActiveBlocksPerSm(shimState().device().config(), r, blockSize, dynamicSMemSize);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                                        int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

// The most dynamic shared memory a block may use so that numBlocks blocks of
// blockSize threads are still resident together on one SM.
CUDART_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                                    int numBlocks, int blockSize) {
  std::lock_guard lock(shimState().mutex());
  if (dynamicSmemSize == nullptr || numBlocks <= 0 || blockSize <= 0) return result(cudaErrorInvalidValue);
  ptxsim::sim::Gpu::KernelResources r;
  cudaError_t e = resourcesOf(func, r);
  if (e != cudaSuccess) return result(e);
  const ptxsim::sim::GpuConfig& c = shimState().device().config();
  *dynamicSmemSize = 0;
  if (ptxsim::sim::maxActiveBlocksPerSm(c, r, blockSize, 0) < numBlocks)
    return cudaSuccess;  // threads or registers forbid it already
  uint64_t perBlock = c.sharedBytesPerSm / static_cast<uint64_t>(numBlocks);
  uint64_t used = r.staticSharedBytes + 1024;
  uint64_t available = perBlock > used ? perBlock - used : 0;
  // No more than the kernel may use now: 48 KiB unless it opted in to more.
  auto optedIn = shimState().maxDynamicShared.find(func);
  uint64_t blockLimit = optedIn != shimState().maxDynamicShared.end()
                            ? static_cast<uint64_t>(optedIn->second)
                            : c.sharedBytesPerBlock - std::min(c.sharedBytesPerBlock, r.staticSharedBytes);
  *dynamicSmemSize = static_cast<size_t>(std::min(available, blockLimit));
  return cudaSuccess;
}
