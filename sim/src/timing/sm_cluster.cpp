// The SM's part in thread block clusters under the timing driver
// (timing_driver.cpp places the clusters and runs what reaches across
// them between windows, cluster_reach.h): the warps another CTA's arrival
// releases from barrier.cluster.wait, the bulk copies' completions on
// other CTAs' mbarriers, and whether an access reached another CTA's
// shared memory (its latency is the SM-to-SM network's, ClusterTiming).
#include <bit>

#include "../exec/cluster_geometry.h"
#include "cluster_reach.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

bool SmModel::wakeClusterWaiters(const exec::ClusterState& cluster, uint64_t at) {
  bool woke = false;
  for (TimedWarp& w : warps_) {
    if (!w.clusterWaiting || w.cta->cluster != &cluster || w.warp->status != exec::WarpStatus::Ready) continue;
    w.clusterWaiting = false;
    w.retry = 0;
    w.nextKnown = false;
    if (at > w.notBefore) {
      w.notBefore = at;
      w.notBeforeReason = StallReason::Barrier;
    }
    woke = true;
  }
  if (woke) std::erase_if(parkedCtas_, [&](const exec::CtaState* cta) { return cta->cluster == &cluster; });
  return woke;
}

void SmModel::noteClusterBarrier(TimedWarp& w, exec::ClusterState& cluster, uint64_t phaseBefore,
                                 const Deferred& d) {
  if (cluster.barrier.phase != phaseBefore) {
    cluster.barrier.completedAt = d.cycle;
    clusterReleases_.push_back({&cluster, d.cycle});
  }
  if (d.instruction->source->opcode != isa::Opcode::BarrierCluster) return;
  if (w.warp->status == exec::WarpStatus::Blocked) {
    w.clusterWaiting = true;
  } else if (w.warp->clusterArrival == 0) {
    // A wait (an arrival leaves clusterArrival set) for a phase that
    // completed before it: the release still takes its time.
    const uint64_t release = cluster.barrier.completedAt + clusterBarrierCycles(timing_.cluster, cluster.ctas.size());
    if (release > w.notBefore) {
      w.notBefore = release;
      w.notBeforeReason = StallReason::Barrier;
    }
  }
}

std::optional<uint64_t> SmModel::peerOf(const ArrivingCopy& copy) const {
  return peerRankOf(copy.completion.barrier, true, exec::rankInCluster(copy.cta->ctaid, grid_.clusters.dims),
                    ctx_.layout);
}

bool SmModel::applyPeerArrivals() {
  for (const ArrivingCopy& a : peerArrivals_) {
    if (!completeArrived(a)) return false;
    // The CTA whose mbarrier moved: its livelock vote goes (livelock_vote.h).
    const std::optional<uint64_t> rank = peerOf(a);
    const exec::ClusterState* cluster = a.cta->cluster;
    if (rank && cluster != nullptr && *rank < cluster->ctas.size() && cluster->ctas[*rank] != nullptr)
      exec::noteMemoryWrite(*cluster->ctas[*rank]);
  }
  peerArrivals_.clear();
  return true;
}

bool SmModel::reachedPeerShared() const {
  const StepReport& report = ctx_.report;
  const uint32_t rank = exec::rankInCluster(ctx_.cta->ctaid, grid_.clusters.dims);
  const bool sharedOffset = report.space == AddressSpace::Shared;
  for (uint32_t lanes = report.executed; lanes != 0; lanes &= lanes - 1) {
    if (addressReachesPeer(report.addresses[std::countr_zero(lanes)], sharedOffset, rank, ctx_.layout)) return true;
  }
  return false;
}

}  // namespace ptxsim::sim::timing
