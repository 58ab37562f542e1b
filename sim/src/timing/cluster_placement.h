#pragma once

// Thread block clusters under the timing driver (timing_driver.cpp): where
// each cluster goes and what it keeps while it runs. The GPU's CTA
// scheduler starts a cluster's CTAs together on the SMs of one GPC (the
// SMs are numbered GPC by GPC here, GpuConfig::gpcSms); a cluster waits
// until one GPC has a free slot for each of its CTAs. Its CTAs go to the
// SMs holding the fewest CTAs (the lowest numbered of equals), in the GPC
// where those hold the fewest: so clusters fill the SMs breadth first, one
// CTA an SM in SM order before any SM takes a second, as the dispatcher
// places CTAs without clusters. The cluster's state (its CTAs by
// rank and its barrier, exec::ClusterState) lives here from its placement
// until its last CTA has finished; a finished CTA's state stays with it,
// so that another CTA's access to its shared memory is reported as one to
// an exited block, as the functional runner reports it.

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "../exec/cta_state.h"
#include "ptxsim/sim/cluster_shape.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

class SmModel;

class ClusterPlacement {
 public:
  // `gpcSms`: each GPC's SMs, numbered in order from 0; SMs beyond their
  // sum (a preset with more SMs than its GPCs list) form one more GPC.
  ClusterPlacement(const std::vector<uint32_t>& gpcSms, uint32_t smCount, Dim3 grid, const ClusterShape& shape,
                   uint32_t warpsPerCta);

  uint64_t clusterSize() const { return size_; }
  // Whether every cluster of the grid has been placed.
  bool allPlaced() const { return next_ >= count_; }

  // The SMs, by rank, that the next cluster would take now (`resident`:
  // the CTAs an SM holds, at most `ctasPerSm`); false when no GPC has room.
  bool fit(const std::function<uint32_t(uint32_t)>& resident, uint32_t ctasPerSm, std::vector<uint32_t>& sms) const;

  // The next cluster, placed on `sms` (by rank, from fit): its CTAs'
  // linear indices by rank and its state, which they join.
  struct Placed {
    std::vector<uint64_t> ctas;
    exec::ClusterState* state = nullptr;
  };
  Placed placeNext(const std::vector<uint32_t>& sms);

  // The SMs of a running cluster, by rank.
  const std::vector<uint32_t>& smsOf(const exec::ClusterState& cluster) const { return live_.at(&cluster).sms; }

  // A CTA of a cluster finished: marked so; its state is kept until the
  // cluster's last CTA finishes, when the cluster's state goes too.
  void finished(std::unique_ptr<exec::CtaState> cta);

 private:
  struct Live {
    std::unique_ptr<exec::ClusterState> state;
    std::vector<uint32_t> sms;
    std::vector<std::unique_ptr<exec::CtaState>> done;
  };
  std::vector<uint32_t> gpcStart_;  // the first SM of each GPC, then the SM count
  Dim3 grid_;
  Dim3 dims_;
  uint64_t size_ = 1;
  uint64_t count_ = 0;
  uint64_t next_ = 0;
  uint32_t warpsPerCta_ = 0;
  std::unordered_map<const exec::ClusterState*, Live> live_;
};

// Between windows, once the deferred instructions have run (in phase B's
// order): the bulk copies' completions on other CTAs' mbarriers that the
// `running` SMs held back, in SM order; then the warps that barrier.cluster
// phases completed by those SMs release, on every SM of the cluster, at
// ClusterTiming::barrierCycles after the completing instruction (not
// before `windowEnd`, which the SMs have reached), their SMs' next events
// moved to match. False if the launch failed.
bool exchangeAcrossClusters(std::vector<std::unique_ptr<SmModel>>& sms, const std::vector<uint32_t>& running,
                            const ClusterPlacement& clusters, std::vector<uint64_t>& nextEvent, uint64_t windowEnd,
                            const TimingConfig& timing);

}  // namespace ptxsim::sim::timing
