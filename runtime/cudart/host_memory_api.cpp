// Mapped host memory (cudaHostGetDevicePointer, cudaHostGetFlags, memory
// registered with cudaHostRegister), device flags, and attaching managed
// memory to a stream (the other managed-memory hints are in
// managed_memory_api.cpp).

#include <cstdlib>

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::address;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

// The host-backed allocation (pinned, registered or managed) holding p.
const ptxsim::memory::Allocation* hostAllocationAt(const void* p) {
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(address(p));
  return a != nullptr && a->host != nullptr ? a : nullptr;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  constexpr unsigned kKnown = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax;
  if ((flags & ~kKnown) != 0 || (flags & cudaDeviceScheduleMask) == cudaDeviceScheduleMask) {
    return result(cudaErrorInvalidValue);
  }
  shimState().deviceFlags = flags;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  std::lock_guard lock(shimState().mutex());
  if (flags == nullptr) return result(cudaErrorInvalidValue);
  // Mapping host memory is always on with unified addressing, as on a GPU.
  *flags = shimState().deviceFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (pDevice == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  const ptxsim::memory::Allocation* a = hostAllocationAt(pHost);
  if (a == nullptr || a->kind != ptxsim::memory::AllocationKind::Host) return result(cudaErrorInvalidValue);
  *pDevice = pHost;  // unified addressing: the same address on both sides
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::ShimState& s = shimState();
  if (pFlags == nullptr) return result(cudaErrorInvalidValue);
  const ptxsim::memory::Allocation* a = hostAllocationAt(pHost);
  if (a == nullptr || a->kind != ptxsim::memory::AllocationKind::Host) return result(cudaErrorInvalidValue);
  void* base = reinterpret_cast<void*>(a->base);
  if (auto it = s.hostAllocationFlags.find(base); it != s.hostAllocationFlags.end()) {
    // As CUDA reports them: always mapped, portability not recorded.
    *pFlags = (it->second & ~unsigned{cudaHostAllocPortable}) | cudaHostAllocMapped;
  } else if (auto r = s.registeredHost.find(base); r != s.registeredHost.end()) {
    *pFlags = (r->second.flags & ~unsigned{cudaHostRegisterPortable}) | cudaHostAllocMapped;
  } else {
    *pFlags = cudaHostAllocMapped;  // cudaMallocHost
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  constexpr unsigned kKnown = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                              cudaHostRegisterReadOnly;
  if (ptr == nullptr || size == 0 || (flags & ~kKnown) != 0) return result(cudaErrorInvalidValue);
  if (hostAllocationAt(ptr) != nullptr) return result(cudaErrorHostMemoryAlreadyRegistered);
  try {
    shimState().device().registerHostMemory(ptr, size, ptxsim::memory::AllocationKind::Host);
  } catch (const ptxsim::Error&) {
    return result(cudaErrorInvalidValue);
  }
  shimState().registeredHost[ptr] = {size, flags};
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaHostUnregister(void* ptr) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::ShimState& s = shimState();
  if (s.registeredHost.erase(ptr) == 0) return result(cudaErrorHostMemoryNotRegistered);
  s.device().forgetHostMemory(ptr);
  return cudaSuccess;
}

// Attaching managed memory to a stream only limits which stream's work may
// touch it on devices without concurrent managed access; the H100 (and the
// functional model) needs no such limit, so the call validates and returns.
// Managed memory only, the whole allocation (length 0 or its size).
CUDART_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                                   unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  (void)stream;
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) {
    return result(cudaErrorInvalidValue);
  }
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(address(devPtr));
  if (a == nullptr || a->kind != ptxsim::memory::AllocationKind::Managed || a->base != address(devPtr) ||
      (length != 0 && length != a->size)) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void* devPtr, size_t length,
                                                        unsigned int flags) {
  return cudaStreamAttachMemAsync(stream == nullptr ? cudaStreamPerThread : stream, devPtr, length, flags);
}

// Persisting L2 lines are a cache hint; nothing is cached functionally.
CUDART_EXPORT cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

// Writes of GPUDirect RDMA peers: there are none in the simulated system.
CUDART_EXPORT cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTarget target,
                                                             cudaFlushGPUDirectRDMAWritesScope scope) {
  if (target != cudaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
      (scope != cudaFlushGPUDirectRDMAWritesToOwner && scope != cudaFlushGPUDirectRDMAWritesToAllDevices)) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
