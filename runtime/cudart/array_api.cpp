// CUDA arrays: allocation (plain, 3D, layered, cubemap, mipmapped), their
// descriptors, and copies between arrays, host and device memory. An array
// lives in simulated device memory (sim/texture_objects.h gives the layout),
// so every copy is a set of row copies through the Device.

#include <algorithm>
#include <cstring>

#include "array_format.h"
#include "export.h"
#include "memory_ops.h"

using ptxsim::cudart::arrayOf;
using ptxsim::cudart::handleOf;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace ptxsim::cudart {

bool formatOf(const cudaChannelFormatDesc& d, sim::ElementFormat& out) {
  int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned channels = 0;
  while (channels < 4 && bits[channels] != 0) ++channels;
  for (unsigned c = channels; c < 4; ++c) {
    if (bits[c] != 0) return false;  // a gap
  }
  for (unsigned c = 1; c < channels; ++c) {
    if (bits[c] != bits[0]) return false;
  }
  if (channels == 0 || bits[0] < 0) return false;
  out.channels = static_cast<uint8_t>(channels);
  out.bitsPerChannel = static_cast<uint8_t>(bits[0]);
  switch (d.f) {
    case cudaChannelFormatKindSigned: out.kind = sim::ChannelKind::Signed; break;
    case cudaChannelFormatKindUnsigned: out.kind = sim::ChannelKind::Unsigned; break;
    case cudaChannelFormatKindFloat: out.kind = sim::ChannelKind::Float; break;
    default: return false;
  }
  return bits[0] <= 32 && out.valid();
}

cudaChannelFormatDesc descOf(const sim::ElementFormat& f) {
  cudaChannelFormatDesc d{};
  int b = f.bitsPerChannel;
  d.x = b;
  d.y = f.channels >= 2 ? b : 0;
  d.z = f.channels >= 4 ? b : 0;
  d.w = f.channels >= 4 ? b : 0;
  d.f = f.kind == sim::ChannelKind::Signed     ? cudaChannelFormatKindSigned
        : f.kind == sim::ChannelKind::Unsigned ? cudaChannelFormatKindUnsigned
                                               : cudaChannelFormatKindFloat;
  return d;
}

}  // namespace ptxsim::cudart

namespace {

// cuda_runtime_api.h has no make_cudaExtent (driver_functions.h, for nvcc).
cudaExtent extentOf(size_t w, size_t h, size_t d) {
  cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

constexpr unsigned kKnownFlags =
    cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather;

// Validates and allocates; the handle is the cudaArray_t (or
// cudaMipmappedArray_t) the program sees.
cudaError_t allocate(const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned flags, unsigned levels,
                     uint64_t& handle) {
  ptxsim::sim::ArrayShape shape;
  if (desc == nullptr) return cudaErrorInvalidValue;
  if (!ptxsim::cudart::formatOf(*desc, shape.format)) return cudaErrorInvalidChannelDescriptor;
  if ((flags & ~kKnownFlags) != 0) return cudaErrorInvalidValue;
  shape.width = extent.width;
  shape.height = extent.height;
  shape.depth = extent.depth;
  shape.flags.layered = (flags & cudaArrayLayered) != 0;
  shape.flags.cubemap = (flags & cudaArrayCubemap) != 0;
  shape.flags.surfaceLoadStore = (flags & cudaArraySurfaceLoadStore) != 0;
  shape.flags.textureGather = (flags & cudaArrayTextureGather) != 0;
  shape.levels = levels;
  // Texture gather reads 2D arrays only.
  if (shape.flags.textureGather && (extent.height == 0 || (extent.depth != 0 && !shape.flags.layered))) {
    return cudaErrorInvalidValue;
  }
  // H100 limits (cudaDeviceProp): 3D 16384 per side, 2D 131072 x 65536,
  // layered 2D 32768 x 32768 x 2048, cubemaps 32768.
  uint64_t w = extent.width, h = extent.height, d = extent.depth;
  if (shape.flags.cubemap ? w > 32768 || (shape.flags.layered && d > 6 * 2046)
      : shape.flags.layered ? w > 32768 || h > 32768 || d > 2048
      : d != 0              ? w > 16384 || h > 16384 || d > 16384
                            : w > 131072 || h > 65536) {
    return cudaErrorInvalidValue;
  }
  std::string error;
  handle = shimState().device().gpu().textures().createArray(shape, error);
  return handle == 0 ? cudaErrorInvalidValue : cudaSuccess;
}

// One side of a copy: device memory (an array or a pointer CUDA knows) or
// host memory, with its row and slice pitches.
struct Side {
  bool device = false;
  uint64_t address = 0;  // of the first byte copied
  uint64_t pitch = 0;
  uint64_t slice = 0;
};

bool isDevicePointer(const void* p) {
  const ptxsim::memory::Allocation* a = shimState().device().allocationAt(handleOf(p));
  return a != nullptr && a->host == nullptr;
}

// An array side at byte offset x, row y, slice (or layer) z, for a box of
// widthBytes x height x depth; cudaErrorInvalidValue when it does not fit.
cudaError_t arraySide(cudaArray_const_t array, uint64_t x, uint64_t y, uint64_t z, uint64_t widthBytes,
                      uint64_t height, uint64_t depth, Side& out) {
  auto a = arrayOf(array);
  if (a == nullptr) return cudaErrorInvalidResourceHandle;
  uint64_t slices = a->depth * a->layers;
  if (x + widthBytes > a->rowBytes() || y + height > a->height || z + depth > slices) return cudaErrorInvalidValue;
  out = {true, a->base + z * a->sliceBytes() + y * a->rowBytes() + x, a->rowBytes(), a->sliceBytes()};
  return cudaSuccess;
}

Side pointerSide(const void* p, uint64_t pitch, uint64_t slice) {
  return {isDevicePointer(p), handleOf(p), pitch, slice};
}

// Whether the sides agree with the copy's kind, as cudaMemcpy checks.
bool kindFits(const Side& src, const Side& dst, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyDefault || kind == cudaMemcpyHostToHost) return true;
  bool wantDst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool wantSrc = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  return (!wantDst || dst.device) && (!wantSrc || src.device);
}

cudaError_t copyBox(const Side& src, const Side& dst, uint64_t widthBytes, uint64_t height, uint64_t depth,
                    cudaMemcpyKind kind) {
  ptxsim::cudart::ShimState& s = shimState();
  if (s.sticky() != cudaSuccess) return s.sticky();
  if (kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (!kindFits(src, dst, kind)) return cudaErrorInvalidValue;
  if (widthBytes > src.pitch || widthBytes > dst.pitch) return cudaErrorInvalidPitchValue;
  ptxsim::Device& d = s.device();
  const ptxsim::cudart::TransferKind transfer =
      s.transferKind(reinterpret_cast<const void*>(dst.address), reinterpret_cast<const void*>(src.address));
  try {
    for (uint64_t z = 0; z < depth; ++z) {
      for (uint64_t y = 0; y < height; ++y) {
        uint64_t from = src.address + z * src.slice + y * src.pitch;
        uint64_t to = dst.address + z * dst.slice + y * dst.pitch;
        if (src.device && dst.device) {
          d.copyOnDevice(to, from, widthBytes);
        } else if (dst.device) {
          d.copyToDevice(to, reinterpret_cast<const void*>(from), widthBytes);
        } else if (src.device) {
          d.copyToHost(reinterpret_cast<void*>(to), from, widthBytes);
        } else {
          std::memmove(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), widthBytes);
        }
      }
    }
  } catch (const ptxsim::Error& e) {
    std::fprintf(stderr, "ptxsim: error: %s\n", e.what());
    return cudaErrorInvalidValue;
  }
  s.transferred(transfer, widthBytes * height * depth);
  d.synchronize();
  return cudaSuccess;
}

uint64_t elementBytes(cudaArray_const_t a) {
  auto array = arrayOf(a);
  return array != nullptr ? array->format.bytes() : 1;
}

cudaError_t toArray2D(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                      size_t width, size_t height, cudaMemcpyKind kind) {
  if (width == 0 || height == 0) return cudaSuccess;
  if (src == nullptr) return cudaErrorInvalidValue;
  Side d;
  if (cudaError_t e = arraySide(dst, wOffset, hOffset, 0, width, height, 1, d); e != cudaSuccess) return e;
  return copyBox(pointerSide(src, spitch, 0), d, width, height, 1, kind);
}

cudaError_t fromArray2D(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                        size_t width, size_t height, cudaMemcpyKind kind) {
  if (width == 0 || height == 0) return cudaSuccess;
  if (dst == nullptr) return cudaErrorInvalidValue;
  Side s;
  if (cudaError_t e = arraySide(src, wOffset, hOffset, 0, width, height, 1, s); e != cudaSuccess) return e;
  return copyBox(s, pointerSide(dst, dpitch, 0), width, height, 1, kind);
}

// cudaMemcpyToArray's linear form: `count` bytes from (wOffset, hOffset),
// continuing row after row.
cudaError_t linearArrayCopy(cudaArray_const_t array, size_t wOffset, size_t hOffset, void* host, size_t count,
                            cudaMemcpyKind kind, bool toArray) {
  auto a = arrayOf(array);
  if (a == nullptr) return cudaErrorInvalidResourceHandle;
  uint64_t start = hOffset * a->rowBytes() + wOffset;
  if (wOffset > a->rowBytes() || start + count > a->bytes()) return cudaErrorInvalidValue;
  Side arraySide{true, a->base + start, count, count};
  Side other = pointerSide(host, count, count);
  return toArray ? copyBox(other, arraySide, count, 1, 1, kind) : copyBox(arraySide, other, count, 1, 1, kind);
}

cudaError_t copy3D(const cudaMemcpy3DParms* p) {
  if (p == nullptr) return cudaErrorInvalidValue;
  bool srcArray = p->srcArray != nullptr, dstArray = p->dstArray != nullptr;
  if (srcArray == (p->srcPtr.ptr != nullptr) || dstArray == (p->dstPtr.ptr != nullptr)) return cudaErrorInvalidValue;
  // Widths and x positions count elements of an array side (either one),
  // bytes when both sides are pointers.
  uint64_t unit = srcArray ? elementBytes(p->srcArray) : dstArray ? elementBytes(p->dstArray) : 1;
  uint64_t widthBytes = p->extent.width * unit, height = p->extent.height, depth = p->extent.depth;
  if (widthBytes == 0 || height == 0 || depth == 0) return cudaSuccess;
  Side s, d;
  if (srcArray) {
    cudaError_t e = arraySide(p->srcArray, p->srcPos.x * unit, p->srcPos.y, p->srcPos.z, widthBytes, height, depth, s);
    if (e != cudaSuccess) return e;
  } else {
    const cudaPitchedPtr& q = p->srcPtr;
    uint64_t slice = q.pitch * q.ysize;
    s = pointerSide(static_cast<const char*>(q.ptr) + p->srcPos.z * slice + p->srcPos.y * q.pitch + p->srcPos.x * unit,
                    q.pitch, slice);
  }
  if (dstArray) {
    cudaError_t e = arraySide(p->dstArray, p->dstPos.x * unit, p->dstPos.y, p->dstPos.z, widthBytes, height, depth, d);
    if (e != cudaSuccess) return e;
  } else {
    const cudaPitchedPtr& q = p->dstPtr;
    uint64_t slice = q.pitch * q.ysize;
    d = pointerSide(static_cast<const char*>(q.ptr) + p->dstPos.z * slice + p->dstPos.y * q.pitch + p->dstPos.x * unit,
                    q.pitch, slice);
  }
  if (srcArray && dstArray && elementBytes(p->srcArray) != elementBytes(p->dstArray)) return cudaErrorInvalidValue;
  return copyBox(s, d, widthBytes, height, depth, p->kind);
}

}  // namespace

namespace ptxsim::cudart {

cudaError_t copyMemory3D(const cudaMemcpy3DParms* params) { return copy3D(params); }

}  // namespace ptxsim::cudart

CUDART_EXPORT cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

CUDART_EXPORT cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                                          size_t height, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (array == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  // Layered and cubemap arrays need cudaMalloc3DArray.
  if ((flags & (cudaArrayLayered | cudaArrayCubemap)) != 0 || width == 0) return result(cudaErrorInvalidValue);
  uint64_t handle = 0;
  cudaError_t e = allocate(desc, extentOf(width, height, 0), flags, 1, handle);
  if (e != cudaSuccess) return result(e);
  *array = reinterpret_cast<cudaArray_t>(handle);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                            unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (array == nullptr || extent.width == 0) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  uint64_t handle = 0;
  cudaError_t e = allocate(desc, extent, flags, 1, handle);
  if (e != cudaSuccess) return result(e);
  *array = reinterpret_cast<cudaArray_t>(handle);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                                   const cudaChannelFormatDesc* desc, cudaExtent extent,
                                                   unsigned int numLevels, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (mipmappedArray == nullptr || extent.width == 0 || numLevels == 0) return result(cudaErrorInvalidValue);
  if (shimState().sticky() != cudaSuccess) return shimState().sticky();
  // No more levels than the largest dimension has halvings.
  bool layers = (flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
  uint64_t largest = std::max<uint64_t>({extent.width, extent.height, layers ? 0 : extent.depth});
  unsigned maxLevels = 1;
  while ((largest >> maxLevels) != 0) ++maxLevels;
  if (numLevels > maxLevels) return result(cudaErrorInvalidValue);
  uint64_t handle = 0;
  cudaError_t e = allocate(desc, extent, flags, numLevels, handle);
  if (e != cudaSuccess) return result(e);
  *mipmappedArray = reinterpret_cast<cudaMipmappedArray_t>(handle);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray,
                                                     cudaMipmappedArray_const_t mipmappedArray, unsigned int level) {
  std::lock_guard lock(shimState().mutex());
  if (levelArray == nullptr) return result(cudaErrorInvalidValue);
  auto m = shimState().device().gpu().textures().mipmappedArray(handleOf(mipmappedArray));
  if (m == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (level >= m->levelHandles.size()) return result(cudaErrorInvalidValue);
  *levelArray = reinterpret_cast<cudaArray_t>(m->levelHandles[level]);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  std::lock_guard lock(shimState().mutex());
  if (mipmappedArray == nullptr) return cudaSuccess;
  if (!shimState().device().gpu().textures().destroyMipmappedArray(handleOf(mipmappedArray))) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFreeArray(cudaArray_t array) {
  std::lock_guard lock(shimState().mutex());
  if (array == nullptr) return cudaSuccess;
  if (!shimState().device().gpu().textures().destroyArray(handleOf(array))) return result(cudaErrorInvalidValue);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  std::lock_guard lock(shimState().mutex());
  if (desc == nullptr) return result(cudaErrorInvalidValue);
  auto a = arrayOf(array);
  if (a == nullptr) return result(cudaErrorInvalidResourceHandle);
  *desc = ptxsim::cudart::descOf(a->format);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                                           cudaArray_t array) {
  std::lock_guard lock(shimState().mutex());
  auto a = arrayOf(array);
  if (a == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (desc != nullptr) *desc = ptxsim::cudart::descOf(a->format);
  if (extent != nullptr) {
    auto e = a->extent();
    *extent = extentOf(e[0], e[1], e[2]);
  }
  if (flags != nullptr) {
    *flags = (a->flags.layered ? cudaArrayLayered : 0) | (a->flags.cubemap ? cudaArrayCubemap : 0) |
             (a->flags.surfaceLoadStore ? cudaArraySurfaceLoadStore : 0) |
             (a->flags.textureGather ? cudaArrayTextureGather : 0);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                              size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                                   size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                                   cudaStream_t) {
  std::lock_guard lock(shimState().mutex());
  return result(toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                     size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                                     cudaStream_t) {
  std::lock_guard lock(shimState().mutex());
  return result(fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                            size_t count, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  if (count == 0) return cudaSuccess;
  if (src == nullptr) return result(cudaErrorInvalidValue);
  return result(linearArrayCopy(dst, wOffset, hOffset, const_cast<void*>(src), count, kind, true));
}

CUDART_EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                                 size_t count, cudaMemcpyKind kind, cudaStream_t) {
  std::lock_guard lock(shimState().mutex());
  if (count == 0) return cudaSuccess;
  if (src == nullptr) return result(cudaErrorInvalidValue);
  return result(linearArrayCopy(dst, wOffset, hOffset, const_cast<void*>(src), count, kind, true));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                              size_t count, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  if (count == 0) return cudaSuccess;
  if (dst == nullptr) return result(cudaErrorInvalidValue);
  return result(linearArrayCopy(src, wOffset, hOffset, dst, count, kind, false));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                   size_t count, cudaMemcpyKind kind, cudaStream_t) {
  std::lock_guard lock(shimState().mutex());
  if (count == 0) return cudaSuccess;
  if (dst == nullptr) return result(cudaErrorInvalidValue);
  return result(linearArrayCopy(src, wOffset, hOffset, dst, count, kind, false));
}

CUDART_EXPORT cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                 cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                 size_t count, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  if (count == 0) return cudaSuccess;
  auto s = arrayOf(src), d = arrayOf(dst);
  if (s == nullptr || d == nullptr) return result(cudaErrorInvalidResourceHandle);
  uint64_t from = hOffsetSrc * s->rowBytes() + wOffsetSrc, to = hOffsetDst * d->rowBytes() + wOffsetDst;
  if (from + count > s->bytes() || to + count > d->bytes()) return result(cudaErrorInvalidValue);
  Side a{true, s->base + from, count, count}, b{true, d->base + to, count, count};
  return result(copyBox(a, b, count, 1, 1, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t width, size_t height, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  if (width == 0 || height == 0) return cudaSuccess;
  Side s, d;
  if (cudaError_t e = arraySide(src, wOffsetSrc, hOffsetSrc, 0, width, height, 1, s); e != cudaSuccess) {
    return result(e);
  }
  if (cudaError_t e = arraySide(dst, wOffsetDst, hOffsetDst, 0, width, height, 1, d); e != cudaSuccess) {
    return result(e);
  }
  return result(copyBox(s, d, width, height, 1, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  std::lock_guard lock(shimState().mutex());
  return result(copy3D(p));
}

CUDART_EXPORT cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  if (p == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::cudart::CopyOperation copy;
  copy.params = *p;
  return result(ptxsim::cudart::issue(stream, copy, lock));
}
