#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim {

namespace {

std::string text(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

std::string checkLaunchGeometry(const isa::Function& kernel, Dim3 grid, Dim3 block, const DeviceLimits& limits) {
  if (!kernel.isKernel) return "'" + kernel.name + "' is not a kernel (.entry)";
  std::array<uint32_t, 3> b{block.x, block.y, block.z};
  std::array<uint32_t, 3> g{grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i) {
    if (b[i] == 0 || g[i] == 0) return "grid " + text(grid) + " or block " + text(block) + " has a zero dimension";
    if (b[i] > limits.maxBlockDim[i]) return "block " + text(block) + " exceeds the device's block dimensions";
    if (g[i] > limits.maxGridDim[i]) return "grid " + text(grid) + " exceeds the device's grid dimensions";
  }
  if (block.count() > limits.maxThreadsPerBlock) {
    return "block " + text(block) + " has " + std::to_string(block.count()) + " threads, more than the device's " +
           std::to_string(limits.maxThreadsPerBlock);
  }
  const auto& d = kernel.directives;
  if (d.reqntid[0] != 0 && (d.reqntid[0] != block.x || d.reqntid[1] != block.y || d.reqntid[2] != block.z)) {
    return "block " + text(block) + " differs from the kernel's .reqntid " +
           text({d.reqntid[0], d.reqntid[1], d.reqntid[2]});
  }
  if (d.maxntid[0] != 0 && block.count() > uint64_t{d.maxntid[0]} * d.maxntid[1] * d.maxntid[2]) {
    return "block " + text(block) + " exceeds the kernel's .maxntid " + text({d.maxntid[0], d.maxntid[1], d.maxntid[2]});
  }
  return "";
}

}  // namespace ptxsim::sim
