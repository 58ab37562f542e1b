#pragma once

// Launch geometry: grid and block dimensions checked against the device's
// limits and the kernel's performance directives (.reqntid, .maxntid), the
// way the CUDA driver rejects a launch before it starts.

#include <array>
#include <cstdint>
#include <string>

#include "ptxsim/isa/module.h"

namespace ptxsim::sim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct DeviceLimits {
  uint32_t maxThreadsPerBlock = 1024;
  std::array<uint32_t, 3> maxBlockDim{1024, 1024, 64};
  std::array<uint32_t, 3> maxGridDim{2147483647u, 65535u, 65535u};
};

// Empty when the launch is valid; otherwise what is wrong with it.
std::string checkLaunchGeometry(const isa::Function& kernel, Dim3 grid, Dim3 block, const DeviceLimits& limits);

}  // namespace ptxsim::sim
