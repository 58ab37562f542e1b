// Memory: device, pinned host and managed allocations, copies and fills,
// synchronous and on streams, over the runtime's (one address space: a
// CUdeviceptr is the runtime's device pointer).

#include <vector>

#include "driver_api.h"
#include "shim_state.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

// A copy of the direction the call names (the runtime checks both ends
// are of that kind); cuMemcpy's and cuMemcpyAsync's are cudaMemcpyDefault,
// told apart by address as unified addressing does.
CUresult copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, CUstream stream, bool async) {
  return viaRuntime([&] {
    return async ? cudaMemcpyAsync(dst, src, bytes, kind, stream) : cudaMemcpy(dst, src, bytes, kind);
  });
}

// cuMemsetD8/16/32: `count` elements of `width` bytes, each `value`.
template <typename Element>
CUresult fill(CUdeviceptr dst, Element value, size_t count, CUstream stream, bool async) {
  if (sizeof(Element) == 1) {
    return viaRuntime([&] {
      return async ? cudaMemsetAsync(pointer(dst), value, count, stream) : cudaMemset(pointer(dst), value, count);
    });
  }
  if (dst % sizeof(Element) != 0) return CUDA_ERROR_INVALID_VALUE;
  // The runtime fills bytes; a wider pattern goes through a host buffer.
  std::vector<Element> pattern(count, value);
  return copy(pointer(dst), pattern.data(), count * sizeof(Element), cudaMemcpyHostToDevice, stream, false);
}

}  // namespace

DRIVER_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
  if (dptr == nullptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  CUresult r = viaRuntime([&] { return cudaMalloc(&p, bytesize); });
  if (r == CUDA_SUCCESS) *dptr = ptxsim::driver::devicePointer(p);
  return r;
}

DRIVER_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                          unsigned int ElementSizeBytes) {
  if (dptr == nullptr || pPitch == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  CUresult r = viaRuntime([&] { return cudaMallocPitch(&p, pPitch, WidthInBytes, Height); });
  if (r == CUDA_SUCCESS) *dptr = ptxsim::driver::devicePointer(p);
  return r;
}

DRIVER_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) { return viaRuntime([&] { return cudaFree(pointer(dptr)); }); }

DRIVER_EXPORT CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  if (dptr == nullptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  CUresult r = viaRuntime([&] { return cudaMallocManaged(&p, bytesize, flags); });
  if (r == CUDA_SUCCESS) *dptr = ptxsim::driver::devicePointer(p);
  return r;
}

DRIVER_EXPORT CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) {
  return viaRuntime([&] { return cudaMallocHost(pp, bytesize); });
}

DRIVER_EXPORT CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
  // CU_MEMHOSTALLOC_* and cudaHostAlloc* flags have the same values.
  return viaRuntime([&] { return cudaHostAlloc(pp, bytesize, Flags); });
}

DRIVER_EXPORT CUresult cuMemFreeHost(void* p) { return viaRuntime([&] { return cudaFreeHost(p); }); }

DRIVER_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  if (pdptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* device = nullptr;
  CUresult r = viaRuntime([&] { return cudaHostGetDevicePointer(&device, p, Flags); });
  if (r == CUDA_SUCCESS) *pdptr = ptxsim::driver::devicePointer(device);
  return r;
}

DRIVER_EXPORT CUresult cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  return viaRuntime([&] { return cudaHostGetFlags(pFlags, p); });
}

DRIVER_EXPORT CUresult cuMemHostRegister_v2(void* p, size_t bytesize, unsigned int Flags) {
  return viaRuntime([&] { return cudaHostRegister(p, bytesize, Flags); });
}

DRIVER_EXPORT CUresult cuMemHostUnregister(void* p) { return viaRuntime([&] { return cudaHostUnregister(p); }); }

DRIVER_EXPORT CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  return viaRuntime([&] { return cudaMemGetInfo(free, total); });
}

DRIVER_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  const ptxsim::memory::Allocation* a = s.device().allocationAt(dptr);
  if (a == nullptr || a->kind == ptxsim::memory::AllocationKind::Host) return CUDA_ERROR_NOT_FOUND;
  if (pbase != nullptr) *pbase = a->base;
  if (psize != nullptr) *psize = a->size;
  return CUDA_SUCCESS;
}

// Copies. The runtime's cudaMemcpyDefault tells the kinds of memory apart
// by address, as unified addressing does.

DRIVER_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return copy(pointer(dst), pointer(src), ByteCount, cudaMemcpyDefault, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return copy(pointer(dst), pointer(src), ByteCount, cudaMemcpyDefault, hStream, true);
}
DRIVER_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return copy(pointer(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(dstHost, pointer(srcDevice), ByteCount, cudaMemcpyDeviceToHost, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(pointer(dstDevice), pointer(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                                            CUstream hStream) {
  return copy(pointer(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream, true);
}
DRIVER_EXPORT CUresult cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                            CUstream hStream) {
  return copy(dstHost, pointer(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream, true);
}
DRIVER_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                            CUstream hStream) {
  return copy(pointer(dstDevice), pointer(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream, true);
}

DRIVER_ALIAS(cuMemcpy_ptds, cuMemcpy);
DRIVER_ALIAS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2);
DRIVER_ALIAS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2);
DRIVER_ALIAS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2);
DRIVER_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return cuMemcpyAsync(dst, src, ByteCount, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                                                 CUstream hStream) {
  return cuMemcpyHtoDAsync_v2(dstDevice, srcHost, ByteCount, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                                 CUstream hStream) {
  return cuMemcpyDtoHAsync_v2(dstHost, srcDevice, ByteCount, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                                 CUstream hStream) {
  return cuMemcpyDtoDAsync_v2(dstDevice, srcDevice, ByteCount, ptxsim::driver::perThread(hStream));
}

// Fills.

DRIVER_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return fill<unsigned char>(dstDevice, uc, N, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return fill<unsigned short>(dstDevice, us, N, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return fill<unsigned int>(dstDevice, ui, N, nullptr, false);
}
DRIVER_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return fill<unsigned char>(dstDevice, uc, N, hStream, true);
}
DRIVER_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return fill<unsigned short>(dstDevice, us, N, hStream, true);
}
DRIVER_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return fill<unsigned int>(dstDevice, ui, N, hStream, true);
}

DRIVER_ALIAS(cuMemsetD8_v2_ptds, cuMemsetD8_v2);
DRIVER_ALIAS(cuMemsetD16_v2_ptds, cuMemsetD16_v2);
DRIVER_ALIAS(cuMemsetD32_v2_ptds, cuMemsetD32_v2);
DRIVER_EXPORT CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return cuMemsetD8Async(dstDevice, uc, N, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return cuMemsetD16Async(dstDevice, us, N, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return cuMemsetD32Async(dstDevice, ui, N, ptxsim::driver::perThread(hStream));
}

DRIVER_ALIAS(cuMemHostRegister, cuMemHostRegister_v2);
