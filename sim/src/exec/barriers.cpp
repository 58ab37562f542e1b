#include "barriers.h"

#include <bit>

#include "cluster_barrier.h"
#include "simt_policy.h"
#include "warp_control.h"

namespace ptxsim::sim::exec {

namespace {

uint32_t liveWarps(const CtaState& cta) {
  uint32_t live = 0;
  for (const Warp& w : cta.warps) live += w.done() ? 0 : 1;
  return live;
}

bool complete(const CtaState& cta, const BarrierState& b) {
  if (b.expected != 0) return b.arrived >= b.expected;
  return b.arrived >= liveWarps(cta) * kWarpSize;
}

// Writes bar.red's result to a released group's destination.
void deliverReduction(ExecContext& ctx, Warp& warp, uint32_t group, const BarrierState& b) {
  ThreadGroup& g = warp.groups[group];
  Frame& frame = *g.frame;
  const PreparedInstruction& pi = frame.function->code[g.pc];
  if (pi.aux2 == 0) return;
  auto reduction = static_cast<BarrierReduction>(pi.aux2);
  uint64_t value = reduction == BarrierReduction::Popc  ? b.popc
                   : reduction == BarrierReduction::And ? (b.allTrue ? 1 : 0)
                                                        : (b.anyTrue ? 1 : 0);
  Frame* saved = ctx.frame;
  ctx.frame = &frame;
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(g.mask, [&](unsigned l) { d[l] = value; });
  ctx.frame = saved;
}

// The waiting warps go on past the barrier: every group of theirs waits
// there (a warp arrives only when all its threads have; they may wait at
// different barrier.sync instructions).
void release(ExecContext& ctx, BarrierState& b) {
  CtaState& cta = *ctx.cta;
  for (uint32_t w : b.waiters) {
    Warp& warp = cta.warps[w];
    warp.status = WarpStatus::Ready;
    for (uint32_t i = 0; i < warp.groups.size(); ++i) {
      if (warp.groups[i].mask == 0 || warp.groups[i].wait != GroupWait::Barrier) continue;
      deliverReduction(ctx, warp, i, b);
      advanceGroup(warp, i);
    }
  }
  b = BarrierState{};
}

}  // namespace

void arrive(ExecContext& ctx, const BarrierArrival& arrival) {
  CtaState& cta = *ctx.cta;
  Warp& warp = *ctx.warp;
  BarrierState& b = cta.barriers[arrival.id];
  ++ctx.stats.barriers;
  if (b.arrived == 0) b.expected = arrival.count;
  b.arrived += kWarpSize;
  if (arrival.reduction != BarrierReduction::None) {
    b.popc += static_cast<uint32_t>(std::popcount(arrival.predicate));
    b.allTrue = b.allTrue && (arrival.predicate == ctx.mask);
    b.anyTrue = b.anyTrue || arrival.predicate != 0;
  }
  if (arrival.wait) {
    warp.status = WarpStatus::Blocked;
    warp.barrier = arrival.id;
    warp.group().wait = GroupWait::Barrier;
    b.waiters.push_back(warp.index);
  } else {
    advance(ctx);
  }
  if (complete(cta, b)) release(ctx, b);
}

void releaseCompletedBarriers(ExecContext& ctx) {
  for (BarrierState& b : ctx.cta->barriers) {
    if (b.arrived != 0 && b.expected == 0 && complete(*ctx.cta, b)) release(ctx, b);
  }
  clusterWarpsExited(ctx);
}

}  // namespace ptxsim::sim::exec
