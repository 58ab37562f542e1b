#pragma once

// What the timing driver tells the trace recorder and the progress meter,
// taken from its grid and SMs, so that the driver needs only their calls.

#include <memory>
#include <vector>

#include "../exec/grid_context.h"
#include "progress_meter.h"
#include "ptxsim/sim/trace_recorder.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

inline TracedKernel tracedKernel(const exec::GridContext& grid) {
  TracedKernel k;
  k.device = grid.config.name;
  k.name = grid.kernel.kernel().function->name;
  k.grid = grid.launch.grid;
  k.block = grid.launch.block;
  k.launchId = grid.gridId;
  k.parentLaunchId = grid.parentLaunchId;
  k.depth = grid.depth;
  k.cooperative = grid.launch.cooperative;
  k.clockKhz = grid.config.clockRateKhz;
  k.launchOverheadNs = grid.config.timing.launchOverheadNs;
  return k;
}

inline TracedSm tracedSm(const SmCounters& c) {
  return TracedSm{c.activeCycles, c.warpCyclesResident, c.issued, c.warpCycles};
}

// The launch so far: `cycles` simulated, the SMs' instructions.
inline ProgressCounts progressOf(const std::vector<std::unique_ptr<SmModel>>& sms, uint64_t cycles) {
  ProgressCounts counts{cycles, 0, 0};
  for (const auto& sm : sms) {
    counts.warpInstructions += sm->context().stats.warpInstructions;
    counts.threadInstructions += sm->context().stats.threadInstructions;
  }
  return counts;
}

}  // namespace ptxsim::sim::timing
