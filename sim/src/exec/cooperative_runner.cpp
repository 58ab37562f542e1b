#include "cooperative_runner.h"

#include <vector>

#include "cluster_barrier.h"
#include "cluster_geometry.h"
#include "cta_runner.h"
#include "progress_monitor.h"

namespace ptxsim::sim::exec {

namespace {

// A resident CTA and what the livelock watch keeps for it.
struct ResidentCta {
  CtaState state;
  ProgressMonitor monitor;
  bool finished = false;
  bool repeating = false;  // its state repeated with no memory written anywhere since
};

std::string gridDeadlockReason(uint64_t waiting, uint64_t total) {
  uint64_t exited = total - waiting;
  return "the blocks of the cooperative grid repeat the same states without writing memory (" +
         std::to_string(waiting) + " of " + std::to_string(total) + " blocks wait, " +
         std::to_string(exited) +
         " exited: a grid.sync() that some block never reaches, or a spin on memory no block writes); the "
         "first "
         "waiting one";
}

}  // namespace

void runCooperativeGrid(ExecContext& ctx, std::string& printfOutput,
                        std::map<uint64_t, std::vector<DeviceLaunch>>& launchesByCta) {
  const uint64_t count = ctx.grid.launch.grid.count();
  std::vector<ResidentCta> ctas(count);
  for (uint64_t id = 0; id < count; ++id) initCta(ctx, ctas[id].state, id);
  // Thread block clusters (cluster_geometry.h), when the launch has them.
  const Dim3 grid = ctx.grid.launch.grid, shape = ctx.grid.clusters.dims;
  const uint64_t clusterSize = shape.count();
  std::vector<ClusterState> clusters(clusterSize > 1 ? count / clusterSize : 0);
  for (uint64_t c = 0; c < clusters.size(); ++c) {
    std::vector<CtaState*> members;
    for (uint64_t rank = 0; rank < clusterSize; ++rank)
      members.push_back(&ctas[ctaOfCluster(grid, shape, c, rank)].state);
    formCluster(clusters[c], members);
  }
  ctx.aborted = false;
  uint64_t running = count;
  uint64_t launchWrites = 0;  // memory-writing instructions of every CTA so far
  while (running > 0) {
    uint64_t repeating = 0;
    const uint64_t writesBeforePass = launchWrites;
    for (uint64_t id = 0; id < count; ++id) {
      ResidentCta& resident = ctas[id];
      if (resident.finished) continue;
      CtaState& cta = resident.state;
      uint64_t writesBefore = cta.memoryWrites;
      uint64_t executed = 0;
      RoundOutcome outcome = runRound(ctx, cta, executed);
      printfOutput += cta.printfOutput;
      cta.printfOutput.clear();
      for (DeviceLaunch& l : cta.deviceRuntime.launches) launchesByCta[id].push_back(std::move(l));
      cta.deviceRuntime.launches.clear();
      if (outcome == RoundOutcome::Stopped) return;  // a fault ends the whole grid, as on a GPU
      // Warps at barrier.cluster.wait wait for the cluster's other CTAs.
      const bool waitsForCluster =
          outcome == RoundOutcome::Stalled && clusterSize > 1 && waitsAtClusterBarrier(cta);
      if (outcome == RoundOutcome::Stalled && !waitsForCluster) {
        failStalled(ctx, cta, "no thread of the block can make progress");
        return;
      }
      launchWrites += cta.memoryWrites - writesBefore;
      if (outcome == RoundOutcome::Done) {
        // Frees its warps, registers and shared memory, unless other CTAs
        // of its cluster may still name it.
        if (clusterSize == 1) resident = ResidentCta{};
        cta.finished = true;
        resident.finished = true;
        --running;
        continue;
      }
      resident.repeating = resident.monitor.repeating(cta, executed, launchWrites) || waitsForCluster;
      repeating += resident.repeating ? 1 : 0;
    }
    // Every unfinished CTA repeated in this pass and none (a finishing one
    // included) wrote memory: the grid's state as a whole repeats, forever.
    if (running > 0 && repeating == running && launchWrites == writesBeforePass) {
      for (ResidentCta& resident : ctas) {
        if (resident.finished) continue;
        failStalled(ctx, resident.state, gridDeadlockReason(running, count));
        return;
      }
    }
  }
}

}  // namespace ptxsim::sim::exec
