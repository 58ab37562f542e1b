#pragma once

// The timing driver: runs a grid on the SMs of the preset cycle by cycle
// (sm_model.h), placing CTAs on SMs as slots free the way the GPU's CTA
// scheduler does (lowest SM with room first, then in order), and skipping
// cycles in which nothing can happen. Results are the functional model's;
// the driver adds cycles to the statistics and gives %clock, %clock64,
// %globaltimer and %smid their simulated values.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../exec/cta_state.h"
#include "../exec/device_launch.h"
#include "../exec/grid_context.h"
#include "instruction_fetch.h"
#include "memory_system.h"
#include "sm_data_caches.h"
#include "window_pool.h"
#include "ptxsim/sim/kernel_stats.h"

namespace ptxsim::sim::timing {

struct TimedGrid {
  KernelStats stats;           // the SMs' counters and cycles
  std::string printfOutput;    // by CTA, in CTA order
  std::map<uint64_t, std::vector<exec::DeviceLaunch>> launchesByCta;
  unsigned hostThreads = 1;  // that advanced the SMs
};

// What the GPU keeps from one timed launch to the next: its caches' lines
// (the L1s' storage only: sm_data_caches.h). And the host threads that
// advance its SMs, and per SM the CTA states its finished CTAs left
// (SmModel::takeSpareCtas), for the next launch's.
struct KeptState {
  InstructionCaches instructionCaches;
  SmDataCaches dataCaches;
  MemorySystem memory;
  std::unique_ptr<WindowPool> pool;
  std::vector<std::vector<std::unique_ptr<exec::CtaState>>> spareCtas;
};

// Runs every CTA of `grid`, at most `ctasPerSm` resident on an SM at once,
// the SMs advanced by up to `hostThreads` host threads (the results do not
// depend on it). The grid starts at simulated cycle `startCycle`; `kept`
// holds the caches as earlier launches left them.
TimedGrid runTimedGrid(exec::GridContext& grid, uint32_t ctasPerSm, KeptState& kept, unsigned hostThreads,
                       uint64_t startCycle = 0);

}  // namespace ptxsim::sim::timing
