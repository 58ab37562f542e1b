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

#include "completion_groups.h"
#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

bool isWgmma(isa::Opcode op);

// What the wgmma `inst` takes of its sub-partition's tensor core: the
// cycles it computes, and those before the next wgmma may start there
// (TensorCoreTiming).
struct WgmmaCycles {
  uint32_t compute = 0;
  uint32_t busy = 0;
};
WgmmaCycles wgmmaTensorCycles(const TensorCoreTiming& tensor, const isa::Instruction& inst);

}  // namespace ptxsim::sim::timing
