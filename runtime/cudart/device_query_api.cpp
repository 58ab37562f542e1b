// Queries of what the device is: properties and attributes
// (device_attributes.cpp), its PCI identity, cache and shared-memory
// configuration, peer access (one device: none), atomic capabilities,
// memory-budget notifications, cudaChooseDevice and cudaInitDevice. Answers and error codes are those an H100
// gave (tests/cuda/programs/device_attributes.expected).

#include <algorithm>
#include <cstdio>

#include "device_attributes.h"
#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

const ptxsim::sim::GpuConfig& config() { return shimState().device().config(); }

}  // namespace

CUDART_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  std::lock_guard lock(shimState().mutex());
  if (prop == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  *prop = ptxsim::cudart::deviceProperties(config());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  std::optional<int> answer = ptxsim::cudart::deviceAttribute(config(), static_cast<int>(attr));
  if (!answer) return result(cudaErrorInvalidValue);
  *value = *answer;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  std::lock_guard lock(shimState().mutex());
  if (pciBusId == nullptr || len <= 0) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  std::string id = ptxsim::cudart::pciBusId(config());
  std::snprintf(pciBusId, static_cast<size_t>(len), "%s", id.c_str());
  return cudaSuccess;
}

// Accepts "domain:bus:device.function" and "bus:device.function" (domain
// 0), in hexadecimal, as the driver does.
CUDART_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  std::lock_guard lock(shimState().mutex());
  if (device == nullptr || pciBusId == nullptr) return result(cudaErrorInvalidValue);
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  bool parsed = std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &slot, &function) == 4;
  if (!parsed) {
    domain = 0;
    parsed = std::sscanf(pciBusId, "%x:%x.%x", &bus, &slot, &function) == 3;
  }
  if (!parsed) return result(cudaErrorInvalidValue);
  const ptxsim::sim::DeviceDescription& d = config().description;
  if (domain != d.pciDomain || bus != d.pciBus || slot != d.pciDevice || function != 0) {
    return result(cudaErrorInvalidDevice);
  }
  *device = 0;
  return cudaSuccess;
}

// The L1/shared split preference is a hint the functional model has no use
// for; it is kept so that it reads back as set.
CUDART_EXPORT cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  std::lock_guard lock(shimState().mutex());
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) {
    return result(cudaErrorInvalidValue);
  }
  shimState().deviceCacheConfig = cacheConfig;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* cacheConfig) {
  std::lock_guard lock(shimState().mutex());
  if (cacheConfig == nullptr) return result(cudaErrorInvalidValue);
  *cacheConfig = shimState().deviceCacheConfig;
  return cudaSuccess;
}

// Shared-memory banks are four bytes wide from Maxwell on: setting eight is
// accepted and has no effect, as on the H100.
CUDART_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config) {
  if (config == nullptr) return result(cudaErrorInvalidValue);
  *config = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

// One device: it has no peer, and is not its own peer.
CUDART_EXPORT cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return result(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (peerDevice != 0) return result(cudaErrorInvalidDevice);
  if (flags != 0) return result(cudaErrorInvalidValue);
  return result(cudaErrorPeerAccessUnsupported);
}

CUDART_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  if (peerDevice != 0) return result(cudaErrorInvalidDevice);
  return result(cudaErrorPeerAccessNotEnabled);
}

CUDART_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr, int srcDevice,
                                                    int dstDevice) {
  if (value == nullptr) return result(cudaErrorInvalidValue);
  (void)srcDevice, (void)dstDevice;
  return result(cudaErrorInvalidDevice);  // a pair of devices needs two
}

// The widest 1D texture on linear memory: 2^32 bytes, at most 2^30
// elements (both limits read off the H100 with float4 and uchar formats).
CUDART_EXPORT cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements,
                                                               const cudaChannelFormatDesc* fmtDesc,
                                                               int device) {
  if (maxWidthInElements == nullptr || fmtDesc == nullptr) return result(cudaErrorInvalidValue);
  if (device != 0) return result(cudaErrorInvalidDevice);
  int bits = fmtDesc->x + fmtDesc->y + fmtDesc->z + fmtDesc->w;
  if (bits <= 0 || bits % 8 != 0) return result(cudaErrorInvalidValue);
  size_t bytes = static_cast<size_t>(bits / 8);
  *maxWidthInElements = std::min<size_t>(size_t{1} << 30, (size_t{1} << 32) / bytes);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return result(cudaErrorInvalidValue);
  *device = 0;  // the only device is the best match for any request
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (device != 0) return result(cudaErrorInvalidDevice);
  if ((flags & ~unsigned{cudaInitDeviceFlagsAreValid}) != 0) return result(cudaErrorInvalidValue);
  if ((flags & cudaInitDeviceFlagsAreValid) != 0) {
    cudaError_t e = cudaSetDeviceFlags(deviceFlags);
    if (e != cudaSuccess) return e;
  }
  std::lock_guard lock(shimState().mutex());
  shimState().device();  // creates the simulated device now, as the call promises
  return cudaSuccess;
}

// One device, so the list of devices to try is that device.
CUDART_EXPORT cudaError_t cudaSetValidDevices(int* deviceArr, int len) {
  if (len < 0 || (len > 0 && deviceArr == nullptr)) return result(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i) {
    if (deviceArr[i] != 0) return result(cudaErrorInvalidDevice);
  }
  return cudaSuccess;
}

namespace {

cudaError_t checkAtomicQuery(const unsigned* capabilities, const cudaAtomicOperation* operations,
                             unsigned count) {
  if (capabilities == nullptr || operations == nullptr || count == 0) return cudaErrorInvalidValue;
  for (unsigned i = 0; i < count; ++i) {
    if (operations[i] < cudaAtomicOperationIntegerAdd || operations[i] > cudaAtomicOperationFloatMax) {
      return cudaErrorInvalidValue;
    }
  }
  return cudaSuccess;
}

}  // namespace

// Native atomics with the host need a coherent link (NVLink-C2C); over PCIe,
// as the H100 preset is attached (cudaDevAttrHostNativeAtomicSupported 0),
// no operation has any capability.
CUDART_EXPORT cudaError_t cudaDeviceGetHostAtomicCapabilities(unsigned int* capabilities,
                                                              const cudaAtomicOperation* operations,
                                                              unsigned int count, int device) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  if (cudaError_t e = checkAtomicQuery(capabilities, operations, count); e != cudaSuccess) return result(e);
  if (ptxsim::cudart::deviceAttribute(config(), cudaDevAttrHostNativeAtomicSupported).value_or(0) != 0) {
    ptxsim::cudart::reportError(
        "cudaDeviceGetHostAtomicCapabilities: presets with native host atomics "
        "are not supported yet");
    return result(cudaErrorNotSupported);
  }
  std::fill(capabilities, capabilities + count, 0u);
  return cudaSuccess;
}

// A link needs two devices; the simulated system has one.
CUDART_EXPORT cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned int* capabilities,
                                                             const cudaAtomicOperation* operations,
                                                             unsigned int count, int srcDevice,
                                                             int dstDevice) {
  (void)srcDevice, (void)dstDevice;
  if (cudaError_t e = checkAtomicQuery(capabilities, operations, count); e != cudaSuccess) return result(e);
  return result(cudaErrorInvalidDevice);
}

CUDART_EXPORT cudaError_t cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                                              void* userData,
                                                              cudaAsyncCallbackHandle_t* callback) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  if (callbackFunc == nullptr || callback == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::cudart::ShimState& s = shimState();
  uintptr_t handle = s.nextAsyncNotification++;
  s.asyncNotifications[handle] = {callbackFunc, userData};
  *callback = reinterpret_cast<cudaAsyncCallbackHandle_t>(handle);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceUnregisterAsyncNotification(int device,
                                                                cudaAsyncCallbackHandle_t callback) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  if (shimState().asyncNotifications.erase(reinterpret_cast<uintptr_t>(callback)) == 0) {
    return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
