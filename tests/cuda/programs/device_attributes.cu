// Every device query a program can make of the device, printed in full:
// cudaDeviceGetAttribute for every attribute number from 0 to 150 (the
// value, or the error for numbers the GPU does not answer), every field of
// cudaDeviceProp, and the other device queries (PCI bus id, stream
// priorities, cache and shared-memory configuration, peer access, the
// default memory pool, flags, cudaChooseDevice, cudaInitDevice). The
// device's UUID differs from GPU to GPU, so only whether it is set is
// printed.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "check.h"

namespace {

void printArray(const char* name, const int* values, int count) {
  std::printf("prop %s:", name);
  for (int i = 0; i < count; ++i) std::printf(" %d", values[i]);
  std::printf("\n");
}

void printProperties(const cudaDeviceProp& p) {
  std::printf("prop name: %s\n", p.name);
  bool uuidSet = false;
  for (char byte : p.uuid.bytes) uuidSet |= byte != 0;
  std::printf("prop uuid: %s\n", uuidSet ? "set" : "zero");
  bool luidSet = false;
  for (char byte : p.luid) luidSet |= byte != 0;
  std::printf("prop luid: %s, luidDeviceNodeMask %u\n", luidSet ? "set" : "zero", p.luidDeviceNodeMask);
#define I(field) std::printf("prop " #field ": %lld\n", static_cast<long long>(p.field))
#define A(field, n) printArray(#field, p.field, n)
  I(totalGlobalMem); I(sharedMemPerBlock); I(regsPerBlock); I(warpSize); I(memPitch);
  I(maxThreadsPerBlock); A(maxThreadsDim, 3); A(maxGridSize, 3); I(totalConstMem); I(major); I(minor);
  I(textureAlignment); I(texturePitchAlignment); I(multiProcessorCount); I(integrated); I(canMapHostMemory);
  I(maxTexture1D); I(maxTexture1DMipmap); A(maxTexture2D, 2); A(maxTexture2DMipmap, 2);
  A(maxTexture2DLinear, 3); A(maxTexture2DGather, 2); A(maxTexture3D, 3); A(maxTexture3DAlt, 3);
  I(maxTextureCubemap); A(maxTexture1DLayered, 2); A(maxTexture2DLayered, 3); A(maxTextureCubemapLayered, 2);
  I(maxSurface1D); A(maxSurface2D, 2); A(maxSurface3D, 3); A(maxSurface1DLayered, 2);
  A(maxSurface2DLayered, 3); I(maxSurfaceCubemap); A(maxSurfaceCubemapLayered, 2); I(surfaceAlignment);
  I(concurrentKernels); I(ECCEnabled); I(pciBusID); I(pciDeviceID); I(pciDomainID); I(tccDriver);
  I(asyncEngineCount); I(unifiedAddressing); I(memoryBusWidth); I(l2CacheSize); I(persistingL2CacheMaxSize);
  I(maxThreadsPerMultiProcessor); I(streamPrioritiesSupported); I(globalL1CacheSupported);
  I(localL1CacheSupported); I(sharedMemPerMultiprocessor); I(regsPerMultiprocessor); I(managedMemory);
  I(isMultiGpuBoard); I(multiGpuBoardGroupID); I(hostNativeAtomicSupported); I(pageableMemoryAccess);
  I(concurrentManagedAccess); I(computePreemptionSupported); I(canUseHostPointerForRegisteredMem);
  I(cooperativeLaunch); I(sharedMemPerBlockOptin); I(pageableMemoryAccessUsesHostPageTables);
  I(directManagedMemAccessFromHost); I(maxBlocksPerMultiProcessor); I(accessPolicyMaxWindowSize);
  I(reservedSharedMemPerBlock); I(hostRegisterSupported); I(sparseCudaArraySupported);
  I(hostRegisterReadOnlySupported); I(timelineSemaphoreInteropSupported); I(memoryPoolsSupported);
  I(gpuDirectRDMASupported); I(gpuDirectRDMAFlushWritesOptions); I(gpuDirectRDMAWritesOrdering);
  I(memoryPoolSupportedHandleTypes); I(deferredMappingCudaArraySupported); I(ipcEventSupported);
  I(clusterLaunch); I(unifiedFunctionPointers); I(deviceNumaConfig); I(deviceNumaId); I(mpsEnabled);
  I(hostNumaId); I(gpuPciDeviceID); I(gpuPciSubsystemID); I(hostNumaMultinodeIpcSupported);
#undef I
#undef A
}

void show(const char* what, cudaError_t e) { std::printf("%s: %s\n", what, cudaGetErrorName(e)); }

}  // namespace

int main() {
  CHECK(cudaSetDevice(0));
  for (int attribute = 0; attribute <= 150; ++attribute) {
    int value = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(attribute), 0);
    if (e == cudaSuccess) {
      std::printf("attribute %d: %d\n", attribute, value);
    } else {
      std::printf("attribute %d: %s\n", attribute, cudaGetErrorName(e));
      cudaGetLastError();
    }
  }
  int value = 0;
  show("attribute of device 1", cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1));
  show("attribute into null", cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0));
  show("get last error", cudaGetLastError());

  cudaDeviceProp p;
  std::memset(&p, 0x5a, sizeof p);
  CHECK(cudaGetDeviceProperties(&p, 0));
  printProperties(p);
  show("properties of device 1", cudaGetDeviceProperties(&p, 1));
  cudaGetLastError();

  char bus[64] = {};
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  std::printf("PCI bus id: %s\n", bus);
  int byBus = -1;
  show("cudaDeviceGetByPCIBusId", cudaDeviceGetByPCIBusId(&byBus, bus));
  std::printf("device by PCI bus id: %d\n", byBus);
  show("cudaDeviceGetByPCIBusId of another bus", cudaDeviceGetByPCIBusId(&byBus, "0000:ff:1f.0"));
  cudaGetLastError();

  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  std::printf("stream priorities: least %d, greatest %d\n", least, greatest);
  cudaFuncCache cache;
  CHECK(cudaDeviceGetCacheConfig(&cache));
  std::printf("cache config: %d\n", static_cast<int>(cache));
  show("cudaDeviceSetCacheConfig(PreferShared)", cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  CHECK(cudaDeviceGetCacheConfig(&cache));
  std::printf("cache config after setting: %d\n", static_cast<int>(cache));
  show("cudaDeviceSetCacheConfig(7)", cudaDeviceSetCacheConfig(static_cast<cudaFuncCache>(7)));
  cudaGetLastError();
  cudaSharedMemConfig bank;
  CHECK(cudaDeviceGetSharedMemConfig(&bank));
  std::printf("shared memory config: %d\n", static_cast<int>(bank));
  show("cudaDeviceSetSharedMemConfig(EightByte)", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  CHECK(cudaDeviceGetSharedMemConfig(&bank));
  std::printf("shared memory config after setting: %d\n", static_cast<int>(bank));
  cudaGetLastError();
  int canAccess = -1;
  show("cudaDeviceCanAccessPeer(0, 0)", cudaDeviceCanAccessPeer(&canAccess, 0, 0));
  std::printf("can access peer: %d\n", canAccess);
  show("cudaDeviceEnablePeerAccess(0)", cudaDeviceEnablePeerAccess(0, 0));
  show("cudaDeviceEnablePeerAccess(1)", cudaDeviceEnablePeerAccess(1, 0));
  show("cudaDeviceDisablePeerAccess(0)", cudaDeviceDisablePeerAccess(0));
  show("cudaDeviceCanAccessPeer(0, 1)", cudaDeviceCanAccessPeer(&canAccess, 0, 1));
  int p2p = -1;
  show("cudaDeviceGetP2PAttribute(0, 0)", cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0));
  cudaGetLastError();
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags));
  std::printf("device flags: 0x%x\n", flags);

  cudaMemPool_t pool = nullptr, current = nullptr;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  std::printf("default pool is current: %d\n", pool == current);
  unsigned long long threshold = 1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  std::printf("pool release threshold: %llu\n", threshold);
  int reuse = -1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  std::printf("pool reuse opportunistic: %d\n", reuse);

  size_t linearWidth = 0;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
  show("cudaDeviceGetTexture1DLinearMaxWidth",
       cudaDeviceGetTexture1DLinearMaxWidth(&linearWidth, &desc, 0));
  std::printf("1D linear max width (float4): %zu\n", linearWidth);
  desc = cudaCreateChannelDesc<unsigned char>();
  CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&linearWidth, &desc, 0));
  std::printf("1D linear max width (uchar): %zu\n", linearWidth);

  cudaDeviceProp want;
  std::memset(&want, 0, sizeof want);
  want.major = 9;
  int chosen = -1;
  CHECK(cudaChooseDevice(&chosen, &want));
  std::printf("chosen device: %d\n", chosen);
  show("cudaInitDevice(0)", cudaInitDevice(0, 0, 0));
  show("cudaInitDevice(1)", cudaInitDevice(1, 0, 0));
  cudaGetLastError();
  size_t freeBytes = 0, totalBytes = 0;
  CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  std::printf("total memory: %zu, free below total: %d\n", totalBytes, freeBytes < totalBytes);
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf("driver at least runtime: %d, runtime %d\n", driver >= runtime, runtime);
  return 0;
}
