// Stream-ordered allocation and memory pools: the runtime's (a
// CUmemoryPool is a cudaMemPool_t; the pools' property, access and
// attribute types are laid out and numbered alike in both APIs).

#include "driver_api.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

cudaMemPool_t pool(CUmemoryPool p) { return reinterpret_cast<cudaMemPool_t>(p); }

static_assert(sizeof(CUmemPoolProps) == sizeof(cudaMemPoolProps));
static_assert(sizeof(CUmemAccessDesc) == sizeof(cudaMemAccessDesc));
static_assert(sizeof(CUmemLocation) == sizeof(cudaMemLocation));

}  // namespace

DRIVER_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  return viaRuntime([&] { return cudaDeviceGetDefaultMemPool(reinterpret_cast<cudaMemPool_t*>(pool_out), dev); });
}

DRIVER_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  return viaRuntime([&] { return cudaDeviceGetMemPool(reinterpret_cast<cudaMemPool_t*>(pool_out), dev); });
}

DRIVER_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool p) {
  return viaRuntime([&] { return cudaDeviceSetMemPool(dev, pool(p)); });
}

DRIVER_EXPORT CUresult cuMemPoolCreate(CUmemoryPool* pool_out, const CUmemPoolProps* poolProps) {
  return viaRuntime([&] {
    return cudaMemPoolCreate(reinterpret_cast<cudaMemPool_t*>(pool_out),
                             reinterpret_cast<const cudaMemPoolProps*>(poolProps));
  });
}

DRIVER_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool p) { return viaRuntime([&] { return cudaMemPoolDestroy(pool(p)); }); }

DRIVER_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool p, CUmemPool_attribute attr, void* value) {
  return viaRuntime([&] { return cudaMemPoolSetAttribute(pool(p), static_cast<cudaMemPoolAttr>(attr), value); });
}

DRIVER_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool p, CUmemPool_attribute attr, void* value) {
  return viaRuntime([&] { return cudaMemPoolGetAttribute(pool(p), static_cast<cudaMemPoolAttr>(attr), value); });
}

DRIVER_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool p, size_t minBytesToKeep) {
  return viaRuntime([&] { return cudaMemPoolTrimTo(pool(p), minBytesToKeep); });
}

DRIVER_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool p, const CUmemAccessDesc* map, size_t count) {
  return viaRuntime(
      [&] { return cudaMemPoolSetAccess(pool(p), reinterpret_cast<const cudaMemAccessDesc*>(map), count); });
}

DRIVER_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool p, CUmemLocation* location) {
  return viaRuntime([&] {
    return cudaMemPoolGetAccess(reinterpret_cast<cudaMemAccessFlags*>(flags), pool(p),
                                reinterpret_cast<cudaMemLocation*>(location));
  });
}

DRIVER_EXPORT CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* p = nullptr;
  CUresult r = viaRuntime([&] { return cudaMallocAsync(&p, bytesize, hStream); });
  if (r == CUDA_SUCCESS) *dptr = ptxsim::driver::devicePointer(p);
  return r;
}

DRIVER_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool p, CUstream hStream) {
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  void* out = nullptr;
  CUresult r = viaRuntime([&] { return cudaMallocFromPoolAsync(&out, bytesize, pool(p), hStream); });
  if (r == CUDA_SUCCESS) *dptr = ptxsim::driver::devicePointer(out);
  return r;
}

DRIVER_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  return viaRuntime([&] { return cudaFreeAsync(pointer(dptr), hStream); });
}

DRIVER_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  return cuMemAllocAsync(dptr, bytesize, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool p,
                                                    CUstream hStream) {
  return cuMemAllocFromPoolAsync(dptr, bytesize, p, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
  return cuMemFreeAsync(dptr, ptxsim::driver::perThread(hStream));
}

// The pools of a memory location (CUDA 13: devices and the host).

DRIVER_EXPORT CUresult cuMemGetDefaultMemPool(CUmemoryPool* pool_out, CUmemLocation* location,
                                              CUmemAllocationType type) {
  return viaRuntime([&] {
    return cudaMemGetDefaultMemPool(reinterpret_cast<cudaMemPool_t*>(pool_out),
                                    reinterpret_cast<cudaMemLocation*>(location),
                                    static_cast<cudaMemAllocationType>(type));
  });
}

DRIVER_EXPORT CUresult cuMemGetMemPool(CUmemoryPool* pool_out, CUmemLocation* location, CUmemAllocationType type) {
  return viaRuntime([&] {
    return cudaMemGetMemPool(reinterpret_cast<cudaMemPool_t*>(pool_out), reinterpret_cast<cudaMemLocation*>(location),
                             static_cast<cudaMemAllocationType>(type));
  });
}

DRIVER_EXPORT CUresult cuMemSetMemPool(CUmemLocation* location, CUmemAllocationType type, CUmemoryPool p) {
  return viaRuntime([&] {
    return cudaMemSetMemPool(reinterpret_cast<cudaMemLocation*>(location), static_cast<cudaMemAllocationType>(type),
                             pool(p));
  });
}
