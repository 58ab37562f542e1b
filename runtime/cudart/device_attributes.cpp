#include "device_attributes.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace ptxsim::cudart {

namespace {

// Texture and surface size limits (attributes 21-29, 42-74, 77): the same
// from Maxwell to Hopper except the 1D linear width, 2^28 texels on the
// H100 and 2^27 before Ampere (the programming guide's table; not recorded).
std::optional<int> textureLimit(const sim::GpuConfig& c, int attribute) {
  switch (attribute) {
    case 21:
    case 22:
    case 56:
    case 70: return 131072;
    case 23:
    case 57: return 65536;
    case 24:
    case 25:
    case 26:
    case 58:
    case 59:
    case 60: return 16384;
    case 27:
    case 28:
    case 42:
    case 45:
    case 46:
    case 49:
    case 52:
    case 53:
    case 55:
    case 61:
    case 63:
    case 64:
    case 66:
    case 67:
    case 73:
    case 74:
    case 77: return 32768;
    case 29:
    case 43:
    case 62:
    case 65: return 2048;
    case 47:
    case 48: return 8192;
    case 54:
    case 68: return 2046;  // cubemap layers: a multiple of 6
    case 69: return c.smVersion >= 80 ? 1 << 28 : 1 << 27;
    case 71: return 65000;
    case 72: return 2097120;  // 2 MiB - 32: the pitch of 2D linear textures
    default: return std::nullopt;
  }
}

// Attributes that follow the preset's figures or its sm version.
std::optional<int> presetAttribute(const sim::GpuConfig& c, int attribute) {
  const sim::DeviceDescription& d = c.description;
  const bool ampere = c.smVersion >= 80, hopper = c.smVersion >= 90;
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: return static_cast<int>(c.limits.maxThreadsPerBlock);
    case cudaDevAttrMaxBlockDimX: return static_cast<int>(c.limits.maxBlockDim[0]);
    case cudaDevAttrMaxBlockDimY: return static_cast<int>(c.limits.maxBlockDim[1]);
    case cudaDevAttrMaxBlockDimZ: return static_cast<int>(c.limits.maxBlockDim[2]);
    case cudaDevAttrMaxGridDimX: return static_cast<int>(c.limits.maxGridDim[0]);
    case cudaDevAttrMaxGridDimY: return static_cast<int>(c.limits.maxGridDim[1]);
    case cudaDevAttrMaxGridDimZ: return static_cast<int>(c.limits.maxGridDim[2]);
    case cudaDevAttrMaxSharedMemoryPerBlock: return static_cast<int>(c.sharedBytesPerBlock);
    case cudaDevAttrTotalConstantMemory: return static_cast<int>(c.constantBytes);
    case cudaDevAttrMaxRegistersPerBlock: return static_cast<int>(c.registersPerBlock);
    case cudaDevAttrClockRate: return static_cast<int>(c.clockRateKhz);
    case cudaDevAttrMultiProcessorCount: return static_cast<int>(c.smCount);
    case cudaDevAttrEccEnabled: return static_cast<int>(d.eccEnabled);
    case cudaDevAttrPciBusId: return static_cast<int>(d.pciBus);
    case cudaDevAttrPciDeviceId: return static_cast<int>(d.pciDevice);
    case cudaDevAttrPciDomainId: return static_cast<int>(d.pciDomain);
    case cudaDevAttrMemoryClockRate: return static_cast<int>(d.memoryClockRateKhz);
    case cudaDevAttrGlobalMemoryBusWidth: return static_cast<int>(d.memoryBusWidthBits);
    case cudaDevAttrL2CacheSize: return static_cast<int>(d.l2CacheBytes);
    case cudaDevAttrMaxThreadsPerMultiProcessor: return static_cast<int>(c.maxThreadsPerSm);
    case cudaDevAttrAsyncEngineCount: return static_cast<int>(d.asyncEngineCount);
    case cudaDevAttrComputeCapabilityMajor: return static_cast<int>(c.smVersion / 10);
    case cudaDevAttrComputeCapabilityMinor: return static_cast<int>(c.smVersion % 10);
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return static_cast<int>(c.sharedBytesPerSm);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return static_cast<int>(c.registersPerSm);
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return static_cast<int>(d.singleToDoublePerfRatio);
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return static_cast<int>(c.sharedBytesPerBlockOptin);
    case cudaDevAttrMaxBlocksPerMultiprocessor: return static_cast<int>(c.maxBlocksPerSm);
    case cudaDevAttrMaxPersistingL2CacheSize: return static_cast<int>(d.persistingL2MaxBytes);
    case cudaDevAttrMaxAccessPolicyWindowSize: return ampere ? 134217728 : 0;
    case cudaDevAttrReservedSharedMemoryPerBlock: return ampere ? 1024 : 0;
    case cudaDevAttrClusterLaunch: return hopper ? 1 : 0;
    case cudaDevAttrMemSyncDomainCount: return hopper ? 4 : 1;
    case 127: return hopper ? 1 : 0;  // CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED
    case cudaDevAttrGpuPciDeviceId: return static_cast<int>(d.pciDeviceId);
    case cudaDevAttrGpuPciSubsystemId: return static_cast<int>(d.pciSubsystemId);
    default: return std::nullopt;
  }
}

// Attributes every preset answers as the H100 did: capabilities of the
// driver and the platform (Linux, one GPU, no MPS, no NUMA node) rather
// than of the chip. Numbers missing from cudaDeviceAttr are the driver
// API's CU_DEVICE_ATTRIBUTE_* the runtime passes through.
std::optional<int> fixedAttribute(int attribute) {
  switch (attribute) {
    case cudaDevAttrWarpSize: return 32;
    case cudaDevAttrMaxPitch: return 2147483647;
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrSurfaceAlignment: return 512;
    case cudaDevAttrTexturePitchAlignment: return 32;
    case cudaDevAttrMultiGpuBoardGroupID:
    case cudaDevAttrHostNumaId: return 0;
    case cudaDevAttrNumaId: return -1;                        // the device is not a NUMA node
    case cudaDevAttrGPUDirectRDMAWritesOrdering: return 100;  // cudaGPUDirectRDMAWritesOrderingAllDevices
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
      return 9;  // POSIX file descriptor | fabric
    // 0: no kernel time-out, discrete, default compute mode, no TCC driver,
    // not a multi-GPU board, no host-native atomics, no pageable access,
    // no stream memory operations (V1), no remote-write flush, Windows
    // handles, NUMA, multicast, MPS, CIG, decompression, multinode IPC,
    // dma-buf host allocations, partial host atomics.
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrIntegrated:
    case cudaDevAttrComputeMode:
    case cudaDevAttrTccDriver:
    case cudaDevAttrIsMultiGpuBoard:
    case cudaDevAttrHostNativeAtomicSupported:
    case cudaDevAttrPageableMemoryAccess:
    case 92:
    case 93:
    case 94:
    case cudaDevAttrCanFlushRemoteWrites:
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    case cudaDevAttrDirectManagedMemAccessFromHost:
    case 104:
    case 105:
    case cudaDevAttrNumaConfig:
    case 132:
    case cudaDevAttrMpsEnabled:
    case cudaDevAttrD3D12CigSupported:
    case 136:
    case 137:
    case cudaDevAttrVulkanCigSupported:
    case cudaDevAttrHostNumaMultinodeIpcSupported:
    case 146:
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: return 0;
    default: break;
  }
  // 1: everything else from 15 (GPU overlap) to 145 that the H100 has.
  if (attribute >= 15 && attribute <= 145) return 1;
  return std::nullopt;
}

// A stable UUID per preset (the GPU's own differs per board): FNV-1a of
// the name and PCI ids, laid out as a version-4 UUID.
cudaUUID_t uuidOf(const sim::GpuConfig& c) {
  std::string key = c.name + "/" + std::to_string(c.description.pciDeviceId);
  uint64_t hash = 0xcbf29ce484222325ull;
  cudaUUID_t uuid{};
  for (int i = 0; i < 16; ++i) {
    for (char ch : key)
      hash = (hash ^ static_cast<unsigned char>(ch) ^ static_cast<uint64_t>(i)) * 0x100000001b3ull;
    uuid.bytes[i] = static_cast<char>(hash >> 56);
  }
  uuid.bytes[6] = static_cast<char>((uuid.bytes[6] & 0x0f) | 0x40);
  uuid.bytes[8] = static_cast<char>((uuid.bytes[8] & 0x3f) | 0x80);
  return uuid;
}

}  // namespace

std::optional<int> deviceAttribute(const sim::GpuConfig& config, int attribute) {
  if (auto value = presetAttribute(config, attribute)) return value;
  if (auto value = textureLimit(config, attribute)) return value;
  return fixedAttribute(attribute);
}

cudaDeviceProp deviceProperties(const sim::GpuConfig& c) {
  auto a = [&c](int attribute) { return deviceAttribute(c, attribute).value_or(0); };
  cudaDeviceProp p{};
  std::strncpy(p.name, c.name.c_str(), sizeof p.name - 1);
  p.uuid = uuidOf(c);
  p.totalGlobalMem = c.globalMemoryBytes;
  p.sharedMemPerBlock = c.sharedBytesPerBlock;
  p.regsPerBlock = a(cudaDevAttrMaxRegistersPerBlock);
  p.warpSize = a(cudaDevAttrWarpSize);
  p.memPitch = static_cast<size_t>(a(cudaDevAttrMaxPitch));
  p.maxThreadsPerBlock = a(cudaDevAttrMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = a(cudaDevAttrMaxBlockDimX + i);
    p.maxGridSize[i] = a(cudaDevAttrMaxGridDimX + i);
  }
  p.totalConstMem = c.constantBytes;
  p.major = a(cudaDevAttrComputeCapabilityMajor);
  p.minor = a(cudaDevAttrComputeCapabilityMinor);
  p.textureAlignment = static_cast<size_t>(a(cudaDevAttrTextureAlignment));
  p.texturePitchAlignment = static_cast<size_t>(a(cudaDevAttrTexturePitchAlignment));
  p.multiProcessorCount = a(cudaDevAttrMultiProcessorCount);
  p.integrated = a(cudaDevAttrIntegrated);
  p.canMapHostMemory = a(cudaDevAttrCanMapHostMemory);
  p.maxTexture1D = a(cudaDevAttrMaxTexture1DWidth);
  p.maxTexture1DMipmap = a(cudaDevAttrMaxTexture1DMipmappedWidth);
  p.maxTexture2D[0] = a(cudaDevAttrMaxTexture2DWidth);
  p.maxTexture2D[1] = a(cudaDevAttrMaxTexture2DHeight);
  p.maxTexture2DMipmap[0] = a(cudaDevAttrMaxTexture2DMipmappedWidth);
  p.maxTexture2DMipmap[1] = a(cudaDevAttrMaxTexture2DMipmappedHeight);
  p.maxTexture2DLinear[0] = a(cudaDevAttrMaxTexture2DLinearWidth);
  p.maxTexture2DLinear[1] = a(cudaDevAttrMaxTexture2DLinearHeight);
  p.maxTexture2DLinear[2] = a(cudaDevAttrMaxTexture2DLinearPitch);
  p.maxTexture2DGather[0] = a(cudaDevAttrMaxTexture2DGatherWidth);
  p.maxTexture2DGather[1] = a(cudaDevAttrMaxTexture2DGatherHeight);
  for (int i = 0; i < 3; ++i) {
    p.maxTexture3D[i] = a(cudaDevAttrMaxTexture3DWidth + i);
    p.maxTexture3DAlt[i] = a(cudaDevAttrMaxTexture3DWidthAlt + i);
    p.maxTexture2DLayered[i] = a(cudaDevAttrMaxTexture2DLayeredWidth + i);
    p.maxSurface3D[i] = a(cudaDevAttrMaxSurface3DWidth + i);
    p.maxSurface2DLayered[i] = a(cudaDevAttrMaxSurface2DLayeredWidth + i);
  }
  p.maxTextureCubemap = a(cudaDevAttrMaxTextureCubemapWidth);
  p.maxTexture1DLayered[0] = a(cudaDevAttrMaxTexture1DLayeredWidth);
  p.maxTexture1DLayered[1] = a(cudaDevAttrMaxTexture1DLayeredLayers);
  p.maxTextureCubemapLayered[0] = a(cudaDevAttrMaxTextureCubemapLayeredWidth);
  p.maxTextureCubemapLayered[1] = a(cudaDevAttrMaxTextureCubemapLayeredLayers);
  p.maxSurface1D = a(cudaDevAttrMaxSurface1DWidth);
  p.maxSurface2D[0] = a(cudaDevAttrMaxSurface2DWidth);
  p.maxSurface2D[1] = a(cudaDevAttrMaxSurface2DHeight);
  p.maxSurface1DLayered[0] = a(cudaDevAttrMaxSurface1DLayeredWidth);
  p.maxSurface1DLayered[1] = a(cudaDevAttrMaxSurface1DLayeredLayers);
  p.maxSurfaceCubemap = a(cudaDevAttrMaxSurfaceCubemapWidth);
  p.maxSurfaceCubemapLayered[0] = a(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
  p.maxSurfaceCubemapLayered[1] = a(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
  p.surfaceAlignment = static_cast<size_t>(a(cudaDevAttrSurfaceAlignment));
  p.concurrentKernels = a(cudaDevAttrConcurrentKernels);
  p.ECCEnabled = a(cudaDevAttrEccEnabled);
  p.pciBusID = a(cudaDevAttrPciBusId);
  p.pciDeviceID = a(cudaDevAttrPciDeviceId);
  p.pciDomainID = a(cudaDevAttrPciDomainId);
  p.tccDriver = a(cudaDevAttrTccDriver);
  p.asyncEngineCount = a(cudaDevAttrAsyncEngineCount);
  p.unifiedAddressing = a(cudaDevAttrUnifiedAddressing);
  p.memoryBusWidth = a(cudaDevAttrGlobalMemoryBusWidth);
  p.l2CacheSize = a(cudaDevAttrL2CacheSize);
  p.persistingL2CacheMaxSize = a(cudaDevAttrMaxPersistingL2CacheSize);
  p.maxThreadsPerMultiProcessor = a(cudaDevAttrMaxThreadsPerMultiProcessor);
  p.streamPrioritiesSupported = a(cudaDevAttrStreamPrioritiesSupported);
  p.globalL1CacheSupported = a(cudaDevAttrGlobalL1CacheSupported);
  p.localL1CacheSupported = a(cudaDevAttrLocalL1CacheSupported);
  p.sharedMemPerMultiprocessor = c.sharedBytesPerSm;
  p.regsPerMultiprocessor = a(cudaDevAttrMaxRegistersPerMultiprocessor);
  p.managedMemory = a(cudaDevAttrManagedMemory);
  p.isMultiGpuBoard = a(cudaDevAttrIsMultiGpuBoard);
  p.multiGpuBoardGroupID = a(cudaDevAttrMultiGpuBoardGroupID);
  p.hostNativeAtomicSupported = a(cudaDevAttrHostNativeAtomicSupported);
  p.pageableMemoryAccess = a(cudaDevAttrPageableMemoryAccess);
  p.concurrentManagedAccess = a(cudaDevAttrConcurrentManagedAccess);
  p.computePreemptionSupported = a(cudaDevAttrComputePreemptionSupported);
  p.canUseHostPointerForRegisteredMem = a(cudaDevAttrCanUseHostPointerForRegisteredMem);
  p.cooperativeLaunch = a(cudaDevAttrCooperativeLaunch);
  p.sharedMemPerBlockOptin = c.sharedBytesPerBlockOptin;
  p.pageableMemoryAccessUsesHostPageTables = a(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  p.directManagedMemAccessFromHost = a(cudaDevAttrDirectManagedMemAccessFromHost);
  p.maxBlocksPerMultiProcessor = a(cudaDevAttrMaxBlocksPerMultiprocessor);
  p.accessPolicyMaxWindowSize = a(cudaDevAttrMaxAccessPolicyWindowSize);
  p.reservedSharedMemPerBlock = static_cast<size_t>(a(cudaDevAttrReservedSharedMemoryPerBlock));
  p.hostRegisterSupported = a(cudaDevAttrHostRegisterSupported);
  p.sparseCudaArraySupported = a(cudaDevAttrSparseCudaArraySupported);
  p.hostRegisterReadOnlySupported = a(cudaDevAttrHostRegisterReadOnlySupported);
  p.timelineSemaphoreInteropSupported = a(cudaDevAttrTimelineSemaphoreInteropSupported);
  p.memoryPoolsSupported = a(cudaDevAttrMemoryPoolsSupported);
  p.gpuDirectRDMASupported = a(cudaDevAttrGPUDirectRDMASupported);
  p.gpuDirectRDMAFlushWritesOptions = static_cast<unsigned>(a(cudaDevAttrGPUDirectRDMAFlushWritesOptions));
  p.gpuDirectRDMAWritesOrdering = a(cudaDevAttrGPUDirectRDMAWritesOrdering);
  p.memoryPoolSupportedHandleTypes = static_cast<unsigned>(a(cudaDevAttrMemoryPoolSupportedHandleTypes));
  p.deferredMappingCudaArraySupported = a(cudaDevAttrDeferredMappingCudaArraySupported);
  p.ipcEventSupported = a(cudaDevAttrIpcEventSupport);
  p.clusterLaunch = a(cudaDevAttrClusterLaunch);
  p.unifiedFunctionPointers = a(129);  // CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS
  p.deviceNumaConfig = a(cudaDevAttrNumaConfig);
  p.deviceNumaId = a(cudaDevAttrNumaId);
  p.mpsEnabled = a(cudaDevAttrMpsEnabled);
  p.hostNumaId = a(cudaDevAttrHostNumaId);
  p.gpuPciDeviceID = static_cast<unsigned>(a(cudaDevAttrGpuPciDeviceId));
  p.gpuPciSubsystemID = static_cast<unsigned>(a(cudaDevAttrGpuPciSubsystemId));
  p.hostNumaMultinodeIpcSupported = a(cudaDevAttrHostNumaMultinodeIpcSupported);
  return p;
}

std::string pciBusId(const sim::GpuConfig& config) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", config.description.pciDomain,
                config.description.pciBus, config.description.pciDevice);
  return text;
}

}  // namespace ptxsim::cudart
