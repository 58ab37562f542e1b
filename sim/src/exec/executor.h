#pragma once

// The executor: runs warp instructions. Every driver (the functional
// driver now, the timing model later) calls step(); it decides nothing
// about time, and reports in ctx.report what a timing model needs.

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Executes the instruction at the warp's current PC for the lanes there.
// Returns false when the warp cannot run (done or blocked).
bool step(ExecContext& ctx);

// Runs the warp until it blocks, finishes or has executed `budget`
// instructions; returns how many it executed.
uint32_t runWarp(ExecContext& ctx, uint32_t budget);

}  // namespace ptxsim::sim::exec
