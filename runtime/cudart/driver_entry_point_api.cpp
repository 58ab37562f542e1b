// Driver entry points (cuGetProcAddress through the runtime). ptxsim has no
// driver API, so every symbol is answered as CUDA answers one it does not
// find: cudaSuccess, cudaDriverEntryPointSymbolNotFound and a null pointer.
// A warning names the symbol, so a program that probes an optional driver
// feature keeps working and one that needs it shows why it fails.

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;

namespace {

cudaError_t symbolNotFound(const char* call, const char* symbol, void** funcPtr, unsigned long long flags,
                           cudaDriverEntryPointQueryResult* driverStatus) {
  constexpr unsigned long long kKnownFlags = cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream;
  if (symbol == nullptr || funcPtr == nullptr || (flags & ~kKnownFlags) != 0)
    return result(cudaErrorInvalidValue);
  *funcPtr = nullptr;
  if (driverStatus != nullptr) *driverStatus = cudaDriverEntryPointSymbolNotFound;
  ptxsim::cudart::reportWarning("%s: driver function %s not found: ptxsim has no CUDA driver API", call,
                                symbol);
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** funcPtr,
                                                  unsigned long long flags,
                                                  cudaDriverEntryPointQueryResult* driverStatus) {
  return symbolNotFound("cudaGetDriverEntryPoint", symbol, funcPtr, flags, driverStatus);
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr,
                                                       unsigned long long flags,
                                                       cudaDriverEntryPointQueryResult* driverStatus) {
  return symbolNotFound("cudaGetDriverEntryPoint", symbol, funcPtr, flags, driverStatus);
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr,
                                                           unsigned int cudaVersion, unsigned long long flags,
                                                           cudaDriverEntryPointQueryResult* driverStatus) {
  (void)cudaVersion;
  return symbolNotFound("cudaGetDriverEntryPointByVersion", symbol, funcPtr, flags, driverStatus);
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    cudaDriverEntryPointQueryResult* driverStatus) {
  (void)cudaVersion;
  return symbolNotFound("cudaGetDriverEntryPointByVersion", symbol, funcPtr, flags, driverStatus);
}
