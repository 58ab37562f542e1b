#pragma once

// Runs one CTA to completion on the calling host thread: its warps take
// turns (a quantum of instructions each, or until they block at a
// barrier), which is deterministic and lets warps that spin on each other
// make progress. A CTA in which no warp can move is a deadlock.

#include <string>

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Runs the CTA with linear index `linearId`; `cta` is reused between CTAs
// of a host thread to keep its buffers.
void runCta(ExecContext& ctx, CtaState& cta, uint64_t linearId);

// The pieces runCta is made of, for drivers that interleave CTAs
// (cooperative_runner.h).

// Sets `cta` up as the CTA with linear index `linearId`, every warp at the
// kernel's entry.
void initCta(ExecContext& ctx, CtaState& cta, uint64_t linearId);

enum class RoundOutcome : uint8_t {
  Running,  // some thread moved
  Done,     // every thread has exited
  Stalled,  // no thread can move: a deadlock within the CTA
  Stopped,  // the launch failed (a fault, the instruction limit)
};

// One scheduling round: every ready warp runs for a quantum or until it
// blocks. `executed` receives the warp instructions it ran.
RoundOutcome runRound(ExecContext& ctx, CtaState& cta, uint64_t& executed);

// Fails the launch with a deadlock report for `cta`: "deadlock: WHY in
// kernel K, block (x,y,z) (simt M):" and every unfinished warp's threads.
void failStalled(ExecContext& ctx, CtaState& cta, const std::string& why);

}  // namespace ptxsim::sim::exec
