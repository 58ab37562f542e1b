#pragma once

// One CTA while it runs: its warps, shared memory and barriers, and the
// device printf output it produced.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster_state.h"
#include "device_launch.h"
#include "livelock_vote.h"
#include "ptxsim/sim/launch_geometry.h"
#include "warp_state.h"

namespace ptxsim::sim::exec {

inline constexpr unsigned kBarrierCount = 16;

struct CtaState {
  Dim3 ctaid;
  uint64_t linearId = 0;
  uint32_t threadCount = 0;
  std::vector<uint8_t> shared;
  std::vector<Warp> warps;
  std::array<BarrierState, kBarrierCount> barriers{};
  std::string printfOutput;
  // Warp instructions the CTA has executed: the functional model's clock
  // (%clock, %globaltimer), which depends only on the CTA itself, so it is
  // the same whatever else ran on its host thread.
  uint64_t instructions = 0;
  // Instructions that wrote memory (stores, atomics that changed it): a CTA
  // that runs on without any is watched for livelock (progress_monitor.h).
  uint64_t memoryWrites = 0;
  // The CTA's livelock vote while its runner holds one (null otherwise).
  LivelockVote* livelockVote = nullptr;
  // Streams, events, errors and the grids this CTA launched.
  DeviceRuntimeState deviceRuntime;
  // The cluster the CTA belongs to (cluster_state.h); null for a cluster of
  // this CTA alone, whose barrier.cluster is `soloClusterBarrier`.
  ClusterState* cluster = nullptr;
  ClusterBarrier soloClusterBarrier;
  // Every thread has exited: its shared memory is gone for the other CTAs
  // of its cluster.
  bool finished = false;
};

// The CTA wrote memory. It withdraws a claim to repeat at once, not at the
// end of its scheduling round: a host thread descheduled mid-round (after
// taking a lock, say) must not leave a stale claim that lets the CTAs
// waiting for it be judged deadlocked.
inline void noteMemoryWrite(CtaState& cta) {
  ++cta.memoryWrites;
  if (cta.livelockVote != nullptr) cta.livelockVote->set(false);
}

// The CTA of rank `rank` in `cta`'s cluster; null when the cluster has no
// such rank.
inline CtaState* clusterCta(CtaState& cta, uint64_t rank) {
  if (cta.cluster == nullptr) return rank == 0 ? &cta : nullptr;
  return rank < cta.cluster->ctas.size() ? cta.cluster->ctas[rank] : nullptr;
}

inline ClusterBarrier& clusterBarrierOf(CtaState& cta) {
  return cta.cluster != nullptr ? cta.cluster->barrier : cta.soloClusterBarrier;
}

}  // namespace ptxsim::sim::exec
