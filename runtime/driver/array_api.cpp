// Arrays, mipmapped arrays, texture and surface objects: the runtime's
// (a CUarray is a cudaArray_t), with the driver's descriptors (a format
// and a channel count) converted to the runtime's (bits per channel and a
// kind) and back.

#include <cstring>

#include "channel_format.h"
#include "driver_api.h"

using ptxsim::driver::channelFormat;
using ptxsim::driver::driverFormat;
using ptxsim::driver::viaRuntime;

namespace {

CUresult createArray(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR& d) {
  if (handle == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaChannelFormatDesc desc{};
  if (!channelFormat(d.Format, d.NumChannels, desc)) return CUDA_ERROR_INVALID_VALUE;
  // CUDA_ARRAY3D_* and cudaArray* flags have the same values.
  return viaRuntime([&] {
    return cudaMalloc3DArray(reinterpret_cast<cudaArray_t*>(handle), &desc,
                             cudaExtent{d.Width, d.Height, d.Depth}, d.Flags);
  });
}

CUresult describeArray(CUarray array, CUDA_ARRAY3D_DESCRIPTOR& d) {
  cudaChannelFormatDesc desc{};
  cudaExtent extent{};
  unsigned flags = 0;
  CUresult r = viaRuntime([&] { return cudaArrayGetInfo(&desc, &extent, &flags, reinterpret_cast<cudaArray_t>(array)); });
  if (r != CUDA_SUCCESS) return r;
  d = CUDA_ARRAY3D_DESCRIPTOR{};
  if (!driverFormat(desc, d.Format, d.NumChannels)) return CUDA_ERROR_INVALID_VALUE;
  d.Width = extent.width;
  d.Height = extent.height;
  d.Depth = extent.depth;
  d.Flags = flags;
  return CUDA_SUCCESS;
}

cudaResourceDesc resourceDesc(const CUDA_RESOURCE_DESC& r, bool& ok) {
  cudaResourceDesc out{};
  ok = true;
  // CUresourcetype and cudaResourceType number the kinds alike.
  out.resType = static_cast<cudaResourceType>(r.resType);
  switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: out.res.array.array = reinterpret_cast<cudaArray_t>(r.res.array.hArray); break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      out.res.mipmap.mipmap = reinterpret_cast<cudaMipmappedArray_t>(r.res.mipmap.hMipmappedArray);
      break;
    case CU_RESOURCE_TYPE_LINEAR:
      out.res.linear.devPtr = ptxsim::driver::pointer(r.res.linear.devPtr);
      ok = channelFormat(r.res.linear.format, r.res.linear.numChannels, out.res.linear.desc);
      out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    case CU_RESOURCE_TYPE_PITCH2D:
      out.res.pitch2D.devPtr = ptxsim::driver::pointer(r.res.pitch2D.devPtr);
      ok = channelFormat(r.res.pitch2D.format, r.res.pitch2D.numChannels, out.res.pitch2D.desc);
      out.res.pitch2D.width = r.res.pitch2D.width;
      out.res.pitch2D.height = r.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
    default: ok = false;
  }
  return out;
}

// Whether the resource holds integers that texture reads promote to
// normalised floats: 8- and 16-bit ones (floats and 32-bit integers are
// read as they are).
bool promotableResource(const cudaResourceDesc& r) {
  cudaChannelFormatDesc desc{};
  if (r.resType == cudaResourceTypeLinear) desc = r.res.linear.desc;
  if (r.resType == cudaResourceTypePitch2D) desc = r.res.pitch2D.desc;
  if (r.resType == cudaResourceTypeArray) cudaArrayGetInfo(&desc, nullptr, nullptr, r.res.array.array);
  if (r.resType == cudaResourceTypeMipmappedArray) {
    cudaArray_t level = nullptr;
    if (cudaGetMipmappedArrayLevel(&level, r.res.mipmap.mipmap, 0) == cudaSuccess) {
      cudaArrayGetInfo(&desc, nullptr, nullptr, level);
    }
  }
  return desc.f != cudaChannelFormatKindFloat && desc.x <= 16;
}

bool driverResourceDesc(const cudaResourceDesc& r, CUDA_RESOURCE_DESC& out) {
  out = CUDA_RESOURCE_DESC{};
  out.resType = static_cast<CUresourcetype>(r.resType);
  switch (r.resType) {
    case cudaResourceTypeArray: out.res.array.hArray = reinterpret_cast<CUarray>(r.res.array.array); return true;
    case cudaResourceTypeMipmappedArray:
      out.res.mipmap.hMipmappedArray = reinterpret_cast<CUmipmappedArray>(r.res.mipmap.mipmap);
      return true;
    case cudaResourceTypeLinear:
      out.res.linear.devPtr = ptxsim::driver::devicePointer(r.res.linear.devPtr);
      out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      return driverFormat(r.res.linear.desc, out.res.linear.format, out.res.linear.numChannels);
    case cudaResourceTypePitch2D:
      out.res.pitch2D.devPtr = ptxsim::driver::devicePointer(r.res.pitch2D.devPtr);
      out.res.pitch2D.width = r.res.pitch2D.width;
      out.res.pitch2D.height = r.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      return driverFormat(r.res.pitch2D.desc, out.res.pitch2D.format, out.res.pitch2D.numChannels);
    default: return false;
  }
}

cudaTextureDesc textureDesc(const CUDA_TEXTURE_DESC& t, const cudaResourceDesc& resource) {
  cudaTextureDesc out{};
  for (int i = 0; i < 3; ++i) out.addressMode[i] = static_cast<cudaTextureAddressMode>(t.addressMode[i]);
  out.filterMode = static_cast<cudaTextureFilterMode>(t.filterMode);
  // Narrow integers read as normalised floats unless CU_TRSF_READ_AS_INTEGER.
  out.readMode = (t.flags & CU_TRSF_READ_AS_INTEGER) == 0 && promotableResource(resource)
                     ? cudaReadModeNormalizedFloat
                     : cudaReadModeElementType;
  out.sRGB = (t.flags & CU_TRSF_SRGB) != 0;
  out.normalizedCoords = (t.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  out.disableTrilinearOptimization = (t.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
  out.seamlessCubemap = (t.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
  std::memcpy(out.borderColor, t.borderColor, sizeof out.borderColor);
  out.maxAnisotropy = t.maxAnisotropy;
  out.mipmapFilterMode = static_cast<cudaTextureFilterMode>(t.mipmapFilterMode);
  out.mipmapLevelBias = t.mipmapLevelBias;
  out.minMipmapLevelClamp = t.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  return out;
}

}  // namespace

DRIVER_EXPORT CUresult cuArrayCreate_v2(CUarray* pHandle, const CUDA_ARRAY_DESCRIPTOR* pAllocateArray) {
  if (pAllocateArray == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Width = pAllocateArray->Width;
  d.Height = pAllocateArray->Height;
  d.Format = pAllocateArray->Format;
  d.NumChannels = pAllocateArray->NumChannels;
  return createArray(pHandle, d);
}

DRIVER_EXPORT CUresult cuArray3DCreate_v2(CUarray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* pAllocateArray) {
  if (pAllocateArray == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return createArray(pHandle, *pAllocateArray);
}

DRIVER_EXPORT CUresult cuArrayDestroy(CUarray hArray) {
  return viaRuntime([&] { return cudaFreeArray(reinterpret_cast<cudaArray_t>(hArray)); });
}

DRIVER_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  if (pArrayDescriptor == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return describeArray(hArray, *pArrayDescriptor);
}

DRIVER_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  if (pArrayDescriptor == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  if (CUresult r = describeArray(hArray, d); r != CUDA_SUCCESS) return r;
  if (d.Depth != 0) return CUDA_ERROR_INVALID_HANDLE;  // a 3D array has no 2D descriptor
  pArrayDescriptor->Width = d.Width;
  pArrayDescriptor->Height = d.Height;
  pArrayDescriptor->Format = d.Format;
  pArrayDescriptor->NumChannels = d.NumChannels;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray* pHandle,
                                              const CUDA_ARRAY3D_DESCRIPTOR* pMipmappedArrayDesc,
                                              unsigned int numMipmapLevels) {
  if (pHandle == nullptr || pMipmappedArrayDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const CUDA_ARRAY3D_DESCRIPTOR& d = *pMipmappedArrayDesc;
  cudaChannelFormatDesc desc{};
  if (!channelFormat(d.Format, d.NumChannels, desc)) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    return cudaMallocMipmappedArray(reinterpret_cast<cudaMipmappedArray_t*>(pHandle), &desc,
                                    cudaExtent{d.Width, d.Height, d.Depth}, numMipmapLevels, d.Flags);
  });
}

DRIVER_EXPORT CUresult cuMipmappedArrayGetLevel(CUarray* pLevelArray, CUmipmappedArray hMipmappedArray,
                                                unsigned int level) {
  return viaRuntime([&] {
    return cudaGetMipmappedArrayLevel(reinterpret_cast<cudaArray_t*>(pLevelArray),
                                      reinterpret_cast<cudaMipmappedArray_const_t>(hMipmappedArray), level);
  });
}

DRIVER_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
  return viaRuntime(
      [&] { return cudaFreeMipmappedArray(reinterpret_cast<cudaMipmappedArray_t>(hMipmappedArray)); });
}

// Texture and surface objects.

DRIVER_EXPORT CUresult cuTexObjectCreate(CUtexObject* pTexObject, const CUDA_RESOURCE_DESC* pResDesc,
                                         const CUDA_TEXTURE_DESC* pTexDesc, const CUDA_RESOURCE_VIEW_DESC* pResViewDesc) {
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (pResViewDesc != nullptr) return CUDA_ERROR_NOT_SUPPORTED;  // resource views: not simulated
  bool ok = false;
  cudaResourceDesc resource = resourceDesc(*pResDesc, ok);
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    cudaTextureDesc texture = textureDesc(*pTexDesc, resource);
    return cudaCreateTextureObject(pTexObject, &resource, &texture, nullptr);
  });
}

DRIVER_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUtexObject texObject) {
  if (pResDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaResourceDesc resource{};
  CUresult r = viaRuntime([&] { return cudaGetTextureObjectResourceDesc(&resource, texObject); });
  if (r != CUDA_SUCCESS) return r;
  return driverResourceDesc(resource, *pResDesc) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRIVER_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* pTexDesc, CUtexObject texObject) {
  if (pTexDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaTextureDesc t{};
  CUresult r = viaRuntime([&] { return cudaGetTextureObjectTextureDesc(&t, texObject); });
  if (r != CUDA_SUCCESS) return r;
  *pTexDesc = CUDA_TEXTURE_DESC{};
  for (int i = 0; i < 3; ++i) pTexDesc->addressMode[i] = static_cast<CUaddress_mode>(t.addressMode[i]);
  pTexDesc->filterMode = static_cast<CUfilter_mode>(t.filterMode);
  pTexDesc->flags = (t.readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
                    (t.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (t.sRGB ? CU_TRSF_SRGB : 0) |
                    (t.disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
                    (t.seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
  pTexDesc->maxAnisotropy = t.maxAnisotropy;
  pTexDesc->mipmapFilterMode = static_cast<CUfilter_mode>(t.mipmapFilterMode);
  pTexDesc->mipmapLevelBias = t.mipmapLevelBias;
  pTexDesc->minMipmapLevelClamp = t.minMipmapLevelClamp;
  pTexDesc->maxMipmapLevelClamp = t.maxMipmapLevelClamp;
  std::memcpy(pTexDesc->borderColor, t.borderColor, sizeof t.borderColor);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuTexObjectDestroy(CUtexObject texObject) {
  return viaRuntime([&] { return cudaDestroyTextureObject(texObject); });
}

DRIVER_EXPORT CUresult cuSurfObjectCreate(CUsurfObject* pSurfObject, const CUDA_RESOURCE_DESC* pResDesc) {
  if (pSurfObject == nullptr || pResDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  bool ok = false;
  cudaResourceDesc resource = resourceDesc(*pResDesc, ok);
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaCreateSurfaceObject(pSurfObject, &resource); });
}

DRIVER_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUsurfObject surfObject) {
  if (pResDesc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaResourceDesc resource{};
  CUresult r = viaRuntime([&] { return cudaGetSurfaceObjectResourceDesc(&resource, surfObject); });
  if (r != CUDA_SUCCESS) return r;
  return driverResourceDesc(resource, *pResDesc) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRIVER_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject surfObject) {
  return viaRuntime([&] { return cudaDestroySurfaceObject(surfObject); });
}
