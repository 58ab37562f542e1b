// Copies between devices. The simulated system has one device, so the only
// valid peer copy is from device 0 to device 0: a device-to-device copy,
// as the runtime performs it on a single GPU.

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;

namespace {

bool validDevices(int dstDevice, int srcDevice) { return dstDevice == 0 && srcDevice == 0; }

cudaMemcpy3DParms withinDevice(const cudaMemcpy3DPeerParms& p) {
  cudaMemcpy3DParms q{};
  q.srcArray = p.srcArray;
  q.srcPos = p.srcPos;
  q.srcPtr = p.srcPtr;
  q.dstArray = p.dstArray;
  q.dstPos = p.dstPos;
  q.dstPtr = p.dstPtr;
  q.extent = p.extent;
  q.kind = cudaMemcpyDeviceToDevice;
  return q;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                                         size_t count) {
  if (!validDevices(dstDevice, srcDevice)) return result(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

CUDART_EXPORT cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                              size_t count, cudaStream_t stream) {
  if (!validDevices(dstDevice, srcDevice)) return result(cudaErrorInvalidDevice);
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p) {
  if (p == nullptr) return result(cudaErrorInvalidValue);
  if (!validDevices(p->dstDevice, p->srcDevice)) return result(cudaErrorInvalidDevice);
  cudaMemcpy3DParms q = withinDevice(*p);
  return cudaMemcpy3D(&q);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  if (p == nullptr) return result(cudaErrorInvalidValue);
  if (!validDevices(p->dstDevice, p->srcDevice)) return result(cudaErrorInvalidDevice);
  cudaMemcpy3DParms q = withinDevice(*p);
  return cudaMemcpy3DAsync(&q, stream);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DPeer_ptds(const cudaMemcpy3DPeerParms* p) {
  return cudaMemcpy3DPeer(p);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DPeerAsync_ptsz(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  return cudaMemcpy3DPeerAsync(p, stream == nullptr ? cudaStreamPerThread : stream);
}
