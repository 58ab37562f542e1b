#pragma once

// Runs one CTA to completion on the calling host thread: its warps take
// turns (a quantum of instructions each, or until they block at a
// barrier), which is deterministic and lets warps that spin on each other
// make progress. A CTA in which no warp can move is a deadlock.

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Runs the CTA with linear index `linearId`; `cta` is reused between CTAs
// of a host thread to keep its buffers.
void runCta(ExecContext& ctx, CtaState& cta, uint64_t linearId);

}  // namespace ptxsim::sim::exec
