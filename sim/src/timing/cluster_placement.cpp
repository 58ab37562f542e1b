#include "cluster_placement.h"

#include <algorithm>

#include "../exec/cluster_geometry.h"
#include "cluster_reach.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

ClusterPlacement::ClusterPlacement(const std::vector<uint32_t>& gpcSms, uint32_t smCount, Dim3 grid,
                                   const ClusterShape& shape, uint32_t warpsPerCta)
    : grid_(grid), dims_(shape.dims), size_(shape.size()), count_(grid.count() / shape.size()),
      warpsPerCta_(warpsPerCta) {
  uint32_t start = 0;
  for (uint32_t sms : gpcSms) {
    if (start >= smCount) break;
    gpcStart_.push_back(start);
    start += sms;
  }
  if (start < smCount) gpcStart_.push_back(start);
  gpcStart_.push_back(smCount);
}

bool ClusterPlacement::fit(const std::function<uint32_t(uint32_t)>& resident, uint32_t ctasPerSm,
                           std::vector<uint32_t>& sms) const {
  // Per GPC, rank by rank, the SM with the fewest CTAs (the lowest of
  // equals) that has room; the GPC whose picks hold the fewest CTAs (the
  // lowest of equals) takes the cluster.
  uint64_t bestLoad = UINT64_MAX;
  std::vector<uint32_t> load, picks;
  for (size_t g = 0; g + 1 < gpcStart_.size(); ++g) {
    const uint32_t first = gpcStart_[g];
    load.clear();
    for (uint32_t s = first; s < gpcStart_[g + 1]; ++s) load.push_back(resident(s));
    picks.clear();
    uint64_t total = 0;
    for (uint64_t rank = 0; rank < size_; ++rank) {
      size_t pick = load.size();
      for (size_t i = 0; i < load.size(); ++i)
        if (load[i] < ctasPerSm && (pick == load.size() || load[i] < load[pick])) pick = i;
      if (pick == load.size()) break;
      total += load[pick]++;
      picks.push_back(first + static_cast<uint32_t>(pick));
    }
    if (picks.size() == size_ && total < bestLoad) {
      bestLoad = total;
      sms = picks;
    }
  }
  return bestLoad != UINT64_MAX;
}

ClusterPlacement::Placed ClusterPlacement::placeNext(const std::vector<uint32_t>& sms) {
  Live live;
  live.state = std::make_unique<exec::ClusterState>();
  // Every CTA's entry is filled when its SM starts it; the live warps are
  // known now (initCta gives each CTA the same count).
  live.state->ctas.assign(size_, nullptr);
  live.state->barrier.liveWarps = static_cast<uint32_t>(warpsPerCta_ * size_);
  live.sms = sms;
  Placed placed;
  placed.state = live.state.get();
  for (uint64_t rank = 0; rank < size_; ++rank) placed.ctas.push_back(exec::ctaOfCluster(grid_, dims_, next_, rank));
  live_.emplace(placed.state, std::move(live));
  ++next_;
  return placed;
}

void ClusterPlacement::finished(std::unique_ptr<exec::CtaState> cta) {
  cta->finished = true;
  auto it = live_.find(cta->cluster);
  if (it == live_.end()) return;
  Live& live = it->second;
  live.done.push_back(std::move(cta));
  if (live.done.size() == size_) live_.erase(it);
}

bool exchangeAcrossClusters(std::vector<std::unique_ptr<SmModel>>& sms, const std::vector<uint32_t>& running,
                            const ClusterPlacement& clusters, std::vector<uint64_t>& nextEvent, uint64_t windowEnd,
                            const TimingConfig& timing) {
  for (uint32_t s : running)
    if (!sms[s]->applyPeerArrivals()) return false;
  for (uint32_t s : running) {
    for (const SmModel::ClusterRelease& release : sms[s]->clusterReleases()) {
      const uint64_t at = std::max(windowEnd, release.cycle + clusterBarrierCycles(timing.cluster, clusters.clusterSize()));
      for (uint32_t sm : clusters.smsOf(*release.cluster)) {
        if (sms[sm]->wakeClusterWaiters(*release.cluster, at)) nextEvent[sm] = std::min(nextEvent[sm], at);
      }
    }
    sms[s]->clusterReleases().clear();
  }
  return true;
}

}  // namespace ptxsim::sim::timing
