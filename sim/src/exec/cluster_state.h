#pragma once

// A thread block cluster while it runs: its CTAs by rank, which reach each
// other's shared memory (distributed shared memory), and the cluster-wide
// barrier (barrier.cluster). The CTAs of a cluster run on one host thread,
// interleaved round by round (cta_runner.h), so none of this is locked.

#include <cstdint>
#include <utility>
#include <vector>

namespace ptxsim::sim::exec {

struct CtaState;

// barrier.cluster.arrive / .wait over every thread of the cluster, counted
// in whole warps as CTA barriers are (barriers.h). A warp that has exited
// counts as arrived, as the ISA's "non-exited threads" says.
struct ClusterBarrier {
  uint64_t phase = 0;      // phases completed so far
  uint32_t arrived = 0;    // live warps that arrived in the current phase
  uint32_t liveWarps = 0;  // warps of the cluster that have not exited
  // The timing model's: the simulated cycle the last phase completed in,
  // which holds the warps that wait for it after that (sm_cluster.cpp).
  uint64_t completedAt = 0;
  // Warps blocked at barrier.cluster.wait: their CTA and warp index.
  std::vector<std::pair<CtaState*, uint32_t>> waiters;
};

struct ClusterState {
  std::vector<CtaState*> ctas;  // by %cluster_ctarank
  ClusterBarrier barrier;
};

}  // namespace ptxsim::sim::exec
