#pragma once

// Operations on a warp's reconvergence stacks and call frames, shared by
// the control-flow and synchronisation handlers and by the warp loop.

#include "exec_context.h"

namespace ptxsim::sim::exec {

// The top entry's lanes move past the current instruction; entries whose
// lanes reached their reconvergence point are popped.
void advance(Frame& frame);

// The current instruction is a branch: `taken` lanes of the top entry go to
// `target`, the rest fall through; they meet again at `reconvergence`.
void branch(Frame& frame, LaneMask taken, uint32_t target, uint32_t reconvergence);

// `lanes` leave the kernel (exit, or ret from the kernel's frame).
void exitLanes(ExecContext& ctx, LaneMask lanes);

// `lanes` return from the current (non-kernel) function.
void returnLanes(ExecContext& ctx, LaneMask lanes);

// Pops empty entries and finished frames after lanes left, copying return
// values to callers; marks the warp done when no frame is left.
void settle(ExecContext& ctx);

// Pushes a frame for `callee`, entered by `lanes` from the call at the top
// entry's PC. False, with the launch failed, on stack overflow.
bool enterFunction(ExecContext& ctx, const PreparedFunction& callee, const CallBinding& binding, LaneMask lanes);

// Sets up the kernel frame of a warp at the start of a CTA.
void enterKernel(Warp& warp, const PreparedFunction& kernel, const uint8_t* params, uint64_t paramBytes);

}  // namespace ptxsim::sim::exec

namespace ptxsim::sim::exec {

// For a control instruction whose guard holds for only some of the active
// lanes: the others move on to the next instruction and the guarded lanes
// run this one alone (it is executed again for them). Returns true when it
// handled the instruction that way, so the handler must stop.
bool splitOnGuard(ExecContext& ctx);

}  // namespace ptxsim::sim::exec
