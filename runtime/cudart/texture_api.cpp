// Texture and surface objects: cudaCreate/Destroy/Get*Object*. The objects
// live in the simulated GPU's registry (sim/texture_objects.h); the 64-bit
// handle the kernel receives is the registry's.

#include <cstring>

#include "array_format.h"
#include "export.h"

using ptxsim::cudart::arrayOf;
using ptxsim::cudart::handleOf;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

namespace sim = ptxsim::sim;

// cudaDeviceProp::textureAlignment and texturePitchAlignment of an H100.
constexpr uint64_t kTextureAlignment = 512;
constexpr uint64_t kTexturePitchAlignment = 32;

cudaError_t viewOf(const cudaResourceDesc& d, sim::ResourceView& v) {
  if (d.flags != 0) return cudaErrorInvalidValue;
  auto& textures = shimState().device().gpu().textures();
  switch (d.resType) {
    case cudaResourceTypeArray:
      v.kind = sim::ResourceKind::Array;
      v.arrayHandle = handleOf(d.res.array.array);
      v.array = arrayOf(d.res.array.array);
      return v.array != nullptr ? cudaSuccess : cudaErrorInvalidResourceHandle;
    case cudaResourceTypeMipmappedArray:
      v.kind = sim::ResourceKind::MipmappedArray;
      v.arrayHandle = handleOf(d.res.mipmap.mipmap);
      v.mipmapped = textures.mipmappedArray(v.arrayHandle);
      return v.mipmapped != nullptr ? cudaSuccess : cudaErrorInvalidResourceHandle;
    case cudaResourceTypeLinear:
      v.kind = sim::ResourceKind::Linear;
      v.devPtr = handleOf(d.res.linear.devPtr);
      v.sizeInBytes = d.res.linear.sizeInBytes;
      if (!ptxsim::cudart::formatOf(d.res.linear.desc, v.format)) return cudaErrorInvalidChannelDescriptor;
      if (v.devPtr == 0 || v.devPtr % kTextureAlignment != 0 || v.sizeInBytes == 0) return cudaErrorInvalidValue;
      return cudaSuccess;
    case cudaResourceTypePitch2D:
      v.kind = sim::ResourceKind::Pitch2D;
      v.devPtr = handleOf(d.res.pitch2D.devPtr);
      v.width = d.res.pitch2D.width;
      v.height = d.res.pitch2D.height;
      v.pitchInBytes = d.res.pitch2D.pitchInBytes;
      if (!ptxsim::cudart::formatOf(d.res.pitch2D.desc, v.format)) return cudaErrorInvalidChannelDescriptor;
      if (v.devPtr == 0 || v.devPtr % kTextureAlignment != 0 || v.width == 0 || v.height == 0 ||
          v.pitchInBytes % kTexturePitchAlignment != 0 || v.width * v.format.bytes() > v.pitchInBytes) {
        return cudaErrorInvalidValue;
      }
      return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}

cudaResourceDesc descOf(const sim::ResourceView& v) {
  cudaResourceDesc d;
  std::memset(&d, 0, sizeof d);
  switch (v.kind) {
    case sim::ResourceKind::Array:
      d.resType = cudaResourceTypeArray;
      d.res.array.array = reinterpret_cast<cudaArray_t>(v.arrayHandle);
      break;
    case sim::ResourceKind::MipmappedArray:
      d.resType = cudaResourceTypeMipmappedArray;
      d.res.mipmap.mipmap = reinterpret_cast<cudaMipmappedArray_t>(v.arrayHandle);
      break;
    case sim::ResourceKind::Linear:
      d.resType = cudaResourceTypeLinear;
      d.res.linear.devPtr = reinterpret_cast<void*>(v.devPtr);
      d.res.linear.desc = ptxsim::cudart::descOf(v.format);
      d.res.linear.sizeInBytes = v.sizeInBytes;
      break;
    case sim::ResourceKind::Pitch2D:
      d.resType = cudaResourceTypePitch2D;
      d.res.pitch2D.devPtr = reinterpret_cast<void*>(v.devPtr);
      d.res.pitch2D.desc = ptxsim::cudart::descOf(v.format);
      d.res.pitch2D.width = v.width;
      d.res.pitch2D.height = v.height;
      d.res.pitch2D.pitchInBytes = v.pitchInBytes;
      break;
  }
  return d;
}

sim::AddressMode addressModeOf(cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeClamp: return sim::AddressMode::Clamp;
    case cudaAddressModeMirror: return sim::AddressMode::Mirror;
    case cudaAddressModeBorder: return sim::AddressMode::Border;
    default: return sim::AddressMode::Wrap;
  }
}

cudaTextureAddressMode addressModeOf(sim::AddressMode m) {
  switch (m) {
    case sim::AddressMode::Clamp: return cudaAddressModeClamp;
    case sim::AddressMode::Mirror: return cudaAddressModeMirror;
    case sim::AddressMode::Border: return cudaAddressModeBorder;
    default: return cudaAddressModeWrap;
  }
}

}  // namespace

CUDART_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                                  const cudaTextureDesc* pTexDesc,
                                                  const cudaResourceViewDesc* pResViewDesc) {
  std::lock_guard lock(shimState().mutex());
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  if (pResViewDesc != nullptr) {
    std::fprintf(stderr, "ptxsim: cudaCreateTextureObject with a resource view is not supported yet\n");
    return result(cudaErrorNotSupported);
  }
  sim::TextureObject t;
  if (cudaError_t e = viewOf(*pResDesc, t.resource); e != cudaSuccess) return result(e);
  const cudaTextureDesc& d = *pTexDesc;
  for (int i = 0; i < 3; ++i) {
    if (d.addressMode[i] < cudaAddressModeWrap || d.addressMode[i] > cudaAddressModeBorder) {
      return result(cudaErrorInvalidValue);
    }
    t.desc.addressMode[i] = addressModeOf(d.addressMode[i]);
  }
  if (d.filterMode > cudaFilterModeLinear || d.mipmapFilterMode > cudaFilterModeLinear ||
      d.readMode > cudaReadModeNormalizedFloat) {
    return result(cudaErrorInvalidValue);
  }
  const sim::ElementFormat& f = t.resource.elementFormat();
  // Linear filtering and normalized reads need values a filter can blend:
  // 32-bit integers cannot be read as normalized floats.
  if (d.readMode == cudaReadModeNormalizedFloat && (f.kind == sim::ChannelKind::Float || f.bitsPerChannel == 32)) {
    return result(cudaErrorInvalidValue);
  }
  if (d.filterMode == cudaFilterModeLinear && f.kind != sim::ChannelKind::Float &&
      d.readMode != cudaReadModeNormalizedFloat) {
    return result(cudaErrorInvalidValue);
  }
  t.desc.filterMode = d.filterMode == cudaFilterModeLinear ? sim::FilterMode::Linear : sim::FilterMode::Point;
  t.desc.readMode = d.readMode == cudaReadModeNormalizedFloat ? sim::ReadMode::NormalizedFloat
                                                              : sim::ReadMode::ElementType;
  t.desc.sRGB = d.sRGB != 0;
  for (int i = 0; i < 4; ++i) t.desc.borderColor[i] = d.borderColor[i];
  t.desc.normalizedCoords = d.normalizedCoords != 0;
  t.desc.maxAnisotropy = d.maxAnisotropy;
  t.desc.mipmapFilterMode = d.mipmapFilterMode == cudaFilterModeLinear ? sim::FilterMode::Linear
                                                                       : sim::FilterMode::Point;
  t.desc.mipmapLevelBias = d.mipmapLevelBias;
  t.desc.minMipmapLevelClamp = d.minMipmapLevelClamp;
  t.desc.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  t.desc.disableTrilinearOptimization = d.disableTrilinearOptimization != 0;
  t.desc.seamlessCubemap = d.seamlessCubemap != 0;
  *pTexObject = shimState().device().gpu().textures().createTexture(std::move(t));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  std::lock_guard lock(shimState().mutex());
  if (texObject == 0) return cudaSuccess;
  if (!shimState().device().gpu().textures().destroyTexture(texObject)) return result(cudaErrorInvalidValue);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc,
                                                           cudaTextureObject_t texObject) {
  std::lock_guard lock(shimState().mutex());
  if (pResDesc == nullptr) return result(cudaErrorInvalidValue);
  const sim::TextureObject* t = shimState().device().gpu().textures().texture(texObject);
  if (t == nullptr) return result(cudaErrorInvalidValue);
  *pResDesc = descOf(t->resource);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  std::lock_guard lock(shimState().mutex());
  if (pTexDesc == nullptr) return result(cudaErrorInvalidValue);
  const sim::TextureObject* t = shimState().device().gpu().textures().texture(texObject);
  if (t == nullptr) return result(cudaErrorInvalidValue);
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  const sim::TextureDesc& s = t->desc;
  for (int i = 0; i < 3; ++i) d.addressMode[i] = addressModeOf(s.addressMode[i]);
  d.filterMode = s.filterMode == sim::FilterMode::Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.readMode = s.readMode == sim::ReadMode::NormalizedFloat ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  d.sRGB = s.sRGB;
  for (int i = 0; i < 4; ++i) d.borderColor[i] = s.borderColor[i];
  d.normalizedCoords = s.normalizedCoords;
  d.maxAnisotropy = s.maxAnisotropy;
  d.mipmapFilterMode = s.mipmapFilterMode == sim::FilterMode::Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.mipmapLevelBias = s.mipmapLevelBias;
  d.minMipmapLevelClamp = s.minMipmapLevelClamp;
  d.maxMipmapLevelClamp = s.maxMipmapLevelClamp;
  d.disableTrilinearOptimization = s.disableTrilinearOptimization;
  d.seamlessCubemap = s.seamlessCubemap;
  *pTexDesc = d;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  std::lock_guard lock(shimState().mutex());
  if (pSurfObject == nullptr || pResDesc == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  if (pResDesc->resType != cudaResourceTypeArray) return result(cudaErrorInvalidValue);
  sim::SurfaceObject s;
  if (cudaError_t e = viewOf(*pResDesc, s.resource); e != cudaSuccess) return result(e);
  // CUDA 13 accepts an array without cudaArraySurfaceLoadStore here
  // (measured on an H100); surface accesses to it then work as well.
  *pSurfObject = shimState().device().gpu().textures().createSurface(std::move(s));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  std::lock_guard lock(shimState().mutex());
  if (surfObject == 0) return cudaSuccess;
  if (!shimState().device().gpu().textures().destroySurface(surfObject)) return result(cudaErrorInvalidValue);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc,
                                                           cudaSurfaceObject_t surfObject) {
  std::lock_guard lock(shimState().mutex());
  if (pResDesc == nullptr) return result(cudaErrorInvalidValue);
  const sim::SurfaceObject* s = shimState().device().gpu().textures().surface(surfObject);
  if (s == nullptr) return result(cudaErrorInvalidValue);
  *pResDesc = descOf(s->resource);
  return cudaSuccess;
}
