// Device, pinned and managed memory; copies and fills; symbols.

#include <cstdlib>
#include <cstring>

#include "export.h"
#include "memory_ops.h"
#include "shim_state.h"

using ptxsim::cudart::issue;
using ptxsim::cudart::linearCopy;
using ptxsim::cudart::perThread;
using ptxsim::cudart::address;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;
using ptxsim::cudart::symbolRange;

namespace {

// Host memory kernels can reach (pinned and managed): allocated by the
// shim and registered with the simulated device at the same addresses.
cudaError_t allocateHost(void** out, size_t size, ptxsim::memory::AllocationKind kind) {
  if (out == nullptr) return cudaErrorInvalidValue;
  // Managed memory starts on a page, as a GPU's does: its advice is kept per
  // page (managed_advice.h).
  size_t alignment = kind == ptxsim::memory::AllocationKind::Managed ? 4096 : 256;
  size_t rounded = (std::max<size_t>(size, 1) + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (p == nullptr) return cudaErrorMemoryAllocation;
  std::memset(p, 0, rounded);
  try {
    shimState().device().registerHostMemory(p, size, kind);
  } catch (const ptxsim::Error&) {
    std::free(p);
    return cudaErrorMemoryAllocation;
  }
  shimState().hostAllocations()[p] = size;
  *out = p;
  return cudaSuccess;
}

cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  ptxsim::cudart::ShimState& s = shimState();
  if (s.sticky() != cudaSuccess) return s.sticky();
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  ptxsim::Device& d = s.device();
  // Device memory, or host memory the device can reach (pinned, managed).
  const ptxsim::memory::Allocation* to = d.allocationAt(address(dst));
  const ptxsim::memory::Allocation* from = d.allocationAt(address(src));
  bool dstDevice = to != nullptr, srcDevice = from != nullptr;
  bool wantDstDevice = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool wantSrcDevice = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind != cudaMemcpyDefault && kind != cudaMemcpyHostToHost &&
      ((wantDstDevice && !dstDevice) || (wantSrcDevice && !srcDevice))) {
    return cudaErrorInvalidValue;
  }
  if (kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  const ptxsim::cudart::TransferKind transfer = ptxsim::cudart::transferKindOf(to, from);
  try {
    if (dstDevice && srcDevice) {
      d.copyOnDevice(address(dst), address(src), count);
    } else if (dstDevice) {
      d.copyToDevice(address(dst), src, count);
    } else if (srcDevice) {
      d.copyToHost(dst, address(src), count);
    } else {
      std::memmove(dst, src, count);
    }
  } catch (const ptxsim::Error& e) {
    std::fprintf(stderr, "ptxsim: error: %s\n", e.what());
    return cudaErrorInvalidValue;
  }
  s.transferred(transfer, count);
  // A copy synchronises with the device: pending printf output appears.
  d.synchronize();
  return cudaSuccess;
}

cudaError_t fill(void* devPtr, int value, size_t count) {
  ptxsim::cudart::ShimState& s = shimState();
  if (s.sticky() != cudaSuccess) return s.sticky();
  if (count == 0) return cudaSuccess;
  try {
    s.device().memset(address(devPtr), static_cast<uint8_t>(value), count);
  } catch (const ptxsim::Error& e) {
    std::fprintf(stderr, "ptxsim: error: %s\n", e.what());
    return cudaErrorInvalidValue;
  }
  s.transferred(ptxsim::cudart::TransferKind::Fill, count);
  return cudaSuccess;
}

// Rows of `width` bytes, `pitch` apart, in `depth` slices `slicePitch` apart (cudaMemset2D/3D).
// A width beyond the pitch is accepted, as CUDA 13 accepts it (measured on an H100): rows overlap.
cudaError_t fillBox(void* devPtr, size_t pitch, size_t slicePitch, int value, size_t width, size_t height,
                    size_t depth) {
  const ptxsim::cudart::TransferScope oneFill;
  for (size_t z = 0; z < depth; ++z) {
    for (size_t y = 0; y < height; ++y) {
      cudaError_t e = fill(static_cast<char*>(devPtr) + z * slicePitch + y * pitch, value, width);
      if (e != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}

// cudaMallocPitch and cudaMalloc3D: rows aligned as the H100's driver aligns them (a
// textureAlignment-sized pitch).
cudaError_t allocatePitched(void** devPtr, size_t* pitch, size_t width, size_t rows) {
  if (devPtr == nullptr || pitch == nullptr) return cudaErrorInvalidValue;
  size_t rowPitch = (std::max<size_t>(width, 1) + 511) / 512 * 512;
  try {
    *devPtr = reinterpret_cast<void*>(shimState().device().malloc(rowPitch * rows));
  } catch (const ptxsim::Error&) {
    return cudaErrorMemoryAllocation;
  }
  *pitch = rowPitch;
  return cudaSuccess;
}

cudaError_t copy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  const ptxsim::cudart::TransferScope oneCopy;
  for (size_t row = 0; row < height; ++row) {
    cudaError_t e = copy(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width,
                         kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t symbolCopy(const void* symbol, size_t offset, size_t count, void* host, bool toSymbol,
                       cudaMemcpyKind kind) {
  uint64_t base = 0;
  size_t size = 0;
  cudaError_t e = shimState().symbolAddress(symbol, base, size);
  if (e != cudaSuccess) return e;
  if (offset + count > size) return cudaErrorInvalidValue;
  auto* target = reinterpret_cast<void*>(base + offset);
  return toSymbol ? copy(target, host, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind)
                  : copy(host, target, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind);
}

// A fill of `height` rows of `width` bytes, `pitch` apart.
ptxsim::cudart::MemsetOperation fillOperation(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  ptxsim::cudart::MemsetOperation m;
  m.params.dst = devPtr;
  m.params.pitch = pitch;
  m.params.value = static_cast<unsigned>(value);
  m.params.elementSize = 1;
  m.params.width = width;
  m.params.height = height;
  return m;
}

}  // namespace

namespace ptxsim::cudart {

cudaError_t symbolRange(const void* symbol, size_t offset, size_t count, void*& out) {
  uint64_t base = 0;
  size_t size = 0;
  cudaError_t e = shimState().symbolAddress(symbol, base, size);
  if (e != cudaSuccess) return e;
  if (offset + count > size) return cudaErrorInvalidValue;
  out = reinterpret_cast<void*>(base + offset);
  return cudaSuccess;
}

cudaError_t copyMemory(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return copy(dst, src, count, kind);
}

cudaError_t fillMemory(void* devPtr, int value, size_t count) { return fill(devPtr, value, count); }

}  // namespace ptxsim::cudart

CUDART_EXPORT cudaError_t cudaMalloc(void** devPtr, size_t size) {
  std::lock_guard lock(shimState().mutex());
  if (devPtr == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = shimState().streamOrder().unsafeCallDuringCapture(); e != cudaSuccess) return result(e);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  try {
    *devPtr = reinterpret_cast<void*>(shimState().device().malloc(size));
  } catch (const ptxsim::Error&) {
    *devPtr = nullptr;
    return result(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFree(void* devPtr) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::ShimState& s = shimState();
  if (devPtr == nullptr) {
    s.device();  // cudaFree(0): the idiom that starts the runtime (and its context)
    return cudaSuccess;
  }
  if (cudaError_t e = s.streamOrder().unsafeCallDuringCapture(); e != cudaSuccess) return result(e);
  // Stream-ordered allocations, graph memory included, may be freed with cudaFree too.
  if (s.streamOrder().graphMemory().owns(devPtr)) return result(s.streamOrder().graphMemory().unmap(s.device(), devPtr));
  if (s.streamOrder().pools().owner(devPtr) != nullptr) return result(s.streamOrder().pools().free(s.device(), devPtr, false));
  if (auto host = s.hostAllocations().find(devPtr); host != s.hostAllocations().end()) {
    // Managed memory is freed with cudaFree; its advice goes with it.
    s.managedAdvice().forget(address(devPtr), host->second);
    s.device().forgetHostMemory(devPtr);
    s.hostAllocations().erase(devPtr);
    std::free(devPtr);
    return cudaSuccess;
  }
  try {
    s.device().free(address(devPtr));
  } catch (const ptxsim::Error&) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocHost(void** ptr, size_t size) {
  std::lock_guard lock(shimState().mutex());
  return result(allocateHost(ptr, size, ptxsim::memory::AllocationKind::Host));
}

CUDART_EXPORT cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  // Portable, mapped and write-combined memory behave alike here; the flags
  // are kept for cudaHostGetFlags.
  std::lock_guard lock(shimState().mutex());
  constexpr unsigned kKnown = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if ((flags & ~kKnown) != 0) return result(cudaErrorInvalidValue);
  cudaError_t e = allocateHost(pHost, size, ptxsim::memory::AllocationKind::Host);
  if (e == cudaSuccess) shimState().hostAllocationFlags[*pHost] = flags;
  return result(e);
}

CUDART_EXPORT cudaError_t cudaFreeHost(void* ptr) {
  std::lock_guard lock(shimState().mutex());
  if (ptr == nullptr) return cudaSuccess;
  ptxsim::cudart::ShimState& s = shimState();
  if (s.hostAllocations().erase(ptr) == 0) return result(cudaErrorInvalidValue);
  s.hostAllocationFlags.erase(ptr);
  s.device().forgetHostMemory(ptr);
  std::free(ptr);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return result(cudaErrorInvalidValue);
  return result(allocateHost(devPtr, size, ptxsim::memory::AllocationKind::Managed));
}

CUDART_EXPORT cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  std::lock_guard lock(shimState().mutex());
  return result(allocatePitched(devPtr, pitch, width, height));
}

CUDART_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  std::lock_guard lock(shimState().mutex());
  if (pitchedDevPtr == nullptr) return result(cudaErrorInvalidValue);
  void* p = nullptr;
  size_t pitch = 0;
  cudaError_t e = allocatePitched(&p, &pitch, extent.width, extent.height * extent.depth);
  if (e != cudaSuccess) return result(e);
  *pitchedDevPtr = cudaPitchedPtr{p, pitch, extent.width, extent.height};
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(cudaStreamLegacy, linearCopy(dst, src, count, kind), lock));
}

CUDART_EXPORT cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                          cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(stream, linearCopy(dst, src, count, kind), lock));
}

CUDART_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(perThread(stream), linearCopy(dst, src, count, kind), lock));
}

CUDART_EXPORT cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                       size_t height, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(copy2D(dst, dpitch, src, spitch, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  if (width > dpitch || width > spitch) return result(cudaErrorInvalidPitchValue);
  ptxsim::cudart::CopyOperation c;
  c.params.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
  c.params.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
  c.params.extent = cudaExtent{width, height, 1};
  c.params.kind = kind;
  return result(issue(stream, c, lock));
}

CUDART_EXPORT cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(cudaStreamLegacy, fillOperation(devPtr, 0, value, count, 1), lock));
}

CUDART_EXPORT cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(stream, fillOperation(devPtr, 0, value, count, 1), lock));
}

CUDART_EXPORT cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(perThread(stream), fillOperation(devPtr, 0, value, count, 1), lock));
}

CUDART_EXPORT cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  std::lock_guard lock(shimState().mutex());
  return result(fillBox(devPtr, pitch, pitch * height, value, width, height, 1));
}

CUDART_EXPORT cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                                            cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(issue(stream, fillOperation(devPtr, pitch, value, width, height), lock));
}

CUDART_EXPORT cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  std::lock_guard lock(shimState().mutex());
  const cudaPitchedPtr& p = pitchedDevPtr;
  return result(fillBox(p.ptr, p.pitch, p.pitch * p.ysize, value, extent.width, extent.height, extent.depth));
}

CUDART_EXPORT cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent,
                                            cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  const cudaPitchedPtr& p = pitchedDevPtr;
  // One 2D fill a slice (one for all when the slices follow each other).
  bool contiguous = extent.height == p.ysize || extent.depth <= 1;
  size_t slices = contiguous ? 1 : extent.depth, rows = contiguous ? extent.height * std::max<size_t>(extent.depth, 1) : extent.height;
  for (size_t z = 0; z < slices; ++z) {
    cudaError_t e = issue(stream, fillOperation(static_cast<char*>(p.ptr) + z * p.pitch * p.ysize, p.pitch, value, extent.width, rows), lock);
    if (e != cudaSuccess) return result(e);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                             cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(symbolCopy(symbol, offset, count, const_cast<void*>(src), true, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                               cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(symbolCopy(symbol, offset, count, dst, false, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                                  cudaMemcpyKind kind, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  void* target = nullptr;
  cudaError_t e = symbolRange(symbol, offset, count, target);
  if (e != cudaSuccess) return result(e);
  return result(issue(stream, linearCopy(target, src, count, kind), lock));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                                    cudaMemcpyKind kind, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  void* source = nullptr;
  cudaError_t e = symbolRange(symbol, offset, count, source);
  if (e != cudaSuccess) return result(e);
  return result(issue(stream, linearCopy(dst, source, count, kind), lock));
}

CUDART_EXPORT cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  std::lock_guard lock(shimState().mutex());
  uint64_t base = 0;
  size_t size = 0;
  cudaError_t e = shimState().symbolAddress(symbol, base, size);
  if (e == cudaSuccess && devPtr != nullptr) *devPtr = reinterpret_cast<void*>(base);
  return result(e);
}

CUDART_EXPORT cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  std::lock_guard lock(shimState().mutex());
  uint64_t base = 0;
  size_t bytes = 0;
  cudaError_t e = shimState().symbolAddress(symbol, base, bytes);
  if (e == cudaSuccess && size != nullptr) *size = bytes;
  return result(e);
}

CUDART_EXPORT cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::Device& d = shimState().device();
  uint64_t totalBytes = d.config().globalMemoryBytes;
  uint64_t used = d.gpu().allocations().liveBytes() + d.config().description.contextReservedBytes;
  if (free != nullptr) *free = static_cast<size_t>(used < totalBytes ? totalBytes - used : 0);
  if (total != nullptr) *total = static_cast<size_t>(totalBytes);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  std::lock_guard lock(shimState().mutex());
  if (attributes == nullptr) return result(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(address(ptr));
  if (a == nullptr) {
    // Memory CUDA does not know: reported as a host pointer to itself.
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void*>(ptr);
    return cudaSuccess;
  }
  attributes->device = shimState().currentDevice;
  switch (a->kind) {
    case ptxsim::memory::AllocationKind::Managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->devicePointer = const_cast<void*>(ptr);
      attributes->hostPointer = const_cast<void*>(ptr);
      break;
    case ptxsim::memory::AllocationKind::Host:
      attributes->type = cudaMemoryTypeHost;
      attributes->devicePointer = const_cast<void*>(ptr);
      attributes->hostPointer = const_cast<void*>(ptr);
      break;
    default:
      attributes->type = cudaMemoryTypeDevice;
      attributes->devicePointer = const_cast<void*>(ptr);
      break;
  }
  return cudaSuccess;
}
