// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and memory
// pools (memory_pool.h). Work completes when it is issued, so an allocation
// is usable and a free takes effect in stream order at once. During stream
// capture they become graph memory nodes (graph_memory.h).

#include <cstdio>

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

MemoryPools& pools() { return shimState().streamOrder().pools(); }

// The stream of an allocation or free; cudaErrorStreamCaptureImplicit for
// the legacy stream while a blocking stream captures.
cudaError_t streamForAllocation(cudaStream_t stream, StreamRecord*& out) {
  StreamOrderState& state = shimState().streamOrder();
  out = state.stream(stream);
  if (out == nullptr) return cudaErrorInvalidResourceHandle;
  return state.implicitCaptureDependency(out);
}

// During capture an allocation becomes a graph allocation node, whose
// address is fixed now and whose memory is there once the graph has run it.
cudaError_t captureAllocation(StreamRecord& stream, const MemoryPool& pool, size_t size, void** ptr) {
  cudaMemAllocNodeParams params{};
  params.poolProps = pool.props;
  params.bytesize = size;
  MemAllocOperation a;
  if (cudaError_t e = memAllocOperation(params, a); e != cudaSuccess) return e;
  if (cudaError_t e = shimState().streamOrder().capture(&stream, std::move(a)); e != cudaSuccess) return e;
  *ptr = params.dptr;
  return cudaSuccess;
}

// During capture a free of graph memory becomes a free node.
cudaError_t captureFree(StreamRecord& stream, void* ptr) {
  if (!shimState().streamOrder().graphMemory().owns(ptr)) {
    std::fprintf(stderr,
                 "ptxsim: cudaFreeAsync during stream capture of memory not allocated by a graph (a free node "
                 "of pool memory) is not supported yet\n");
    return cudaErrorNotSupported;
  }
  if (cudaError_t e = checkMemFree(*stream.capture->graph, stream.captureDependencies, ptr); e != cudaSuccess) {
    return e;
  }
  return shimState().streamOrder().capture(&stream, MemFreeOperation{ptr});
}

cudaError_t mallocFromPool(void** ptr, size_t size, MemoryPool* pool, cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  if (ptr == nullptr || pool == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  StreamRecord* s = nullptr;
  if (cudaError_t e = streamForAllocation(stream, s); e != cudaSuccess) return result(e);
  if (s->capture != nullptr) return result(captureAllocation(*s, *pool, size, ptr));
  return result(pools().allocate(shimState().device(), *pool, size, ptr));
}

cudaError_t freeAsync(void* ptr, cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  if (ptr == nullptr) return result(cudaErrorInvalidValue);
  StreamRecord* s = nullptr;
  if (cudaError_t e = streamForAllocation(stream, s); e != cudaSuccess) return result(e);
  if (s->capture != nullptr) return result(captureFree(*s, ptr));
  GraphMemory& graphMemory = shimState().streamOrder().graphMemory();
  if (graphMemory.owns(ptr)) return result(graphMemory.unmap(shimState().device(), ptr));
  return result(pools().free(shimState().device(), ptr));
}

bool validDevice(const cudaMemLocation& location) {
  return location.type == cudaMemLocationTypeDevice && location.id == 0;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream) {
  return mallocFromPool(ptr, size, pools().currentPool(), stream);
}

CUDART_EXPORT cudaError_t cudaMallocAsync_ptsz(void** ptr, size_t size, cudaStream_t stream) {
  return mallocFromPool(ptr, size, pools().currentPool(), perThread(stream));
}

CUDART_EXPORT cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool,
                                                  cudaStream_t stream) {
  MemoryPool* p = nullptr;
  {
    std::lock_guard lock(shimState().mutex());
    p = pools().pool(pool);
  }
  return mallocFromPool(ptr, size, p, stream);
}

CUDART_EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t pool,
                                                       cudaStream_t stream) {
  MemoryPool* p = nullptr;
  {
    std::lock_guard lock(shimState().mutex());
    p = pools().pool(pool);
  }
  return mallocFromPool(ptr, size, p, perThread(stream));
}

CUDART_EXPORT cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) { return freeAsync(ptr, stream); }

CUDART_EXPORT cudaError_t cudaFreeAsync_ptsz(void* ptr, cudaStream_t stream) {
  return freeAsync(ptr, perThread(stream));
}

CUDART_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  std::lock_guard lock(shimState().mutex());
  if (pool == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  *pool = reinterpret_cast<cudaMemPool_t>(pools().defaultPool());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  std::lock_guard lock(shimState().mutex());
  if (pool == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  *pool = reinterpret_cast<cudaMemPool_t>(pools().currentPool());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr) return result(cudaErrorInvalidValue);
  pools().setCurrentPool(p);
  return cudaSuccess;
}

namespace {

// The per-location pool calls (CUDA 13) take a device, the host or a host
// NUMA node, pinned or managed memory (managed also with no location).
// ptxsim has pools of device memory only: cudaSuccess for the device's
// pinned pools, cudaErrorNotSupported with a message for the others,
// cudaErrorInvalidValue for a combination CUDA does not take.
cudaError_t devicePinnedLocation(const cudaMemLocation* location, cudaMemAllocationType type,
                                 const char* call) {
  if (location == nullptr) return cudaErrorInvalidValue;
  bool managed = type == cudaMemAllocationTypeManaged;
  if (type != cudaMemAllocationTypePinned && !managed) return cudaErrorInvalidValue;
  switch (location->type) {
    case cudaMemLocationTypeDevice:
      if (location->id != 0) return cudaErrorInvalidDevice;
      break;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma: break;
    case cudaMemLocationTypeNone:
      if (!managed) return cudaErrorInvalidValue;
      break;
    default: return cudaErrorInvalidValue;
  }
  if (managed || location->type != cudaMemLocationTypeDevice) {
    ptxsim::cudart::reportError("%s: pools of %s memory are not supported yet", call,
                                managed ? "managed" : "host");
    return cudaErrorNotSupported;
  }
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                                   cudaMemAllocationType type) {
  std::lock_guard lock(shimState().mutex());
  if (memPool == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = devicePinnedLocation(location, type, "cudaMemGetDefaultMemPool"); e != cudaSuccess) {
    return result(e);
  }
  *memPool = reinterpret_cast<cudaMemPool_t>(pools().defaultPool());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemGetMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                            cudaMemAllocationType type) {
  std::lock_guard lock(shimState().mutex());
  if (memPool == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = devicePinnedLocation(location, type, "cudaMemGetMemPool"); e != cudaSuccess)
    return result(e);
  *memPool = reinterpret_cast<cudaMemPool_t>(pools().currentPool());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemSetMemPool(cudaMemLocation* location, cudaMemAllocationType type,
                                            cudaMemPool_t memPool) {
  std::lock_guard lock(shimState().mutex());
  if (cudaError_t e = devicePinnedLocation(location, type, "cudaMemSetMemPool"); e != cudaSuccess)
    return result(e);
  // Every pool ptxsim has is a pinned pool of device 0, the location asked for.
  MemoryPool* p = pools().pool(memPool);
  if (p == nullptr) return result(cudaErrorInvalidValue);
  pools().setCurrentPool(p);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  std::lock_guard lock(shimState().mutex());
  if (pool == nullptr || props == nullptr) return result(cudaErrorInvalidValue);
  if (props->allocType != cudaMemAllocationTypePinned) return result(cudaErrorInvalidValue);
  if (props->location.type != cudaMemLocationTypeDevice) {
    ptxsim::cudart::reportError("cudaMemPoolCreate: pools of host memory are not supported yet");
    return result(cudaErrorNotSupported);
  }
  if (props->location.id != 0) return result(cudaErrorInvalidDevice);
  if (props->handleTypes != cudaMemHandleTypeNone) {
    ptxsim::cudart::reportError("cudaMemPoolCreate: shareable (inter-process) pools are not supported");
    return result(cudaErrorNotSupported);
  }
  *pool = reinterpret_cast<cudaMemPool_t>(pools().create(*props));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr) return result(cudaErrorInvalidValue);
  return result(pools().destroy(p));
}

CUDART_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr || value == nullptr) return result(cudaErrorInvalidValue);
  auto flag = [&](int& field) { field = *static_cast<int*>(value) != 0 ? 1 : 0; };
  auto resetHigh = [&](uint64_t& high, uint64_t current) {
    // Only 0 is accepted: it resets the watermark to the current value.
    if (*static_cast<uint64_t*>(value) != 0) return cudaErrorInvalidValue;
    high = current;
    return cudaSuccess;
  };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: flag(p->reuseFollowEventDependencies); break;
    case cudaMemPoolReuseAllowOpportunistic: flag(p->reuseAllowOpportunistic); break;
    case cudaMemPoolReuseAllowInternalDependencies: flag(p->reuseAllowInternalDependencies); break;
    case cudaMemPoolAttrReleaseThreshold: p->releaseThreshold = *static_cast<uint64_t*>(value); break;
    case cudaMemPoolAttrReservedMemHigh: return result(resetHigh(p->reservedHigh, p->reservedBytes));
    case cudaMemPoolAttrUsedMemHigh: return result(resetHigh(p->usedHigh, p->usedBytes));
    default: return result(cudaErrorInvalidValue);  // the current values are read-only
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr || value == nullptr) return result(cudaErrorInvalidValue);
  auto* asInt = static_cast<int*>(value);
  auto* asBytes = static_cast<uint64_t*>(value);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: *asInt = p->reuseFollowEventDependencies; break;
    case cudaMemPoolReuseAllowOpportunistic: *asInt = p->reuseAllowOpportunistic; break;
    case cudaMemPoolReuseAllowInternalDependencies: *asInt = p->reuseAllowInternalDependencies; break;
    case cudaMemPoolAttrReleaseThreshold: *asBytes = p->releaseThreshold; break;
    case cudaMemPoolAttrReservedMemCurrent: *asBytes = p->reservedBytes; break;
    case cudaMemPoolAttrReservedMemHigh: *asBytes = p->reservedHigh; break;
    case cudaMemPoolAttrUsedMemCurrent: *asBytes = p->usedBytes; break;
    case cudaMemPoolAttrUsedMemHigh: *asBytes = p->usedHigh; break;
    default: return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr) return result(cudaErrorInvalidValue);
  pools().trim(*p, minBytesToKeep);
  return cudaSuccess;
}

// One device: its own pools are always readable and writable by it.
CUDART_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descList,
                                               size_t count) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr || (descList == nullptr && count != 0)) return result(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (!validDevice(descList[i].location)) return result(cudaErrorInvalidDevice);
    if (descList[i].flags != cudaMemAccessFlagsProtReadWrite) return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                               cudaMemLocation* location) {
  std::lock_guard lock(shimState().mutex());
  MemoryPool* p = pools().pool(pool);
  if (p == nullptr || flags == nullptr || location == nullptr) return result(cudaErrorInvalidValue);
  if (!validDevice(*location)) return result(cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}
