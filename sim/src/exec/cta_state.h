#pragma once

// One CTA while it runs: its warps, shared memory and barriers, and the
// device printf output it produced.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "device_launch.h"
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
  // Warp instructions the CTA has executed: the functional model's clock
  // (%clock, %globaltimer), which depends only on the CTA itself, so it is
  // the same whatever else ran on its host thread.
  uint64_t instructions = 0;
  // Instructions that wrote memory (stores, atomics that changed it): a CTA
  // that runs on without any is watched for livelock (progress_monitor.h).
  uint64_t memoryWrites = 0;
  // Streams, events, errors and the grids this CTA launched.
  DeviceRuntimeState deviceRuntime;
};

}  // namespace ptxsim::sim::exec
