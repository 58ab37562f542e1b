#pragma once

// A timed launch's statistics, in Nsight Compute's terms, gathered once it
// has ended: its cycles (from the last SM active or waiting for memory,
// plus the grid's own launch and retirement), each SM's counters, caches
// and stalls, and the L2's and DRAM's counts.

#include <cstdint>
#include <memory>
#include <vector>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/l2_cache.h"
#include "ptxsim/sim/gpu_config.h"
#include "ptxsim/sim/kernel_stats.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

// Fills `stats` (its timing part, and the SMs' instruction counts) for a
// launch that started at `startCycle`.
void gatherTimedStats(KernelStats& stats, const std::vector<std::unique_ptr<SmModel>>& sms,
                      const memory::L2Stats& l2, const memory::HbmStats& dram, const GpuConfig& config,
                      uint64_t startCycle);

}  // namespace ptxsim::sim::timing
