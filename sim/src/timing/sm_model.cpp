#include "sm_model.h"

#include <algorithm>

#include "../exec/barriers.h"
#include "../exec/cta_runner.h"
#include "../exec/executor.h"
#include "pipeline_of.h"
#include "ptxsim/memory/generic_address.h"
#include "ptxsim/memory/shared_banks.h"

namespace ptxsim::sim::timing {

SmModel::SmModel(uint32_t index, exec::GridContext& grid, const TimingConfig& timing)
    : index_(index), grid_(grid), timing_(timing), ctx_(grid) {
  subPartitions_.resize(timing.sm.subPartitions);
  for (SubPartition& sp : subPartitions_) sp.policy = makeIssuePolicy(timing.sm.scheduler);
}

void SmModel::launchCta(uint64_t linearId, uint64_t startCycle) {
  if (ctas_.empty()) now_ = std::max(now_, startCycle);  // idle until then
  auto cta = std::make_unique<exec::CtaState>();
  ctx_.cta = cta.get();
  exec::initCta(ctx_, *cta, linearId);
  for (exec::Warp& warp : cta->warps) {
    TimedWarp w;
    w.cta = cta.get();
    w.warp = &warp;
    w.age = nextAge_++;
    w.notBefore = startCycle;
    SubPartition& sp = subPartitions_[w.age % subPartitions_.size()];
    w.slot = static_cast<uint32_t>(w.age);
    sp.warps.push_back(static_cast<uint32_t>(warps_.size()));
    warps_.push_back(std::move(w));
  }
  ctas_.push_back(std::move(cta));
}

bool SmModel::canIssue(TimedWarp& w, const exec::PreparedInstruction& pi, const SubPartition& sp, uint64_t now,
                       uint64_t& retry) const {
  const exec::Frame* frame = w.warp->group().frame;
  uint64_t at = w.notBefore;
  if (frame != w.frame) {
    // A call or a return: the rows name another frame's registers, so every
    // result in flight must land first.
    at = std::max(at, w.lastResult);
    if (at <= now) {
      w.frame = frame;
      w.readyAt.assign(frame->function->frameRows(), 0);
      w.fromMemory.assign(frame->function->frameRows(), 0);
    }
  } else {
    const exec::PreparedFunction& fn = *frame->function;
    for (uint32_t row : fn.readsOf(pi)) at = std::max(at, w.readyAt[row]);
    for (uint32_t row : fn.writesOf(pi)) at = std::max(at, w.readyAt[row]);
  }
  at = std::max(at, sp.pipelineFree[static_cast<size_t>(pipelineOf(*pi.source))]);
  if (at <= now && frame == w.frame) return true;
  retry = std::max(at, now + 1);
  return false;
}

uint32_t SmModel::resultLatency(Pipeline pipe) const {
  const StepReport& r = ctx_.report;
  if (r.access != AccessKind::Load && r.access != AccessKind::Atomic) return timing_.pipeline(pipe).latencyCycles;
  AddressSpace space = r.space;
  if (space == AddressSpace::Generic && r.executed != 0) {
    uint64_t first = r.addresses[static_cast<unsigned>(std::countr_zero(r.executed))];
    space = memory::classify(ctx_.layout, first) == memory::Window::Shared ? AddressSpace::Shared
                                                                           : AddressSpace::Global;
  }
  switch (space) {
    case AddressSpace::Shared: {
      uint32_t wavefronts = memory::sharedWavefronts(r.addresses, r.executed, std::max<uint32_t>(r.accessBytes, 1),
                                                     {timing_.shared.banks, timing_.shared.bankBytes});
      return timing_.shared.latencyCycles + timing_.shared.cyclesPerExtraWay * (std::max(wavefronts, 1u) - 1);
    }
    case AddressSpace::Const:
    case AddressSpace::Param:
    case AddressSpace::KernelParam: return timing_.constantCacheHitCycles;
    default: return timing_.backend.latencyCycles;
  }
}

void SmModel::issue(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now) {
  ctx_.cta = w.cta;
  ctx_.warp = w.warp;
  Pipeline pipe = pipelineOf(*pi.source);
  const exec::PreparedFunction& fn = *w.frame->function;
  exec::StepResult result = exec::step(ctx_);
  if (result != exec::StepResult::Executed) return;
  ++counters_.issued;
  sp.pipelineFree[static_cast<size_t>(pipe)] = now + timing_.pipeline(pipe).intervalCycles;
  uint64_t ready = now + resultLatency(pipe);
  bool memory = ctx_.report.access == AccessKind::Load || ctx_.report.access == AccessKind::Atomic;
  for (uint32_t row : fn.writesOf(pi)) {
    w.readyAt[row] = ready;
    w.fromMemory[row] = memory ? 1 : 0;
  }
  w.lastResult = std::max(w.lastResult, ready);
  if (w.warp->done()) exec::releaseCompletedBarriers(ctx_);
  if (pi.sync == exec::SyncKind::CtaBarrier || w.warp->done()) {
    // Warps a barrier released (those blocked before this step and ready
    // now, and this warp if it arrived last) go on after the barrier's
    // cost, which grows with the warps it held
    // (tests/timing/calibration/h100/control.out: barrier.warps_W).
    uint32_t held = 0;
    for (const exec::Warp& other : w.cta->warps) held += other.done() ? 0 : 1;
    uint64_t release = now + timing_.sm.barrierCycles + timing_.sm.barrierCyclesPerWarp * (held > 0 ? held - 1 : 0);
    bool selfReleased = pi.sync == exec::SyncKind::CtaBarrier && w.warp->status == exec::WarpStatus::Ready;
    for (TimedWarp& other : warps_) {
      if (other.cta != w.cta || other.warp->status != exec::WarpStatus::Ready) continue;
      if (other.wasBlocked || (&other == &w && selfReleased)) {
        other.notBefore = std::max(other.notBefore, release);
        other.retry = 0;
      }
    }
  }
  for (TimedWarp& other : warps_) {
    if (other.cta == w.cta) other.wasBlocked = other.warp->status == exec::WarpStatus::Blocked;
  }
  uint64_t total = grid_.warpInstructions.fetch_add(1, std::memory_order_relaxed) + 1;
  if (total > grid_.options.maxWarpInstructions) {
    ctx_.fail(LaunchErrorKind::Timeout,
              "the launch executed more than " + std::to_string(grid_.options.maxWarpInstructions) +
                  " warp instructions (a kernel that never finishes?)",
              0);
  }
}

uint64_t SmModel::cycle(uint64_t now, std::vector<std::unique_ptr<exec::CtaState>>& finished) {
  // The cycles since the last call, in which nothing changed here.
  if (!ctas_.empty()) {
    uint64_t span = now - now_;
    counters_.activeCycles += span;
    counters_.warpCyclesResident += span * liveWarps();
  }
  now_ = now;
  clock_ = now;
  uint64_t next = UINT64_MAX;
  std::vector<WarpCandidate> candidates;
  std::vector<uint32_t> indices;
  std::vector<const exec::PreparedInstruction*> nextInstructions;
  for (SubPartition& sp : subPartitions_) {
    candidates.clear();
    indices.clear();
    nextInstructions.clear();
    for (uint32_t index : sp.warps) {
      TimedWarp& w = warps_[index];
      if (w.warp->done()) continue;
      if (now < w.retry) {
        candidates.push_back({w.slot, w.age, false, w.waitsOnMemory});
        indices.push_back(index);
        nextInstructions.push_back(nullptr);
        next = std::min(next, w.retry);
        continue;
      }
      ctx_.cta = w.cta;
      ctx_.warp = w.warp;
      const exec::PreparedInstruction* pi = w.warp->status == exec::WarpStatus::Ready ? exec::peek(ctx_) : nullptr;
      if (ctx_.aborted) return UINT64_MAX;
      WarpCandidate c{w.slot, w.age, false, false};
      if (pi != nullptr) {
        uint64_t retry = 0;
        c.ready = canIssue(w, *pi, sp, now, retry);
        if (!c.ready) {
          next = std::min(next, retry);
          if (w.frame != nullptr) {
            for (uint32_t row : w.frame->function->readsOf(*pi)) {
              if (w.readyAt[row] > now && w.fromMemory[row] != 0) c.waitingOnMemory = true;
            }
          }
          w.retry = retry;
          w.waitsOnMemory = c.waitingOnMemory;
        }
      }
      candidates.push_back(c);
      indices.push_back(index);
      nextInstructions.push_back(pi);
    }
    int chosen = sp.policy->choose(candidates);
    if (chosen < 0) continue;
    TimedWarp& w = warps_[indices[static_cast<size_t>(chosen)]];
    issue(w, *nextInstructions[static_cast<size_t>(chosen)], sp, now);
    if (ctx_.aborted) return UINT64_MAX;
    next = std::min(next, now + 1);
  }
  // This cycle counts as active; the next call adds the cycles after it.
  if (!ctas_.empty()) {
    counters_.activeCycles += 1;
    counters_.warpCyclesResident += liveWarps();
    now_ = now + 1;
    lastActive_ = now;
  }
  retireFinished(finished);
  return next;
}

uint64_t SmModel::liveWarps() const {
  uint64_t live = 0;
  for (const TimedWarp& w : warps_) live += w.warp->done() ? 0 : 1;
  return live;
}

void SmModel::retireFinished(std::vector<std::unique_ptr<exec::CtaState>>& finished) {
  for (size_t c = 0; c < ctas_.size();) {
    exec::CtaState* cta = ctas_[c].get();
    bool done = std::all_of(cta->warps.begin(), cta->warps.end(), [](const exec::Warp& w) { return w.done(); });
    if (!done) {
      ++c;
      continue;
    }
    // Its warps leave their sub-partitions (indices into warps_ shift).
    std::vector<uint32_t> remap(warps_.size(), UINT32_MAX);
    std::vector<TimedWarp> kept;
    for (uint32_t i = 0; i < warps_.size(); ++i) {
      if (warps_[i].cta == cta) {
        for (SubPartition& sp : subPartitions_) sp.policy->retire(warps_[i].slot);
        continue;
      }
      remap[i] = static_cast<uint32_t>(kept.size());
      kept.push_back(std::move(warps_[i]));
    }
    warps_ = std::move(kept);
    for (SubPartition& sp : subPartitions_) {
      std::vector<uint32_t> list;
      for (uint32_t i : sp.warps) {
        if (remap[i] != UINT32_MAX) list.push_back(remap[i]);
      }
      sp.warps = std::move(list);
    }
    finished.push_back(std::move(ctas_[c]));
    ctas_.erase(ctas_.begin() + static_cast<std::ptrdiff_t>(c));
  }
}

}  // namespace ptxsim::sim::timing
