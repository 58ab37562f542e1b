#pragma once

// wgmma.mma_async in the timing model (TensorCoreTiming): each warp's
// wgmmas queue on its sub-partition's tensor core, and their groups
// (wgmma.commit_group) complete when their last wgmma's results are there;
// wgmma.wait_group N holds the warp until all but the N most recent groups
// have. The accumulators are not scoreboarded: a wgmma that accumulates
// into the registers of the one before it issues behind it without
// waiting (the tensor core keeps them), and PTX leaves reading them before
// the wait undefined.

#include <cstdint>
#include <vector>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

// A warp's wgmma groups.
struct WgmmaGroups {
  uint64_t open = 0;                // when the wgmmas since the last commit_group are done
  std::vector<uint64_t> committed;  // when each committed group is, oldest first
};

bool isWgmma(isa::Opcode op);

// Cycles the wgmma `inst` keeps its sub-partition's tensor core.
uint32_t wgmmaTensorCycles(const TensorCoreTiming& tensor, const isa::Instruction& inst);

// After the wgmma ordering instruction `op` issued at `now` (`waitCount`:
// wait_group's N): the cycle from which the warp may issue again.
uint64_t trackWgmmaGroups(WgmmaGroups& groups, isa::Opcode op, uint64_t waitCount, uint64_t now);

}  // namespace ptxsim::sim::timing
