// Peer access and peer copies, the profiler's start and stop, and the
// remaining queries of streams and occupancy: the runtime's.

#include <cudaProfiler.h>
#include <cuda_profiler_api.h>

#include "driver_api.h"
#include "driver_state.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

// The device of a context argument; -1 for a bad one.
int deviceOf(CUcontext context) {
  std::lock_guard lock(ptxsim::driver::driverState().mutex());
  return ptxsim::driver::driverState().valid(context) ? ptxsim::driver::contextOf(context)->device : -1;
}

}  // namespace

DRIVER_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  int peer = deviceOf(peerContext);
  if (peer < 0) return CUDA_ERROR_INVALID_CONTEXT;
  return viaRuntime([&] { return cudaDeviceEnablePeerAccess(peer, Flags); });
}

DRIVER_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peerContext) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  int peer = deviceOf(peerContext);
  if (peer < 0) return CUDA_ERROR_INVALID_CONTEXT;
  return viaRuntime([&] { return cudaDeviceDisablePeerAccess(peer); });
}

DRIVER_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                    CUcontext srcContext, size_t ByteCount) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  int dst = deviceOf(dstContext), src = deviceOf(srcContext);
  if (dst < 0 || src < 0) return CUDA_ERROR_INVALID_CONTEXT;
  return viaRuntime([&] { return cudaMemcpyPeer(pointer(dstDevice), dst, pointer(srcDevice), src, ByteCount); });
}

DRIVER_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                         CUcontext srcContext, size_t ByteCount, CUstream hStream) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  int dst = deviceOf(dstContext), src = deviceOf(srcContext);
  if (dst < 0 || src < 0) return CUDA_ERROR_INVALID_CONTEXT;
  return viaRuntime([&] {
    return cudaMemcpyPeerAsync(pointer(dstDevice), dst, pointer(srcDevice), src, ByteCount, hStream);
  });
}

DRIVER_ALIAS(cuMemcpyPeer_ptds, cuMemcpyPeer);
DRIVER_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                              CUcontext srcContext, size_t ByteCount, CUstream hStream) {
  return cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext, ByteCount,
                           ptxsim::driver::perThread(hStream));
}

DRIVER_EXPORT CUresult cuProfilerStart() { return viaRuntime([] { return cudaProfilerStart(); }); }
DRIVER_EXPORT CUresult cuProfilerStop() { return viaRuntime([] { return cudaProfilerStop(); }); }

DRIVER_EXPORT CUresult cuStreamGetDevice(CUstream hStream, CUdevice* device) {
  return viaRuntime([&] { return cudaStreamGetDevice(hStream, device); });
}
DRIVER_EXPORT CUresult cuStreamGetDevice_ptsz(CUstream hStream, CUdevice* device) {
  return cuStreamGetDevice(ptxsim::driver::perThread(hStream), device);
}

DRIVER_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, CUfunction func,
                                                               int numBlocks, int blockSize) {
  return viaRuntime([&] {
    return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, reinterpret_cast<const void*>(func), numBlocks,
                                                     blockSize);
  });
}
