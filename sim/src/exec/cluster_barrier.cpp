#include "cluster_barrier.h"

#include <bit>

#include "simt_policy.h"
#include "warp_control.h"

namespace ptxsim::sim::exec {

namespace {

// The CTAs whose warps the barrier counts.
template <typename F>
void forClusterCtas(CtaState& cta, F&& f) {
  if (cta.cluster == nullptr) {
    f(cta);
    return;
  }
  for (CtaState* member : cta.cluster->ctas) f(*member);
}

void completePhase(ClusterBarrier& b) {
  ++b.phase;
  b.arrived = 0;
  for (auto [cta, index] : b.waiters) {
    Warp& warp = cta->warps[index];
    warp.status = WarpStatus::Ready;
    warp.clusterArrival = 0;
    for (uint32_t i = 0; i < warp.groups.size(); ++i) {
      if (warp.groups[i].mask != 0 && warp.groups[i].wait == GroupWait::Barrier) advanceGroup(warp, i);
    }
  }
  b.waiters.clear();
}

// Groups of the warp waiting at another (non-.aligned) barrier.cluster
// instruction arrive, or wait, with the running group: sync_points.cpp
// made the whole warp gather first, as for barrier.sync.
void moveOtherWaitingGroups(Warp& warp) {
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    if (i != warp.current && warp.groups[i].mask != 0 && warp.groups[i].wait == GroupWait::Barrier) {
      advanceGroup(warp, i);
    }
  }
}

unsigned firstActiveLane(const ExecContext& ctx) {
  return static_cast<unsigned>(std::countr_zero(ctx.active | 1u));
}

}  // namespace

void clusterArrive(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  ClusterBarrier& b = clusterBarrierOf(*ctx.cta);
  ++ctx.stats.barriers;
  if (warp.clusterArrival != 0) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             "barrier.cluster.arrive by threads that arrived before without barrier.cluster.wait",
             firstActiveLane(ctx));
    return;
  }
  warp.clusterArrival = b.phase + 1;
  moveOtherWaitingGroups(warp);
  advance(ctx);
  if (++b.arrived >= b.liveWarps) completePhase(b);
}

void clusterWait(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  ClusterBarrier& b = clusterBarrierOf(*ctx.cta);
  if (warp.clusterArrival == 0) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             "barrier.cluster.wait by threads that have not arrived (barrier.cluster.arrive) since their "
             "last wait",
             firstActiveLane(ctx));
    return;
  }
  if (warp.clusterArrival - 1 < b.phase) {  // that phase has completed
    warp.clusterArrival = 0;
    moveOtherWaitingGroups(warp);
    advance(ctx);
    return;
  }
  warp.status = WarpStatus::Blocked;
  warp.barrier = kClusterBarrierId;
  warp.group().wait = GroupWait::Barrier;
  b.waiters.emplace_back(ctx.cta, warp.index);
}

void clusterWarpsExited(ExecContext& ctx) {
  ClusterBarrier& b = clusterBarrierOf(*ctx.cta);
  uint32_t live = 0, arrived = 0;
  forClusterCtas(*ctx.cta, [&](CtaState& member) {
    for (const Warp& w : member.warps) {
      if (w.done()) continue;
      ++live;
      arrived += w.clusterArrival == b.phase + 1 ? 1 : 0;
    }
  });
  b.liveWarps = live;
  b.arrived = arrived;
  if (arrived > 0 && arrived >= live) completePhase(b);
}

bool waitsAtClusterBarrier(const CtaState& cta) {
  for (const Warp& w : cta.warps) {
    if (w.status == WarpStatus::Blocked && w.barrier == kClusterBarrierId) return true;
  }
  return false;
}

}  // namespace ptxsim::sim::exec
