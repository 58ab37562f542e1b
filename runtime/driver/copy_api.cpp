// 2D and 3D copies (CUDA_MEMCPY2D/3D: host, device, unified memory and
// arrays), 2D fills, and the per-thread default stream forms of the plain
// copies, over the runtime's cudaMemcpy3D and cudaMemset2D.

#include <vector>

#include "copy_params.h"
#include "driver_api.h"

using ptxsim::driver::devicePointer;
using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

// One end of a copy, as CUDA_MEMCPY2D and CUDA_MEMCPY3D describe it.
struct End {
  CUmemorytype type;
  const void* host;
  CUdeviceptr device;
  CUarray array;
  size_t xInBytes, y, z, pitch, height;
};

size_t elementBytes(CUarray array) {
  cudaChannelFormatDesc desc{};
  if (cudaArrayGetInfo(&desc, nullptr, nullptr, reinterpret_cast<cudaArray_t>(array)) != cudaSuccess) return 0;
  return static_cast<size_t>(desc.x + desc.y + desc.z + desc.w) / 8;
}

// Sets one end of the runtime's parameters; false for a bad end.
bool setEnd(const End& e, size_t widthInBytes, size_t rows, cudaArray_t& array, cudaPos& position,
            cudaPitchedPtr& memory, size_t& arrayElementBytes) {
  if (e.type == CU_MEMORYTYPE_ARRAY) {
    arrayElementBytes = elementBytes(e.array);
    if (arrayElementBytes == 0 || e.xInBytes % arrayElementBytes != 0) return false;
    array = reinterpret_cast<cudaArray_t>(e.array);
    position = cudaPos{e.xInBytes / arrayElementBytes, e.y, e.z};
    return true;
  }
  void* p = e.type == CU_MEMORYTYPE_HOST ? const_cast<void*>(e.host) : pointer(e.device);
  if (e.type != CU_MEMORYTYPE_HOST && e.type != CU_MEMORYTYPE_DEVICE && e.type != CU_MEMORYTYPE_UNIFIED) return false;
  // A pitch (or height) of 0 is allowed where it is not used: one row (or
  // one slice). The runtime wants them whole.
  size_t pitch = e.pitch != 0 ? e.pitch : e.xInBytes + widthInBytes;
  memory = cudaPitchedPtr{p, pitch, widthInBytes, e.height != 0 ? e.height : e.y + rows};
  position = cudaPos{e.xInBytes, e.y, e.z};
  return true;
}

cudaMemcpyKind kindOf(CUmemorytype src, CUmemorytype dst) {
  if (src == CU_MEMORYTYPE_UNIFIED || dst == CU_MEMORYTYPE_UNIFIED) return cudaMemcpyDefault;
  bool fromHost = src == CU_MEMORYTYPE_HOST, toHost = dst == CU_MEMORYTYPE_HOST;
  if (fromHost) return toHost ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice;
  return toHost ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
}

cudaError_t toRuntime(const End& src, const End& dst, size_t widthInBytes, size_t height, size_t depth,
                      cudaMemcpy3DParms& p) {
  p = cudaMemcpy3DParms{};
  size_t srcElement = 0, dstElement = 0;
  if (!setEnd(src, widthInBytes, height, p.srcArray, p.srcPos, p.srcPtr, srcElement) ||
      !setEnd(dst, widthInBytes, height, p.dstArray, p.dstPos, p.dstPtr, dstElement)) {
    return cudaErrorInvalidValue;
  }
  // With an array at either end the runtime counts widths in elements.
  size_t element = srcElement != 0 ? srcElement : dstElement;
  if (element != 0 && widthInBytes % element != 0) return cudaErrorInvalidValue;
  p.extent = cudaExtent{element != 0 ? widthInBytes / element : widthInBytes, height, depth};
  p.kind = kindOf(src.type, dst.type);
  return cudaSuccess;
}

CUresult copy3D(const End& src, const End& dst, size_t widthInBytes, size_t height, size_t depth, CUstream stream,
                bool async) {
  return viaRuntime([&] {
    cudaMemcpy3DParms p{};
    if (cudaError_t e = toRuntime(src, dst, widthInBytes, height, depth, p); e != cudaSuccess) return e;
    return async ? cudaMemcpy3DAsync(&p, stream) : cudaMemcpy3D(&p);
  });
}

End endOf3D(const CUDA_MEMCPY3D& c, bool source) {
  return source ? End{c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray, c.srcXInBytes, c.srcY, c.srcZ, c.srcPitch,
                      c.srcHeight}
                : End{c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray, c.dstXInBytes, c.dstY, c.dstZ, c.dstPitch,
                      c.dstHeight};
}

CUresult copy2D(const CUDA_MEMCPY2D* c, CUstream stream, bool async) {
  if (c == nullptr) return CUDA_ERROR_INVALID_VALUE;
  End src{c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, 0, c->srcPitch,
          c->srcY + c->Height};
  End dst{c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, 0, c->dstPitch,
          c->dstY + c->Height};
  return copy3D(src, dst, c->WidthInBytes, c->Height, 1, stream, async);
}

CUresult copy3D(const CUDA_MEMCPY3D* c, CUstream stream, bool async) {
  if (c == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (c->srcLOD != 0 || c->dstLOD != 0) return CUDA_ERROR_INVALID_VALUE;  // reserved: must be 0
  return copy3D(endOf3D(*c, true), endOf3D(*c, false), c->WidthInBytes, c->Height, c->Depth, stream, async);
}

// cuMemsetD2D16/32: each row is a 1D fill (cuMemsetD16/32) of `width`
// elements.
template <typename Element, CUresult (*fillRow)(CUdeviceptr, Element, size_t)>
CUresult fillRows(CUdeviceptr dst, size_t pitch, Element value, size_t width, size_t height) {
  if (dst % sizeof(Element) != 0 || pitch % sizeof(Element) != 0) return CUDA_ERROR_INVALID_VALUE;
  for (size_t y = 0; y < height; ++y) {
    if (CUresult r = fillRow(dst + y * pitch, value, width); r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

}  // namespace

namespace ptxsim::driver {

cudaError_t toRuntimeCopy(const CUDA_MEMCPY3D& copy, cudaMemcpy3DParms& params) {
  return toRuntime(endOf3D(copy, true), endOf3D(copy, false), copy.WidthInBytes, copy.Height, copy.Depth, params);
}

CUDA_MEMCPY3D toDriverCopy(const cudaMemcpy3DParms& p) {
  // A memory end is of the kind the copy names; with cudaMemcpyDefault,
  // unified (told apart by address). An array end's offsets are in
  // elements, a memory end's in bytes.
  auto endOf = [&](cudaArray_t array, const cudaPos& position, const cudaPitchedPtr& memory, bool host,
                   size_t& element) {
    End e{};
    e.y = position.y, e.z = position.z;
    if (array != nullptr) {
      element = elementBytes(reinterpret_cast<CUarray>(array));
      e.type = CU_MEMORYTYPE_ARRAY;
      e.array = reinterpret_cast<CUarray>(array);
      e.xInBytes = position.x * element;
      return e;
    }
    e.type = p.kind == cudaMemcpyDefault ? CU_MEMORYTYPE_UNIFIED : host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    if (e.type == CU_MEMORYTYPE_HOST) {
      e.host = memory.ptr;
    } else {
      e.device = devicePointer(memory.ptr);
    }
    e.xInBytes = position.x, e.pitch = memory.pitch, e.height = memory.ysize;
    return e;
  };
  size_t srcElement = 0, dstElement = 0;
  End src = endOf(p.srcArray, p.srcPos, p.srcPtr,
                  p.kind == cudaMemcpyHostToDevice || p.kind == cudaMemcpyHostToHost, srcElement);
  End dst = endOf(p.dstArray, p.dstPos, p.dstPtr,
                  p.kind == cudaMemcpyDeviceToHost || p.kind == cudaMemcpyHostToHost, dstElement);
  CUDA_MEMCPY3D c{};
  c.srcXInBytes = src.xInBytes, c.srcY = src.y, c.srcZ = src.z, c.srcMemoryType = src.type;
  c.srcHost = src.host, c.srcDevice = src.device, c.srcArray = src.array;
  c.srcPitch = src.pitch, c.srcHeight = src.height;
  c.dstXInBytes = dst.xInBytes, c.dstY = dst.y, c.dstZ = dst.z, c.dstMemoryType = dst.type;
  c.dstHost = const_cast<void*>(dst.host), c.dstDevice = dst.device, c.dstArray = dst.array;
  c.dstPitch = dst.pitch, c.dstHeight = dst.height;
  size_t element = srcElement != 0 ? srcElement : dstElement;
  c.WidthInBytes = element != 0 ? p.extent.width * element : p.extent.width;
  c.Height = p.extent.height;
  c.Depth = p.extent.depth;
  return c;
}

}  // namespace ptxsim::driver

DRIVER_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy) { return copy2D(pCopy, nullptr, false); }
DRIVER_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy) { return copy2D(pCopy, nullptr, false); }
DRIVER_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy2D(pCopy, hStream, true);
}
DRIVER_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy) { return copy3D(pCopy, nullptr, false); }
DRIVER_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy3D(pCopy, hStream, true);
}

DRIVER_ALIAS(cuMemcpy2D_v2_ptds, cuMemcpy2D_v2);
DRIVER_ALIAS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned_v2);
DRIVER_ALIAS(cuMemcpy3D_v2_ptds, cuMemcpy3D_v2);
DRIVER_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy2D(pCopy, ptxsim::driver::perThread(hStream), true);
}
DRIVER_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy3D(pCopy, ptxsim::driver::perThread(hStream), true);
}

DRIVER_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                       size_t Height) {
  return viaRuntime([&] { return cudaMemset2D(pointer(dstDevice), dstPitch, uc, Width, Height); });
}
DRIVER_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                         size_t Height, CUstream hStream) {
  return viaRuntime([&] { return cudaMemset2DAsync(pointer(dstDevice), dstPitch, uc, Width, Height, hStream); });
}
DRIVER_EXPORT CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                        size_t Height) {
  return fillRows<unsigned short, cuMemsetD16_v2>(dstDevice, dstPitch, us, Width, Height);
}
DRIVER_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                        size_t Height) {
  return fillRows<unsigned int, cuMemsetD32_v2>(dstDevice, dstPitch, ui, Width, Height);
}
DRIVER_ALIAS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2);
DRIVER_ALIAS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2);
DRIVER_ALIAS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2);
DRIVER_EXPORT CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                              size_t Height, CUstream hStream) {
  return cuMemsetD2D8Async(dstDevice, dstPitch, uc, Width, Height, ptxsim::driver::perThread(hStream));
}

// Copies to, from and between arrays, 1D at byte offsets (any bytes: an
// H100's driver takes a copy of 8 bytes at offset 2 into a float array),
// over the runtime's byte-addressed array copies.

namespace {

cudaArray_t runtimeArray(CUarray array) { return reinterpret_cast<cudaArray_t>(array); }

}  // namespace

DRIVER_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void* srcHost, size_t ByteCount) {
  return viaRuntime([&] {
    return cudaMemcpyToArray(runtimeArray(dstArray), dstOffset, 0, srcHost, ByteCount, cudaMemcpyHostToDevice);
  });
}
DRIVER_EXPORT CUresult cuMemcpyAtoH_v2(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return viaRuntime([&] {
    return cudaMemcpyFromArray(dstHost, runtimeArray(srcArray), srcOffset, 0, ByteCount, cudaMemcpyDeviceToHost);
  });
}
DRIVER_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return viaRuntime([&] {
    return cudaMemcpyFromArray(pointer(dstDevice), runtimeArray(srcArray), srcOffset, 0, ByteCount,
                               cudaMemcpyDeviceToDevice);
  });
}
DRIVER_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount) {
  return viaRuntime([&] {
    return cudaMemcpyToArray(runtimeArray(dstArray), dstOffset, 0, pointer(srcDevice), ByteCount,
                             cudaMemcpyDeviceToDevice);
  });
}
DRIVER_EXPORT CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                       size_t ByteCount) {
  return viaRuntime([&] {
    return cudaMemcpyArrayToArray(runtimeArray(dstArray), dstOffset, 0, runtimeArray(srcArray), srcOffset, 0,
                                  ByteCount, cudaMemcpyDeviceToDevice);
  });
}
DRIVER_EXPORT CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void* srcHost, size_t ByteCount,
                                            CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemcpyToArrayAsync(runtimeArray(dstArray), dstOffset, 0, srcHost, ByteCount, cudaMemcpyHostToDevice,
                                  hStream);
  });
}
DRIVER_EXPORT CUresult cuMemcpyAtoHAsync_v2(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                            CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemcpyFromArrayAsync(dstHost, runtimeArray(srcArray), srcOffset, 0, ByteCount, cudaMemcpyDeviceToHost,
                                    hStream);
  });
}
DRIVER_ALIAS(cuMemcpyHtoA_v2_ptds, cuMemcpyHtoA_v2);
DRIVER_ALIAS(cuMemcpyAtoH_v2_ptds, cuMemcpyAtoH_v2);
DRIVER_ALIAS(cuMemcpyAtoD_v2_ptds, cuMemcpyAtoD_v2);
DRIVER_ALIAS(cuMemcpyDtoA_v2_ptds, cuMemcpyDtoA_v2);
DRIVER_ALIAS(cuMemcpyAtoA_v2_ptds, cuMemcpyAtoA_v2);
DRIVER_EXPORT CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void* srcHost,
                                                 size_t ByteCount, CUstream hStream) {
  return cuMemcpyHtoAAsync_v2(dstArray, dstOffset, srcHost, ByteCount, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemcpyAtoHAsync_v2_ptsz(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                                 CUstream hStream) {
  return cuMemcpyAtoHAsync_v2(dstHost, srcArray, srcOffset, ByteCount, ptxsim::driver::perThread(hStream));
}

DRIVER_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                          size_t Height, CUstream) {
  return fillRows<unsigned short, cuMemsetD16_v2>(dstDevice, dstPitch, us, Width, Height);
}
DRIVER_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                          size_t Height, CUstream) {
  return fillRows<unsigned int, cuMemsetD32_v2>(dstDevice, dstPitch, ui, Width, Height);
}
DRIVER_ALIAS(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async);
DRIVER_ALIAS(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async);
