#include <cuda_runtime_api.h>

#include "driver_api.h"
#include "shim_state.h"

namespace ptxsim::driver {

CUresult toDriverResult(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return CUDA_SUCCESS;
    // The runtime's finer codes for a bad argument are one code to the driver.
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidHostPointer:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidTexture:
    case cudaErrorInvalidTextureBinding:
    case cudaErrorInvalidChannelDescriptor:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorInvalidFilterSetting:
    case cudaErrorInvalidNormSetting:
    case cudaErrorMissingConfiguration: return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorInvalidSymbol: return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidDeviceFunction: return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorInsufficientDriver: return CUDA_ERROR_NOT_INITIALIZED;
    // From 100 on, and below 10, the runtime's codes are the driver's.
    default: return static_cast<CUresult>(error);
  }
}

RuntimeCallScope::RuntimeCallScope() : saved_(cudart::shimState().peekLastError()) { ++cudart::driverCallDepth(); }

RuntimeCallScope::~RuntimeCallScope() {
  --cudart::driverCallDepth();
  cudart::shimState().takeLastError();
  cudart::shimState().record(saved_);
}

}  // namespace ptxsim::driver
