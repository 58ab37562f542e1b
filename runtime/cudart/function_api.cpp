// Kernel attributes, names, parameter layouts and occupancy. A function
// may be a host stub or a cudaKernel_t (cudaGetKernel, cudaLibraryGetKernel):
// both are keys of the shim's kernel table.

#include <algorithm>
#include <cstdio>

#include "export.h"
#include "ptxsim/sim/cluster_shape.h"
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

// `ptxTarget`, when asked for: the architecture the kernel's PTX was
// written for (.target sm_75 -> 75), cudaFuncAttributes::ptxVersion.
cudaError_t resourcesOf(const void* func, ptxsim::sim::Gpu::KernelResources& out,
                        uint32_t* ptxTarget = nullptr) {
  ptxsim::cudart::ShimState& s = shimState();
  const ptxsim::cudart::KernelRecord* k = s.kernel(func);
  if (k == nullptr) return cudaErrorInvalidDeviceFunction;
  cudaError_t error = cudaSuccess;
  ptxsim::sim::LoadedModule* module = s.moduleOf(*k->fatbin, error);
  if (module == nullptr) return error;
  if (ptxTarget != nullptr) *ptxTarget = module->module().target.sm;
  ptxsim::sim::LaunchError failure = s.device().gpu().kernelResources(*module, k->name, out);
  if (!failure) return cudaSuccess;
  // Lazy loading: querying a kernel loads it, and a kernel that cannot be
  // loaded fails here as its launch would.
  if (failure.kind != ptxsim::sim::LaunchErrorKind::InvalidPtx) return cudaErrorInvalidDeviceFunction;
  std::fprintf(stderr, "ptxsim: error: %s\n", failure.message.c_str());
  return ptxsim::cudart::toCudaError(failure.kind);
}

}  // namespace

CUDART_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  std::lock_guard lock(shimState().mutex());
  if (attr == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::sim::Gpu::KernelResources r;
  uint32_t ptxTarget = 0;
  cudaError_t e = resourcesOf(func, r, &ptxTarget);
  if (e != cudaSuccess) return result(e);
  const ptxsim::sim::GpuConfig& c = shimState().device().config();
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = r.staticSharedBytes;
  attr->localSizeBytes = r.localBytesPerThread;
  attr->maxThreadsPerBlock = static_cast<int>(r.maxThreadsPerBlock);
  attr->numRegs = static_cast<int>(r.registersPerThread);
  // The PTX's own architecture, and the GPU's, for which the driver would
  // have compiled it.
  attr->ptxVersion = static_cast<int>(ptxTarget);
  attr->binaryVersion = static_cast<int>(c.smVersion);
  auto it = shimState().maxDynamicShared.find(func);
  attr->maxDynamicSharedSizeBytes = it != shimState().maxDynamicShared.end()
                                        ? it->second
                                        : static_cast<int>(c.sharedBytesPerBlock - r.staticSharedBytes);
  attr->preferredShmemCarveout = -1;
  // Thread block clusters: the kernel's __cluster_dims__ (.reqnctapercluster).
  const ptxsim::isa::Function* entry = nullptr;
  if (entryOf(func, entry) == cudaSuccess) {
    const auto& d = entry->directives;
    attr->requiredClusterWidth = static_cast<int>(d.reqnctapercluster[0]);
    attr->requiredClusterHeight = d.reqnctapercluster[0] != 0 ? static_cast<int>(d.reqnctapercluster[1]) : 0;
    attr->requiredClusterDepth = d.reqnctapercluster[0] != 0 ? static_cast<int>(d.reqnctapercluster[2]) : 0;
    attr->clusterDimMustBeSet = d.explicitCluster && d.reqnctapercluster[0] == 0 ? 1 : 0;
  }
  auto nonPortable = shimState().nonPortableClusterSize.find(func);
  attr->nonPortableClusterSizeAllowed =
      nonPortable != shimState().nonPortableClusterSize.end() ? nonPortable->second : 0;
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
  if (attr == cudaFuncAttributeNonPortableClusterSizeAllowed) {
    if (value != 0 && value != 1) return result(cudaErrorInvalidValue);
    shimState().nonPortableClusterSize[func] = value;
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributeClusterSchedulingPolicyPreference) {
    // A hint to the GPU's cluster scheduler; checked, without effect here.
    if (value < cudaClusterSchedulingPolicyDefault || value > cudaClusterSchedulingPolicyLoadBalancing)
      return result(cudaErrorInvalidValue);
    return cudaSuccess;
  }
  return result(cudaErrorInvalidValue);
}

}  // namespace

CUDART_EXPORT cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  std::lock_guard lock(shimState().mutex());
  return setAttribute(func, attr, value);
}

// The simulated system has one device, so the attribute applies to it.
CUDART_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, cudaFuncAttribute attr,
                                                          int value, int device) {
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

CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
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
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                0);
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

namespace {

// The cluster shape of a launch configuration (cudaLaunchAttributeClusterDimension, or the
// kernel's __cluster_dims__), checked as a launch checks it.
cudaError_t clusterShapeOf(const void* func, const cudaLaunchConfig_t& config,
                           ptxsim::sim::ClusterShape& shape) {
  if (config.numAttrs > 0 && config.attrs == nullptr) return cudaErrorInvalidValue;
  ptxsim::sim::Dim3 requested{0, 0, 0};
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    if (config.attrs[i].id != cudaLaunchAttributeClusterDimension) continue;
    const auto& c = config.attrs[i].val.clusterDim;
    requested = {c.x, c.y, c.z};
  }
  const ptxsim::isa::Function* entry = nullptr;
  if (cudaError_t e = entryOf(func, entry); e != cudaSuccess) return e;
  auto nonPortable = shimState().nonPortableClusterSize.find(func);
  bool allowed = nonPortable != shimState().nonPortableClusterSize.end() && nonPortable->second != 0;
  // The grid does not matter here: any one of whole clusters.
  ptxsim::sim::Dim3 grid{std::max(1u, requested.x), std::max(1u, requested.y), std::max(1u, requested.z)};
  if (requested.x == 0 && entry->directives.reqnctapercluster[0] != 0) {
    const auto& r = entry->directives.reqnctapercluster;
    grid = {r[0], std::max(1u, r[1]), std::max(1u, r[2])};
  }
  std::string why = ptxsim::sim::resolveClusterShape(*entry, grid, requested, allowed, shape);
  return why.empty() ? cudaSuccess : cudaErrorInvalidClusterSize;
}

int blocksPerSm(const void* func, const cudaLaunchConfig_t& config, cudaError_t& error) {
  ptxsim::sim::Gpu::KernelResources r;
  error = resourcesOf(func, r);
  if (error != cudaSuccess) return 0;
  int blockSize = static_cast<int>(config.blockDim.x * config.blockDim.y * config.blockDim.z);
  return ptxsim::sim::maxActiveBlocksPerSm(shimState().device().config(), r, blockSize,
                                           config.dynamicSmemBytes);
}

}  // namespace

// A cluster's CTAs run in one GPC, so each GPC holds as many clusters as
// its SMs' block slots fit whole (sim/cluster_shape.h).
CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                                         const cudaLaunchConfig_t* launchConfig) {
  std::lock_guard lock(shimState().mutex());
  if (numClusters == nullptr || launchConfig == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::sim::ClusterShape shape;
  if (cudaError_t e = clusterShapeOf(func, *launchConfig, shape); e != cudaSuccess) return result(e);
  cudaError_t error = cudaSuccess;
  int perSm = blocksPerSm(func, *launchConfig, error);
  if (error != cudaSuccess) return result(error);
  *numClusters = static_cast<int>(ptxsim::sim::maxActiveClusters(
      shimState().device().config(), static_cast<uint32_t>(perSm), static_cast<uint32_t>(shape.size())));
  return cudaSuccess;
}

// The largest cluster that fits in a GPC: 8 CTAs, or 16 where the kernel
// allows non-portable sizes; the kernel's own __cluster_dims__ when it has
// them; 0 when not even one block fits on an SM.
CUDART_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                               const cudaLaunchConfig_t* launchConfig) {
  std::lock_guard lock(shimState().mutex());
  if (clusterSize == nullptr || launchConfig == nullptr) return result(cudaErrorInvalidValue);
  const ptxsim::isa::Function* entry = nullptr;
  if (cudaError_t e = entryOf(func, entry); e != cudaSuccess) return result(e);
  cudaError_t error = cudaSuccess;
  int perSm = blocksPerSm(func, *launchConfig, error);
  if (error != cudaSuccess) return result(error);
  const ptxsim::sim::GpuConfig& c = shimState().device().config();
  const auto& fixed = entry->directives.reqnctapercluster;
  auto nonPortable = shimState().nonPortableClusterSize.find(func);
  bool allowed = nonPortable != shimState().nonPortableClusterSize.end() && nonPortable->second != 0;
  uint32_t largest = allowed ? ptxsim::sim::kMaxClusterSize : ptxsim::sim::kMaxPortableClusterSize;
  if (fixed[0] != 0) largest = fixed[0] * std::max(1u, fixed[1]) * std::max(1u, fixed[2]);
  *clusterSize = 0;
  for (uint32_t size = largest; size > 0; --size) {
    if (ptxsim::sim::maxActiveClusters(c, static_cast<uint32_t>(perSm), size) > 0) {
      *clusterSize = static_cast<int>(size);
      break;
    }
    if (fixed[0] != 0) break;  // the kernel runs with that shape or not at all
  }
  return cudaSuccess;
}

// A device entry function's handle is its host stub, as cudaGetKernel's is,
// so it goes wherever a kernel function does.
CUDART_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t* functionPtr, const void* symbolPtr) {
  std::lock_guard lock(shimState().mutex());
  if (functionPtr == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().kernel(symbolPtr) == nullptr) return result(cudaErrorInvalidDeviceFunction);
  *functionPtr = reinterpret_cast<cudaFunction_t>(const_cast<void*>(symbolPtr));
  return cudaSuccess;
}
