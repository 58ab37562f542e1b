#pragma once

// Control operations on the running group of a warp (warp_state.h), shared
// by the control-flow and synchronisation handlers and the warp loop. They
// change PCs, split groups and move lanes between frames; which group runs
// next, and when groups wait and merge, is simt_policy.h's business.

#include <utility>
#include <vector>

#include "exec_context.h"

namespace ptxsim::sim::exec {

// The running group moves past the current instruction.
void advance(ExecContext& ctx);

// The current instruction is a branch: `taken` lanes of the running group
// go to `target`, the rest fall through; they may meet at `reconvergence`.
void branch(ExecContext& ctx, LaneMask taken, uint32_t target, uint32_t reconvergence);

// Splits the running group: each (pc, lanes) part continues at its pc, all
// of them meeting at `meet`. The last part runs first under the stack.
void diverge(ExecContext& ctx, const std::vector<std::pair<uint32_t, LaneMask>>& parts, uint32_t meet);

// `lanes` leave the kernel (exit, or ret from the kernel's frame).
void exitLanes(ExecContext& ctx, LaneMask lanes);

// `lanes` return from the running group's (non-kernel) function.
void returnLanes(ExecContext& ctx, LaneMask lanes);

// The running group's lanes `lanes` call `callee` from the current
// instruction. False, with the launch failed, on stack overflow.
bool enterFunction(ExecContext& ctx, const PreparedFunction& callee, const CallBinding& binding, LaneMask lanes);

// Sets up a warp at the start of a CTA: one group of every lane in the
// kernel's frame.
void enterKernel(Warp& warp, const PreparedFunction& kernel, const uint8_t* params, uint64_t paramBytes);

// For a control instruction whose guard holds for only some of the running
// lanes: the others move on to the next instruction and the guarded lanes
// run this one alone (it is executed again for them). Returns true when it
// handled the instruction that way, so the handler must stop.
bool splitOnGuard(ExecContext& ctx);

// Whether the running group is in the kernel's own frame.
inline bool inKernelFrame(const ExecContext& ctx) { return ctx.frame->caller == nullptr; }

}  // namespace ptxsim::sim::exec
