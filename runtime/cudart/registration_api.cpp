// Registration of what nvcc's host stubs declare at start-up: fat binaries,
// kernels, variables; and the kernel handles of __cudaGetKernel.

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::shimState;

CUDART_EXPORT void** __cudaRegisterFatBinary(void* fatCubin) {
  std::lock_guard lock(shimState().mutex());
  return shimState().registerFatbin(fatCubin);
}

CUDART_EXPORT void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) { (void)fatCubinHandle; }

CUDART_EXPORT void __cudaUnregisterFatBinary(void** fatCubinHandle) {
  std::lock_guard lock(shimState().mutex());
  shimState().unregisterFatbin(fatCubinHandle);
}

CUDART_EXPORT void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                          const char* deviceName, int threadLimit, uint3* tid, uint3* bid,
                                          dim3* bDim, dim3* gDim, int* wSize) {
  (void)deviceFun, (void)threadLimit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  std::lock_guard lock(shimState().mutex());
  shimState().registerKernel(fatCubinHandle, hostFun, deviceName);
}

CUDART_EXPORT void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                                     const char* deviceName, int ext, size_t size, int constant, int global) {
  (void)deviceAddress, (void)ext, (void)constant, (void)global;
  std::lock_guard lock(shimState().mutex());
  shimState().registerVariable(fatCubinHandle, hostVar, deviceName, size, false, nullptr);
}

CUDART_EXPORT void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                                            const char* deviceName, int ext, size_t size, int constant,
                                            int global) {
  (void)deviceAddress, (void)ext, (void)constant, (void)global;
  std::lock_guard lock(shimState().mutex());
  shimState().registerVariable(fatCubinHandle, hostVarPtrAddress, deviceName, size, true, hostVarPtrAddress);
}

CUDART_EXPORT char __cudaInitModule(void** fatCubinHandle) {
  std::lock_guard lock(shimState().mutex());
  cudaError_t error = cudaSuccess;
  return shimState().moduleOf(*reinterpret_cast<ptxsim::cudart::FatbinRecord*>(fatCubinHandle), error) != nullptr;
}

// A kernel handle is the host stub's address: launches look it up like a
// host function.
CUDART_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun) {
  std::lock_guard lock(shimState().mutex());
  if (kernel == nullptr || shimState().kernel(hostFun) == nullptr) return cudaErrorInvalidDeviceFunction;
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(hostFun));
  return cudaSuccess;
}
