#pragma once

// The executor: runs warp instructions. Every driver (the functional
// driver now, the timing model later) calls step(); it decides nothing
// about time, and reports in ctx.report what a timing model needs.

#include "exec_context.h"

namespace ptxsim::sim::exec {

enum class StepResult : uint8_t {
  Executed,  // one instruction ran for the chosen group
  Waited,    // the chosen group must wait for other threads; nothing ran
  Blocked,   // no group can run: the warp is done, at a barrier, or failed
};

// Executes the instruction at the PC of the group the warp's schedule
// chooses, for the lanes there.
StepResult step(ExecContext& ctx);

// The instruction the next step() of ctx.warp would execute, chosen now and
// kept until that step: a timing driver asks this (any number of times) to
// check dependences before it lets the warp issue. Null when no group can
// run (the warp is done or blocked, or stuck: then the launch has failed).
const PreparedInstruction* peek(ExecContext& ctx);

// Runs the warp until it blocks, finishes or has executed `budget`
// instructions; returns how many it executed. Sets `changed` when its state
// changed at all (instructions ran or groups started waiting).
uint32_t runWarp(ExecContext& ctx, uint32_t budget, bool& changed);

// Fails the launch with a deadlock report for the running warp, whose
// threads all wait for each other.
void reportStuckWarp(ExecContext& ctx);

// One line per group of threads of a warp: lanes, PC, PTX line, and what
// they wait for.
std::string describeWarp(const Warp& warp);

}  // namespace ptxsim::sim::exec
