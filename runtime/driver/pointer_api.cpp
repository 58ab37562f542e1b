// Pointer attributes (cuPointerGetAttribute/s) and managed memory: advice,
// prefetches and range attributes, over the runtime's.

#include <mutex>

#include "driver_api.h"
#include "shim_state.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

// The number CUDA gives the allocation holding `ptr` for its lifetime.
unsigned long long bufferIdOf(CUdeviceptr ptr) {
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  const ptxsim::memory::Allocation* a = s.device().allocationAt(ptr);
  return a != nullptr ? a->bufferId : 0;
}

// Writes one attribute of the memory `a` describes (from the runtime's
// cudaPointerGetAttributes) to `data`. For memory CUDA does not know,
// `known` is false: cuPointerGetAttributes gives each attribute its null
// value, where cuPointerGetAttribute fails.
CUresult attributeValue(CUpointer_attribute attribute, const cudaPointerAttributes& a, CUdeviceptr ptr,
                        void* data) {
  bool known = a.type != cudaMemoryTypeUnregistered;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: {
      CUcontext context = nullptr;
      if (known && cuDevicePrimaryCtxRetain(&context, a.device) == CUDA_SUCCESS)
        cuDevicePrimaryCtxRelease_v2(a.device);
      *static_cast<CUcontext*>(data) = context;
      return CUDA_SUCCESS;
    }
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned*>(data) = !known                         ? 0
                                      : a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST
                                                                     : CU_MEMORYTYPE_DEVICE;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<CUdeviceptr*>(data) = known ? ptxsim::driver::devicePointer(a.devicePointer) : 0;
      return CUDA_SUCCESS;
    // Memory CUDA does not know is the host's own: its host pointer is itself.
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void**>(data) = a.hostPointer; return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<unsigned*>(data) = a.type == cudaMemoryTypeManaged ? 1 : 0;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int*>(data) = known ? a.device : -2;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
      *static_cast<unsigned long long*>(data) = known ? bufferIdOf(ptr) : 0;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<unsigned*>(data) = 0; return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<unsigned*>(data) = known ? 1 : 0; return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
      *static_cast<unsigned*>(data) = 0;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
      *static_cast<unsigned*>(data) = known ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : 0;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: {
      CUdeviceptr base = 0;
      size_t size = 0;
      if (known) cuMemGetAddressRange_v2(&base, &size, ptr);
      bool wantsBase = attribute == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR ||
                       attribute == CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR;
      if (wantsBase) {
        *static_cast<CUdeviceptr*>(data) = base;
      } else {
        *static_cast<size_t*>(data) = size;
      }
      return CUDA_SUCCESS;
    }
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      *static_cast<CUmemoryPool*>(data) = nullptr;
      return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

// The place the calls before CUDA 12.2 name by a device ordinal, or
// CU_DEVICE_CPU for the host.
CUmemLocation locationOf(CUdevice device) {
  CUmemLocation location{};
  location.type = device == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  location.id = device == CU_DEVICE_CPU ? 0 : device;
  return location;
}

CUresult runtimeAttributes(CUdeviceptr ptr, cudaPointerAttributes& a) {
  return viaRuntime([&] { return cudaPointerGetAttributes(&a, pointer(ptr)); });
}

}  // namespace

DRIVER_EXPORT CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  if (data == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaPointerAttributes a{};
  if (CUresult r = runtimeAttributes(ptr, a); r != CUDA_SUCCESS) return r;
  if (a.type == cudaMemoryTypeUnregistered) return CUDA_ERROR_INVALID_VALUE;
  return attributeValue(attribute, a, ptr, data);
}

DRIVER_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes,
                                              void** data, CUdeviceptr ptr) {
  if (numAttributes != 0 && (attributes == nullptr || data == nullptr)) return CUDA_ERROR_INVALID_VALUE;
  cudaPointerAttributes a{};
  if (CUresult r = runtimeAttributes(ptr, a); r != CUDA_SUCCESS) return r;
  for (unsigned i = 0; i < numAttributes; ++i) {
    if (data[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
    if (CUresult r = attributeValue(attributes[i], a, ptr, data[i]); r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuPointerSetAttribute(const void* value, CUpointer_attribute attribute,
                                             CUdeviceptr ptr) {
  // Only SYNC_MEMOPS is settable; every copy of the simulator already synchronises.
  if (value == nullptr || attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) return CUDA_ERROR_INVALID_VALUE;
  cudaPointerAttributes a{};
  if (CUresult r = runtimeAttributes(ptr, a); r != CUDA_SUCCESS) return r;
  return a.type == cudaMemoryTypeUnregistered ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

// Managed memory. CUmemLocation and cudaMemLocation, and the advice and
// range attribute enums, are laid out and numbered alike.

DRIVER_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                                      CUmemLocation location) {
  return viaRuntime([&] {
    return cudaMemAdvise(pointer(devPtr), count, static_cast<cudaMemoryAdvise>(advice),
                         cudaMemLocation{static_cast<cudaMemLocationType>(location.type), location.id});
  });
}

DRIVER_EXPORT CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device) {
  return cuMemAdvise_v2(devPtr, count, advice, locationOf(device));
}

DRIVER_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                             unsigned int flags, CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemPrefetchAsync(pointer(devPtr), count,
                                cudaMemLocation{static_cast<cudaMemLocationType>(location.type), location.id},
                                flags, hStream);
  });
}

DRIVER_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                                  unsigned int flags, CUstream hStream) {
  return cuMemPrefetchAsync_v2(devPtr, count, location, flags, ptxsim::driver::perThread(hStream));
}

DRIVER_EXPORT CUresult cuMemRangeGetAttribute(void* data, size_t dataSize, CUmem_range_attribute attribute,
                                              CUdeviceptr devPtr, size_t count) {
  return viaRuntime([&] {
    return cudaMemRangeGetAttribute(data, dataSize, static_cast<cudaMemRangeAttribute>(attribute),
                                    pointer(devPtr), count);
  });
}

DRIVER_EXPORT CUresult cuMemRangeGetAttributes(void** data, size_t* dataSizes,
                                               CUmem_range_attribute* attributes, size_t numAttributes,
                                               CUdeviceptr devPtr, size_t count) {
  return viaRuntime([&] {
    return cudaMemRangeGetAttributes(data, dataSizes, reinterpret_cast<cudaMemRangeAttribute*>(attributes),
                                     numAttributes, pointer(devPtr), count);
  });
}

// The form before CUDA 12.2: a device ordinal (or CU_DEVICE_CPU) for the place.
DRIVER_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                          CUstream hStream) {
  return cuMemPrefetchAsync_v2(devPtr, count, locationOf(dstDevice), 0, hStream);
}
DRIVER_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                               CUstream hStream) {
  return cuMemPrefetchAsync(devPtr, count, dstDevice, ptxsim::driver::perThread(hStream));
}
