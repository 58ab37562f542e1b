#pragma once

// barrier.cluster: every non-exited thread of the cluster arrives
// (barrier.cluster.arrive), then waits until all of them have
// (barrier.cluster.wait). The two halves are separate instructions, so a
// warp remembers the phase it arrived in; its wait blocks until that phase
// completes. Counted in whole warps, as CTA barriers are. The waiting warps
// of every CTA of the cluster are released by the last arrival, which may
// come from another CTA (the cluster's CTAs run on one host thread).

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Warp::barrier of a warp blocked at barrier.cluster.wait (CTA barriers
// are 0..kBarrierCount-1).
inline constexpr uint32_t kClusterBarrierId = kBarrierCount;

// The current warp arrives; it moves on.
void clusterArrive(ExecContext& ctx);

// The current warp waits for the phase it arrived in: it moves on when the
// phase has completed, and blocks until then otherwise. A wait without an
// arrival fails the launch (the ISA leaves it undefined).
void clusterWait(ExecContext& ctx);

// Called when warps of ctx.cta finish: an exited warp no longer holds the
// cluster barrier back.
void clusterWarpsExited(ExecContext& ctx);

// Whether a warp of `cta` is blocked at barrier.cluster.wait (released
// only by other CTAs when the CTA itself cannot move).
bool waitsAtClusterBarrier(const CtaState& cta);

}  // namespace ptxsim::sim::exec
