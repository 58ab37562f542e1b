#pragma once

// CUDA_MEMCPY3D (the driver's copy: byte offsets, memory types) as the
// runtime's cudaMemcpy3DParms (element offsets at an array, a kind) and
// back: for copies, and for the memcpy nodes of graphs.

#include "driver_api.h"

namespace ptxsim::driver {

// cudaErrorInvalidValue for a copy the runtime cannot express (a bad
// memory type, an offset or width not a whole number of array elements).
cudaError_t toRuntimeCopy(const CUDA_MEMCPY3D& copy, cudaMemcpy3DParms& params);
CUDA_MEMCPY3D toDriverCopy(const cudaMemcpy3DParms& params);

}  // namespace ptxsim::driver
