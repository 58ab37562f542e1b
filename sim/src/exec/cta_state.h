#pragma once

// One CTA while it runs: its warps, shared memory and barriers, and the
// device printf output it produced.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/sim/launch_geometry.h"
#include "warp_state.h"

namespace ptxsim::sim::exec {

inline constexpr unsigned kBarrierCount = 16;

struct CtaState {
  Dim3 ctaid;
  uint64_t linearId = 0;
  uint32_t threadCount = 0;
  std::vector<uint8_t> shared;
  std::vector<Warp> warps;
  std::array<BarrierState, kBarrierCount> barriers{};
  std::string printfOutput;
};

}  // namespace ptxsim::sim::exec
