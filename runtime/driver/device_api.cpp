// Devices and their primary contexts: the driver's view of the simulated
// GPUs the runtime serves (their properties come from the runtime's).

#include <cstring>

#include "channel_format.h"
#include "driver_api.h"
#include "driver_state.h"

using ptxsim::driver::checkDevice;
using ptxsim::driver::driverState;
using ptxsim::driver::viaRuntime;

namespace {

CUresult properties(CUdevice device, cudaDeviceProp& prop) {
  if (CUresult r = checkDevice(device); r != CUDA_SUCCESS) return r;
  return viaRuntime([&] { return cudaGetDeviceProperties(&prop, device); });
}

}  // namespace

DRIVER_EXPORT CUresult cuDeviceGetCount(int* count) {
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaGetDeviceCount(count); });
}

DRIVER_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = checkDevice(ordinal); r != CUDA_SUCCESS) return r;
  *device = ordinal;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (name == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (CUresult r = properties(dev, prop); r != CUDA_SUCCESS) return r;
  std::strncpy(name, prop.name, static_cast<size_t>(len) - 1);
  name[len - 1] = '\0';
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (bytes == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (CUresult r = properties(dev, prop); r != CUDA_SUCCESS) return r;
  *bytes = prop.totalGlobalMem;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  if (pi == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  // CUdevice_attribute and cudaDeviceAttr number the attributes alike.
  return viaRuntime([&] { return cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev); });
}

DRIVER_EXPORT CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (major == nullptr || minor == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (CUresult r = properties(dev, prop); r != CUDA_SUCCESS) return r;
  *major = prop.major;
  *minor = prop.minor;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  if (uuid == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaDeviceProp prop{};
  if (CUresult r = properties(dev, prop); r != CUDA_SUCCESS) return r;
  std::memcpy(uuid->bytes, prop.uuid.bytes, sizeof uuid->bytes);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

DRIVER_EXPORT CUresult cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev) {
  if (pciBusId == nullptr || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  return viaRuntime([&] { return cudaDeviceGetPCIBusId(pciBusId, len, dev); });
}

DRIVER_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice* dev, const char* pciBusId) {
  if (dev == nullptr || pciBusId == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaDeviceGetByPCIBusId(dev, pciBusId); });
}

DRIVER_EXPORT CUresult cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                               CUdevice dstDevice) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    return cudaDeviceGetP2PAttribute(value, static_cast<cudaDeviceP2PAttr>(attrib), srcDevice, dstDevice);
  });
}

DRIVER_EXPORT CUresult cuDeviceCanAccessPeer(int* canAccessPeer, CUdevice dev, CUdevice peerDev) {
  if (canAccessPeer == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaDeviceCanAccessPeer(canAccessPeer, dev, peerDev); });
}

DRIVER_EXPORT CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements, CUarray_format format,
                                                          unsigned numChannels, CUdevice dev) {
  cudaChannelFormatDesc desc{};
  if (!ptxsim::driver::channelFormat(format, numChannels, desc)) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaDeviceGetTexture1DLinearMaxWidth(maxWidthInElements, &desc, dev); });
}

// Primary contexts.

DRIVER_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(driverState().mutex());
  ++driverState().primaryRetains(dev);
  *pctx = ptxsim::driver::handle(&driverState().primary(dev));
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(driverState().mutex());
  unsigned& retains = driverState().primaryRetains(dev);
  if (retains == 0) return CUDA_ERROR_INVALID_CONTEXT;
  --retains;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

DRIVER_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  constexpr unsigned kKnown = CU_CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_COREDUMP_ENABLE |
                              CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS | CU_CTX_MAP_HOST;
  if ((flags & ~kKnown) != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driverState().mutex());
  driverState().primary(dev).flags = flags | CU_CTX_MAP_HOST;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  if (flags == nullptr || active == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(driverState().mutex());
  *flags = driverState().primary(dev).flags;
  *active = driverState().primaryActive(dev) ? 1 : 0;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  if (CUresult r = checkDevice(dev); r != CUDA_SUCCESS) return r;
  // The device's memory and modules go, as cudaDeviceReset's do.
  return viaRuntime([] { return cudaDeviceReset(); });
}

DRIVER_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

// Atomics between the device and the host, and between devices
// (CUatomicOperation and cudaAtomicOperation number the operations alike).

DRIVER_EXPORT CUresult cuDeviceGetHostAtomicCapabilities(unsigned int* capabilities,
                                                         const CUatomicOperation* operations, unsigned int count,
                                                         CUdevice dev) {
  return viaRuntime([&] {
    return cudaDeviceGetHostAtomicCapabilities(capabilities, reinterpret_cast<const cudaAtomicOperation*>(operations),
                                               count, dev);
  });
}

DRIVER_EXPORT CUresult cuDeviceGetP2PAtomicCapabilities(unsigned int* capabilities,
                                                        const CUatomicOperation* operations, unsigned int count,
                                                        CUdevice srcDevice, CUdevice dstDevice) {
  return viaRuntime([&] {
    return cudaDeviceGetP2PAtomicCapabilities(capabilities, reinterpret_cast<const cudaAtomicOperation*>(operations),
                                              count, srcDevice, dstDevice);
  });
}
