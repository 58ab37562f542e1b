#include "executor.h"

#include <bit>
#include <chrono>

#include "cluster_geometry.h"
#include "simt_policy.h"
#include "warp_control.h"

namespace ptxsim::sim::exec {

namespace {

uint64_t specialValue(const ExecContext& ctx, const Materialization& m, unsigned lane) {
  using isa::SpecialRegister;
  const CtaState& cta = *ctx.cta;
  const Warp& warp = *ctx.warp;
  const LaunchConfig& launch = ctx.grid.launch;
  const ClusterShape& clusters = ctx.grid.clusters;
  auto component = [&](const Dim3& d) -> uint64_t {
    return m.component == 0 ? d.x : m.component == 1 ? d.y : d.z;
  };
  switch (m.special) {
    case SpecialRegister::Tid: return m.component < 3 ? warp.tid[lane][m.component] : 0;
    case SpecialRegister::Ntid: return m.component < 3 ? component(launch.block) : 1;
    case SpecialRegister::Ctaid: return m.component < 3 ? component(cta.ctaid) : 0;
    case SpecialRegister::Nctaid: return m.component < 3 ? component(launch.grid) : 1;
    case SpecialRegister::Laneid: return lane;
    case SpecialRegister::Warpid: return warp.index;
    case SpecialRegister::Nwarpid: return ctx.grid.config.maxThreadsPerSm / kWarpSize;
    case SpecialRegister::Smid: return ctx.grid.clock->smOf(ctx);
    case SpecialRegister::Nsmid: return ctx.grid.config.smCount;
    case SpecialRegister::Gridid: return ctx.grid.gridId;
    case SpecialRegister::LanemaskEq: return uint64_t{1} << lane;
    case SpecialRegister::LanemaskLe: return (uint64_t{2} << lane) - 1;
    case SpecialRegister::LanemaskLt: return (uint64_t{1} << lane) - 1;
    case SpecialRegister::LanemaskGe: return static_cast<uint32_t>(~((uint64_t{1} << lane) - 1));
    case SpecialRegister::LanemaskGt: return static_cast<uint32_t>(~((uint64_t{2} << lane) - 1));
    // The driver's clock (driver_clock.h).
    case SpecialRegister::Clock: return static_cast<uint32_t>(ctx.grid.clock->cycle(ctx));
    case SpecialRegister::ClockHi: return static_cast<uint32_t>(ctx.grid.clock->cycle(ctx) >> 32);
    case SpecialRegister::Clock64: return ctx.grid.clock->cycle(ctx);
    case SpecialRegister::Globaltimer: return ctx.grid.clock->globalTimerNs(ctx);
    case SpecialRegister::GlobaltimerLo: return static_cast<uint32_t>(ctx.grid.clock->globalTimerNs(ctx));
    case SpecialRegister::GlobaltimerHi: return static_cast<uint32_t>(ctx.grid.clock->globalTimerNs(ctx) >> 32);
    case SpecialRegister::DynamicSmemSize: return launch.dynamicSharedBytes;
    case SpecialRegister::TotalSmemSize:
    case SpecialRegister::AggrSmemSize: return cta.shared.size();
    case SpecialRegister::WarpSize: return kWarpSize;
    // Clusters tile the grid in the launch's cluster shape (cluster_geometry.h).
    case SpecialRegister::Clusterid:
      return m.component < 3 ? component(clusterOf(cta.ctaid, clusters.dims)) : 0;
    case SpecialRegister::ClusterCtaid:
      return m.component < 3 ? component(placeInCluster(cta.ctaid, clusters.dims)) : 0;
    case SpecialRegister::Nclusterid:
      return m.component < 3 ? component(clusterGrid(launch.grid, clusters.dims)) : 1;
    case SpecialRegister::ClusterNctaid: return m.component < 3 ? component(clusters.dims) : 1;
    case SpecialRegister::ClusterCtarank: return rankInCluster(cta.ctaid, clusters.dims);
    case SpecialRegister::ClusterNctarank: return clusters.size();
    case SpecialRegister::IsExplicitCluster: return clusters.explicitCluster ? 1 : 0;
    case SpecialRegister::Envreg:
      return m.component == 1   ? ctx.grid.gridWorkspace >> 32
             : m.component == 2 ? static_cast<uint32_t>(ctx.grid.gridWorkspace)
                                : 0;
    default: return 0;
  }
}

void materialize(ExecContext& ctx, const PreparedInstruction& pi) {
  const PreparedFunction& fn = *ctx.frame->function;
  for (uint32_t i = 0; i < pi.materializeCount; ++i) {
    const Materialization& m = fn.materializations[pi.materializeFirst + i];
    uint64_t* row = ctx.row(m.row);
    if (m.kind == MaterializeKind::LocalAddress) {
      uint64_t address = ctx.frame->localBase + m.offset;
      for (unsigned lane = 0; lane < kWarpSize; ++lane) row[lane] = address;
    } else {
      for (unsigned lane = 0; lane < kWarpSize; ++lane) row[lane] = specialValue(ctx, m, lane);
    }
  }
}

// Chooses the group the next step runs, once: choosing changes the
// schedule's state (time slices, round-robin turns), so a peek and the step
// after it must see the same choice.
bool pickOnce(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  if (warp.picked) return true;
  bool stuck = false;
  if (!pickGroup(warp, stuck)) {
    if (warp.status == WarpStatus::Ready) warp.status = WarpStatus::Blocked;
    if (stuck) reportStuckWarp(ctx);
    return false;
  }
  warp.picked = true;
  return true;
}

}  // namespace

const PreparedInstruction* peek(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  if (warp.status != WarpStatus::Ready || !pickOnce(ctx)) return nullptr;
  const ThreadGroup& group = warp.group();
  return &group.frame->function->code[group.pc];
}

StepResult step(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  if (warp.status != WarpStatus::Ready || !pickOnce(ctx)) return StepResult::Blocked;
  warp.picked = false;  // whatever happens now, the next step chooses again
  ThreadGroup& group = warp.group();
  Frame& frame = *group.frame;
  const PreparedInstruction& pi = frame.function->code[group.pc];
  ctx.frame = &frame;
  ctx.current = &pi;
  LaneMask active = group.mask;
  LaneMask mask = active;
  if (pi.guardRow != kNoRow) {
    LaneMask holds = predicateMask(ctx.row(pi.guardRow));
    mask &= pi.guardNegated ? ~holds : holds;
  }
  ctx.active = active;
  ctx.mask = mask;
  ctx.synced = 0;
  if (pi.sync != SyncKind::None) {
    if (ctx.grid.options.checkWarpSync) noteExitedMembers(ctx, pi);
    bool ready = warp.mode == SimtMode::Its ? readyToSynchronise(ctx, pi) : convergedForSynchronisation(ctx, pi);
    if (!ready) return ctx.aborted ? StepResult::Blocked : StepResult::Waited;
    active = ctx.active;
    mask = ctx.mask;
  }
  ctx.report.instruction = pi.source;
  ctx.report.unit = pi.source->unit;
  ctx.report.active = active | ctx.synced;
  ctx.report.executed = mask | ctx.synced;
  ctx.report.access = AccessKind::None;
  ctx.report.clearTexels();
  if (pi.materializeCount != 0) materialize(ctx, pi);
  ++ctx.stats.warpInstructions;
  ++ctx.cta->instructions;
  ctx.stats.threadInstructions += static_cast<uint64_t>(std::popcount(active));
  ctx.stats.threadInstructionsPredOn += static_cast<uint64_t>(std::popcount(mask));
  ctx.memoryUnchanged = false;
  ctx.yieldTurn = false;
  pi.handler(pi, ctx);
  if ((ctx.report.access == AccessKind::Store || ctx.report.access == AccessKind::Atomic) && !ctx.memoryUnchanged) {
    noteMemoryWrite(*ctx.cta);
  }
  if (!pi.changesControl && !ctx.aborted) advance(ctx);
  return StepResult::Executed;
}

uint32_t runWarp(ExecContext& ctx, uint32_t budget, bool& changed) {
  uint32_t executed = 0;
  StepObserver* observer = ctx.grid.options.observer;
  if (observer != nullptr) {
    ctx.report.cta = ctx.cta->linearId;
    ctx.report.warp = ctx.warp->index;
  }
  while (executed < budget && !ctx.aborted) {
    if (observer != nullptr) ctx.report.taken = 0;
    StepResult r = step(ctx);
    if (r == StepResult::Blocked) break;
    changed = true;
    if (r == StepResult::Waited) continue;
    ++executed;
    if (observer != nullptr && !ctx.aborted) observer->onStep(ctx.report);
    if (ctx.yieldTurn) break;
  }
  return executed;
}

}  // namespace ptxsim::sim::exec
