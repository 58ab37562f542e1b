// The managed-memory hints: prefetch (also in batches), discard and advice,
// which change where data lives on a GPU but not what a program computes,
// and the range queries that report them (cudaMemRangeGetAttribute). Every
// prefetch and discard runs in stream order through issue().

#include "batch_groups.h"
#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::checkGroupStarts;
using ptxsim::cudart::issue;
using ptxsim::cudart::PrefetchOperation;
using ptxsim::cudart::address;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

cudaError_t checkLocation(const cudaMemLocation& location) {
  switch (location.type) {
    case cudaMemLocationTypeDevice:
      return location.id == shimState().currentDevice ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}

// Prefetch and advice take any range inside one allocation the device can
// reach; they are hints, so nothing moves in a functional simulator.
cudaError_t checkHintRange(const void* devPtr, size_t count) {
  if (devPtr == nullptr || count == 0) return cudaErrorInvalidValue;
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(address(devPtr));
  if (a == nullptr || address(devPtr) + count > a->base + a->size) return cudaErrorInvalidValue;
  return cudaSuccess;
}

// The range queries and the batch operations take managed memory only.
cudaError_t checkManagedRange(const void* devPtr, size_t count) {
  if (devPtr == nullptr || count == 0) return cudaErrorInvalidValue;
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(address(devPtr));
  if (a == nullptr || a->kind != ptxsim::memory::AllocationKind::Managed ||
      address(devPtr) + count > a->base + a->size) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

// A batch of prefetches, discards (no locations) or both, checked in full
// before any of it is issued.
cudaError_t batchHints(void** dptrs, size_t* sizes, size_t count, cudaMemLocation* locations,
                       size_t* locationStarts, size_t locationCount, bool discard, unsigned long long flags,
                       cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  // "Must not be legacy NULL stream."
  if (stream == nullptr || stream == cudaStreamLegacy) return result(cudaErrorInvalidValue);
  if (dptrs == nullptr || sizes == nullptr || count == 0 || flags != 0) return result(cudaErrorInvalidValue);
  bool prefetch = locations != nullptr || locationStarts != nullptr || locationCount != 0;
  if (prefetch) {
    if (locations == nullptr) return result(cudaErrorInvalidValue);
    if (cudaError_t e = checkGroupStarts(locationStarts, locationCount, count); e != cudaSuccess)
      return result(e);
    for (size_t g = 0; g < locationCount; ++g) {
      if (cudaError_t e = checkLocation(locations[g]); e != cudaSuccess) return result(e);
    }
  }
  PrefetchOperation discards, prefetches;
  size_t group = 0;
  for (size_t i = 0; i < count; ++i) {
    if (cudaError_t e = checkManagedRange(dptrs[i], sizes[i]); e != cudaSuccess) return result(e);
    if (prefetch) group = ptxsim::cudart::groupOf(locationStarts, locationCount, i, group);
    if (discard) discards.ranges.push_back({address(dptrs[i]), sizes[i], {cudaMemLocationTypeInvalid, 0}});
    if (prefetch) prefetches.ranges.push_back({address(dptrs[i]), sizes[i], locations[group]});
  }
  if (discard) {
    if (cudaError_t e = issue(stream, std::move(discards), lock); e != cudaSuccess) return result(e);
  }
  if (prefetch) return result(issue(stream, std::move(prefetches), lock));
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                               unsigned int flags, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  if (flags != 0) return result(cudaErrorInvalidValue);
  if (cudaError_t e = checkHintRange(devPtr, count); e != cudaSuccess) return result(e);
  if (cudaError_t e = checkLocation(location); e != cudaSuccess) return result(e);
  PrefetchOperation prefetch;
  prefetch.ranges.push_back({address(devPtr), count, location});
  return result(issue(stream, std::move(prefetch), lock));
}

CUDART_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void* devPtr, size_t count,
                                                    cudaMemLocation location, unsigned int flags,
                                                    cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags, ptxsim::cudart::perThread(stream));
}

CUDART_EXPORT cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                                        cudaMemLocation location) {
  std::lock_guard lock(shimState().mutex());
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
    return result(cudaErrorInvalidValue);
  }
  // Read-mostly advice ignores the location.
  if (advice == cudaMemAdviseSetReadMostly || advice == cudaMemAdviseUnsetReadMostly) {
    location = {cudaMemLocationTypeHost, 0};
  }
  if (cudaError_t e = checkHintRange(devPtr, count); e != cudaSuccess) return result(e);
  if (cudaError_t e = checkLocation(location); e != cudaSuccess) return result(e);
  shimState().managedAdvice().advise(address(devPtr), count, advice, location);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize,
                                                   cudaMemRangeAttribute attribute, const void* devPtr,
                                                   size_t count) {
  std::lock_guard lock(shimState().mutex());
  if (data == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = checkManagedRange(devPtr, count); e != cudaSuccess) return result(e);
  return result(shimState().managedAdvice().query(attribute, address(devPtr), count, data, dataSize));
}

CUDART_EXPORT cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes,
                                                    cudaMemRangeAttribute* attributes, size_t numAttributes,
                                                    const void* devPtr, size_t count) {
  std::lock_guard lock(shimState().mutex());
  if (data == nullptr || dataSizes == nullptr || attributes == nullptr || numAttributes == 0) {
    return result(cudaErrorInvalidValue);
  }
  if (cudaError_t e = checkManagedRange(devPtr, count); e != cudaSuccess) return result(e);
  for (size_t i = 0; i < numAttributes; ++i) {
    if (data[i] == nullptr) return result(cudaErrorInvalidValue);
    cudaError_t e =
        shimState().managedAdvice().query(attributes[i], address(devPtr), count, data[i], dataSizes[i]);
    if (e != cudaSuccess) return result(e);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                    cudaMemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                                    size_t numPrefetchLocs, unsigned long long flags,
                                                    cudaStream_t stream) {
  if (prefetchLocs == nullptr || numPrefetchLocs == 0) return result(cudaErrorInvalidValue);
  return batchHints(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, false, flags,
                    stream);
}

CUDART_EXPORT cudaError_t cudaMemPrefetchBatchAsync_ptsz(void** dptrs, size_t* sizes, size_t count,
                                                         cudaMemLocation* prefetchLocs,
                                                         size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                         unsigned long long flags, cudaStream_t stream) {
  return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                                   ptxsim::cudart::perThread(stream));
}

CUDART_EXPORT cudaError_t cudaMemDiscardBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                   unsigned long long flags, cudaStream_t stream) {
  return batchHints(dptrs, sizes, count, nullptr, nullptr, 0, true, flags, stream);
}

CUDART_EXPORT cudaError_t cudaMemDiscardBatchAsync_ptsz(void** dptrs, size_t* sizes, size_t count,
                                                        unsigned long long flags, cudaStream_t stream) {
  return cudaMemDiscardBatchAsync(dptrs, sizes, count, flags, ptxsim::cudart::perThread(stream));
}

CUDART_EXPORT cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count,
                                                              cudaMemLocation* prefetchLocs,
                                                              size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                              unsigned long long flags, cudaStream_t stream) {
  if (prefetchLocs == nullptr || numPrefetchLocs == 0) return result(cudaErrorInvalidValue);
  return batchHints(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, true, flags, stream);
}

CUDART_EXPORT cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(
    void** dptrs, size_t* sizes, size_t count, cudaMemLocation* prefetchLocs, size_t* prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return cudaMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                             numPrefetchLocs, flags, ptxsim::cudart::perThread(stream));
}
