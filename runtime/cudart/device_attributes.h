#pragma once

// The answers to device queries: every cudaDeviceAttr (and the driver's
// attribute numbers the runtime passes through) and every cudaDeviceProp
// field, from the GPU preset. For the H100 preset each answer equals what
// an H100 80GB HBM3 gave (tests/cuda/programs/device_attributes.expected);
// other presets get answers derived from their own figures and sm version.

#include <cuda_runtime_api.h>

#include <optional>

#include "ptxsim/sim/gpu_config.h"

namespace ptxsim::cudart {

// The value of attribute number `attribute`, or nothing where a GPU
// answers cudaErrorInvalidValue (numbers no attribute has).
std::optional<int> deviceAttribute(const sim::GpuConfig& config, int attribute);

cudaDeviceProp deviceProperties(const sim::GpuConfig& config);

// "dddd:bb:dd.0", as cudaDeviceGetPCIBusId writes it.
std::string pciBusId(const sim::GpuConfig& config);

}  // namespace ptxsim::cudart
