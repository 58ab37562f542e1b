#pragma once

// CTA barriers (bar.sync, bar.arrive, bar.red, barrier.*): warps arrive,
// are counted in threads of whole warps as the hardware counts them, and
// are released together when the barrier completes.

#include "exec_context.h"

namespace ptxsim::sim::exec {

enum class BarrierReduction : uint8_t { None, Popc, And, Or };

struct BarrierArrival {
  uint32_t id = 0;
  uint32_t count = 0;  // threads expected; 0: every thread of the CTA
  bool wait = true;    // bar.sync/bar.red wait; bar.arrive does not
  BarrierReduction reduction = BarrierReduction::None;
  LaneMask predicate = 0;  // bar.red: the executing lanes whose predicate holds
};

// The current warp arrives at the barrier. A waiting warp blocks (its PC
// stays on the barrier instruction until release); the last arrival
// releases every waiter and moves them past the instruction.
void arrive(ExecContext& ctx, const BarrierArrival& arrival);

// Called when warps finish: a barrier waiting for every thread of the CTA
// (or, for barrier.cluster, of the cluster) may now be complete because
// fewer warps remain.
void releaseCompletedBarriers(ExecContext& ctx);

}  // namespace ptxsim::sim::exec
