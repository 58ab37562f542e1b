#include "cta_runner.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "barriers.h"
#include "cluster_barrier.h"
#include "cluster_geometry.h"
#include "executor.h"
#include "livelock_vote.h"
#include "progress_monitor.h"
#include "simt_policy.h"
#include "warp_control.h"

namespace ptxsim::sim::exec {

void initCta(ExecContext& ctx, CtaState& cta, uint64_t linearId) {
  const LaunchConfig& launch = ctx.grid.launch;
  const PreparedKernel& kernel = ctx.grid.kernel;
  const LaunchOptions& options = ctx.grid.options;
  SimtMode mode = resolveSimtMode(options.simt, ctx.grid.config.smVersion, kernel.module->target.sm);
  cta.linearId = linearId;
  uint64_t gx = launch.grid.x, gy = launch.grid.y;
  cta.ctaid = {static_cast<uint32_t>(linearId % gx), static_cast<uint32_t>(linearId / gx % gy),
               static_cast<uint32_t>(linearId / (gx * gy))};
  cta.threadCount = static_cast<uint32_t>(launch.block.count());
  cta.shared.assign(kernel.dynamicSharedOffset + launch.dynamicSharedBytes, 0);
  cta.printfOutput.clear();
  cta.instructions = 0;
  cta.memoryWrites = 0;
  cta.deviceRuntime.clear();
  for (BarrierState& b : cta.barriers) b = BarrierState{};
  uint32_t warpCount = (cta.threadCount + kWarpSize - 1) / kWarpSize;
  cta.cluster = nullptr;
  cta.soloClusterBarrier = ClusterBarrier{};
  cta.soloClusterBarrier.liveWarps = warpCount;
  cta.finished = false;
  cta.warps.resize(warpCount);
  for (uint32_t w = 0; w < warpCount; ++w) {
    Warp& warp = cta.warps[w];
    warp.index = w;
    uint32_t first = w * kWarpSize;
    uint32_t lanes = std::min<uint32_t>(kWarpSize, cta.threadCount - first);
    warp.existing = lanes == kWarpSize ? kFullMask : (LaneMask{1} << lanes) - 1;
    warp.exited = 0;
    warp.status = WarpStatus::Ready;
    warp.picked = false;
    warp.clusterArrival = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      uint32_t t = first + lane;
      warp.tid[lane] = {t % launch.block.x, t / launch.block.x % launch.block.y,
                        t / (launch.block.x * launch.block.y)};
    }
    warp.local.assign(ctx.grid.localBytesPerThread * kWarpSize, 0);
    configureWarp(warp, mode, options.itsSchedule, options.seed, linearId);
    enterKernel(warp, kernel.kernel(), launch.parameters.data(), launch.parameters.size());
  }
}

namespace {

std::string blockName(const CtaState& cta) {
  return "block (" + std::to_string(cta.ctaid.x) + "," + std::to_string(cta.ctaid.y) + "," +
         std::to_string(cta.ctaid.z) + ")";
}

std::string stalledThreads(const CtaState& cta) {
  std::string text;
  for (const Warp& warp : cta.warps) {
    if (warp.done()) continue;
    text += describeWarp(warp);
    if (warp.status == WarpStatus::Blocked) {
      text += warp.barrier == kClusterBarrierId ? " (barrier.cluster.wait)"
                                                : " (barrier " + std::to_string(warp.barrier) + ")";
    }
  }
  return text;
}

}  // namespace

void failStalled(ExecContext& ctx, CtaState& cta, const std::string& why) {
  ctx.warp = nullptr;
  ctx.frame = nullptr;
  ctx.current = nullptr;
  ctx.grid.fail(cta.linearId, LaunchErrorKind::Deadlock,
                "deadlock: " + why + " in kernel " + ctx.grid.kernel.kernel().function->name + ", " +
                    blockName(cta) + " (simt " + std::string(nameOf(cta.warps.front().mode)) +
                    "):" + stalledThreads(cta));
  ctx.aborted = true;
}

RoundOutcome runRound(ExecContext& ctx, CtaState& cta, uint64_t& executedInRound) {
  ctx.cta = &cta;
  const uint32_t quantum = std::max<uint32_t>(1, ctx.grid.options.warpQuantum);
  const uint64_t limit = ctx.grid.options.maxWarpInstructions;
  bool progress = false;
  bool allDone = true;
  executedInRound = 0;
  for (Warp& warp : cta.warps) {
    if (warp.status == WarpStatus::Ready) {
      ctx.warp = &warp;
      bool changed = false;
      uint32_t executed = runWarp(ctx, quantum, changed);
      progress = progress || changed;
      executedInRound += executed;
      if (ctx.aborted) return RoundOutcome::Stopped;
      // A block-wide barrier counts the warps still running: one that
      // finished may have been the last one it waited for.
      if (warp.done()) releaseCompletedBarriers(ctx);
      uint64_t total = ctx.grid.warpInstructions.fetch_add(executed, std::memory_order_relaxed) + executed;
      if (total > limit) {
        ctx.fail(LaunchErrorKind::Timeout,
                 "the launch executed more than " + std::to_string(limit) +
                     " warp instructions (a kernel that never finishes?)",
                 0);
        return RoundOutcome::Stopped;
      }
    }
    allDone = allDone && warp.done();
  }
  if (allDone) return RoundOutcome::Done;
  return progress ? RoundOutcome::Running : RoundOutcome::Stalled;
}

namespace {

// A CTA resident on this host thread and its livelock watch; kept after
// its CTA ends, for the next one to reuse its buffers.
struct ResidentCta {
  CtaState state;
  ProgressMonitor monitor;
  std::optional<LivelockVote> vote;  // while a CTA is resident
  uint64_t publishedWrites = 0;
  uint64_t quietInstructions = 0;  // run since it last wrote memory itself
  bool repeating = false;
};

// A resident thread block cluster (one CTA without clusters). Its CTAs stay
// resident until all of them have finished: the others may still name a
// finished one's rank, and are told it has exited.
struct ResidentCluster {
  std::vector<std::unique_ptr<ResidentCta>> ctas;  // by rank
  ClusterState cluster;
  uint64_t firstCta = 0;  // rank 0's linear index: where the cluster stands when CTAs fail
  size_t running = 0;     // CTAs not finished

  CtaState& lowestRunning() {
    for (auto& r : ctas) {
      if (!r->state.finished) return r->state;
    }
    return ctas.front()->state;
  }
};

// A CTA that runs this many warp instructions without writing memory
// waits for something (a spin on another CTA's flag), or computes at
// length: either way another CTA may start beside it.
constexpr uint64_t kWaitingInstructions = uint64_t{1} << 12;

constexpr const char* kSpinReason =
    "the threads of the block repeat the same states without writing memory (a spin loop waiting for a "
    "thread that "
    "cannot run, or for a wake-up that never comes)";

// Why a cluster whose CTAs neither move nor write memory is stuck.
std::string stuckReason(ResidentCluster& rc) {
  size_t atBarrier = 0;
  for (auto& r : rc.ctas) atBarrier += !r->state.finished && waitsAtClusterBarrier(r->state) ? 1 : 0;
  if (atBarrier == 0) return kSpinReason;
  return "the blocks of a thread block cluster wait at barrier.cluster.wait for threads of the cluster that "
         "never "
         "arrive (" +
         std::to_string(atBarrier) + " of the cluster's " + std::to_string(rc.ctas.size()) +
         " blocks wait there, " + std::to_string(rc.ctas.size() - rc.running) + " exited); the first";
}

}  // namespace

void formCluster(ClusterState& cluster, const std::vector<CtaState*>& ctas) {
  cluster.ctas = ctas;
  cluster.barrier = ClusterBarrier{};
  for (CtaState* cta : ctas) {
    cta->cluster = &cluster;
    cluster.barrier.liveWarps += static_cast<uint32_t>(cta->warps.size());
  }
}

void runCtaQueue(ExecContext& ctx, std::atomic<uint64_t>& next, uint64_t count, uint64_t residentLimit,
                 const FinishedCta& finished) {
  const Dim3 grid = ctx.grid.launch.grid;
  const Dim3 shape = ctx.grid.clusters.dims;
  const uint64_t clusterSize = shape.count();
  std::vector<std::unique_ptr<ResidentCluster>> residents;
  std::vector<std::unique_ptr<ResidentCta>> spare;
  uint64_t residentCtas = 0;
  bool exhausted = false;
  // Starts the next cluster; false once none is left (or the launch failed
  // before it).
  auto admit = [&]() {
    if (exhausted) return false;
    uint64_t id = next.fetch_add(1, std::memory_order_relaxed);
    uint64_t first = id < count ? ctaOfCluster(grid, shape, id, 0) : 0;
    if (id >= count || first > ctx.grid.failedCta.load(std::memory_order_relaxed)) {
      if (id < count) {
        for (uint64_t rank = 0; rank < clusterSize; ++rank)
          finished(ctaOfCluster(grid, shape, id, rank), nullptr);
      }
      exhausted = true;
      return false;
    }
    auto rc = std::make_unique<ResidentCluster>();
    rc->firstCta = first;
    std::vector<CtaState*> members;
    for (uint64_t rank = 0; rank < clusterSize; ++rank) {
      std::unique_ptr<ResidentCta> r =
          spare.empty() ? std::make_unique<ResidentCta>() : std::move(spare.back());
      if (!spare.empty()) spare.pop_back();
      r->monitor = ProgressMonitor{};
      r->vote.emplace(ctx.grid.livelock);
      r->state.livelockVote = &*r->vote;
      r->publishedWrites = 0;
      r->quietInstructions = 0;
      r->repeating = false;
      initCta(ctx, r->state, ctaOfCluster(grid, shape, id, rank));
      members.push_back(&r->state);
      rc->ctas.push_back(std::move(r));
    }
    if (clusterSize > 1) formCluster(rc->cluster, members);
    rc->running = clusterSize;
    residentCtas += clusterSize;
    residents.push_back(std::move(rc));
    return true;
  };
  auto retire = [&](size_t i) {
    for (auto& r : residents[i]->ctas) {
      r->state.livelockVote = nullptr;
      r->vote.reset();
      spare.push_back(std::move(r));
    }
    residentCtas -= clusterSize;
    residents.erase(residents.begin() + static_cast<std::ptrdiff_t>(i));
  };
  auto retireAll = [&]() {
    while (!residents.empty()) retire(residents.size() - 1);
  };
  // No further cluster fits beside the resident ones.
  auto full = [&]() { return residentCtas + clusterSize > residentLimit; };
  while (!residents.empty() || admit()) {
    ctx.aborted = false;
    bool allRepeating = true, allWaiting = true, failed = false;
    for (size_t i = 0; i < residents.size() && !failed;) {
      ResidentCluster& rc = *residents[i];
      for (auto& member : rc.ctas) {
        ResidentCta& r = *member;
        CtaState& cta = r.state;
        if (cta.finished) continue;
        uint64_t roundInstructions = 0;
        RoundOutcome outcome = runRound(ctx, cta, roundInstructions);
        // Warps blocked at barrier.cluster.wait are released by the other
        // CTAs of the cluster: the CTA waits, it is not stuck by itself.
        const bool waitsForCluster =
            outcome == RoundOutcome::Stalled && clusterSize > 1 && waitsAtClusterBarrier(cta);
        if (outcome == RoundOutcome::Stalled && !waitsForCluster) {
          failStalled(ctx, cta, "no thread of the block can make progress");
        }
        if (outcome == RoundOutcome::Stopped || (outcome == RoundOutcome::Stalled && !waitsForCluster)) {
          failed = true;  // the launch failed: the CTAs resident with this one stop too
          break;
        }
        if (outcome == RoundOutcome::Done) {
          finished(cta.linearId, &cta);
          cta.finished = true;
          cta.livelockVote = nullptr;
          r.vote.reset();
          --rc.running;
          continue;
        }
        uint64_t unpublished = cta.memoryWrites - r.publishedWrites;
        r.quietInstructions = unpublished == 0 ? r.quietInstructions + roundInstructions : 0;
        if (waitsForCluster) r.quietInstructions = std::max(r.quietInstructions, kWaitingInstructions);
        allWaiting = allWaiting && r.quietInstructions >= kWaitingInstructions;
        uint64_t launchWrites =
            ctx.grid.memoryWrites.fetch_add(unpublished, std::memory_order_relaxed) + unpublished;
        r.publishedWrites = cta.memoryWrites;
        // The monitor starts watching a CTA's state after a stretch without
        // writes; with many CTAs resident the stretch is this host thread's,
        // not the CTA's own, or a grid of spinning CTAs would run for the
        // sum of their stretches before a deadlock is seen.
        r.repeating =
            r.monitor.repeating(cta, roundInstructions * residentCtas, launchWrites) || waitsForCluster;
        r.vote->set(r.repeating);
        allRepeating = allRepeating && r.repeating;
      }
      if (failed) break;
      // Done, or a lower-numbered CTA failed: this cluster's results no
      // longer matter.
      if (rc.running == 0 || ctx.grid.failedCta.load(std::memory_order_relaxed) < rc.firstCta) {
        retire(i);
        continue;
      }
      ++i;
    }
    if (failed) {
      retireAll();
      continue;
    }
    if (residents.empty()) continue;
    // Every resident CTA waits: as many again start beside them, up to what
    // the GPU holds at once; once none is left to start, or the GPU is full,
    // and no CTA of the launch moves, the lowest is reported.
    if (allWaiting && !full() && !exhausted) {
      const uint64_t before = residentCtas;
      const uint64_t target = std::min<uint64_t>(2 * before, residentLimit);
      while (residentCtas + clusterSize <= target && admit()) {
      }
      if (residentCtas > before) continue;
    }
    if (!allRepeating) continue;
    ResidentCluster& lowest = *residents.front();
    CtaState& stuck = lowest.lowestRunning();
    bool unanimous = true;
    for (auto& r : lowest.ctas) unanimous = unanimous && (r->state.finished || r->vote->unanimous());
    if (unanimous && (exhausted || full())) {
      failStalled(ctx, stuck, stuckReason(lowest));
      retireAll();
    }
  }
}

}  // namespace ptxsim::sim::exec
