#include "sm_model.h"

#include <algorithm>
#include <stdexcept>

#include "../exec/barriers.h"
#include "../exec/cta_runner.h"
#include "../exec/executor.h"
#include "pipeline_of.h"
#include "access_shape.h"
#include "register_banks.h"
#include "cluster_reach.h"
#include "stays_on_sm.h"
#include "../exec/cluster_geometry.h"
#include "ptxsim/memory/generic_address.h"
#include "ptxsim/memory/shared_banks.h"

namespace ptxsim::sim::timing {

namespace {

// TimedWarp::retry of a warp blocked at a barrier or waiting for its
// warp-synchronous partners: a step of its CTA wakes it.
constexpr uint64_t kParked = UINT64_MAX;

}  // namespace

SmModel::SmModel(uint32_t index, exec::GridContext& grid, const TimingConfig& timing, const CodeLayout& code,
                 InstructionFetch& fetch, SmDataCache& caches, const memory::Interconnect& noc,
                 const memory::L2Cache& l2)
    : index_(index),
      grid_(grid),
      timing_(timing),
      code_(code),
      ctx_(grid),
      l2_(noc, l2, index),
      l1_(caches.l1),
      constantBackend_(timing.constant.missLatencyCycles, timing.constant.lineBytes),
      constantCache_(caches.constant),
      fetch_(fetch) {
  ctx_.bulkCopies = &bulkCopies_;
  clustered_ = grid.clusters.size() > 1;
  subPartitions_.resize(timing.sm.subPartitions);
  for (SubPartition& sp : subPartitions_) sp.policy = makeIssuePolicy(timing.sm.scheduler);
}

void SmModel::startPlacedCtas() {
  for (const Placed& p : placed_) startCta(p);
  placed_.clear();
}

void SmModel::recycleFinished() {
  for (Finished& f : finished_)
    if (f.cta != nullptr) spareCtas_.push_back(std::move(f.cta));  // a cluster's CTA stays with its cluster
  finished_.clear();
}

void SmModel::startCta(const Placed& placed) {
  const uint64_t startCycle = placed.startCycle;
  if (ctas_.empty()) now_ = std::max(now_, startCycle);  // idle until then
  std::unique_ptr<exec::CtaState> cta;
  if (spareCtas_.empty()) {
    cta = std::make_unique<exec::CtaState>();
  } else {
    cta = std::move(spareCtas_.back());
    spareCtas_.pop_back();
  }
  ctx_.cta = cta.get();
  exec::initCta(ctx_, *cta, placed.linearId);
  if (placed.cluster != nullptr) {
    // Only this SM writes the rank's entry; the other CTAs read it between
    // windows (cluster_reach.h), when every CTA placed with it has started.
    cta->cluster = placed.cluster;
    placed.cluster->ctas[placed.rank] = cta.get();
  }
  for (exec::Warp& warp : cta->warps) {
    TimedWarp w;
    w.cta = cta.get();
    w.warp = &warp;
    w.age = nextAge_++;
    w.notBefore = startCycle;
    w.since = startCycle;  // its cycles count from its first possible issue
    SubPartition& sp = subPartitions_[w.age % subPartitions_.size()];
    w.slot = static_cast<uint32_t>(w.age);
    sp.warps.push_back(static_cast<uint32_t>(warps_.size()));
    warps_.push_back(std::move(w));
  }
  liveWarps_ += ctas_.emplace_back(std::move(cta))->warps.size();
  watches_.emplace_back();
}

exec::CtaState* SmModel::livelockedCta() const {
  if (!placed_.empty()) return nullptr;  // a CTA that has not run yet moves on
  if (!arriving_.empty()) return nullptr;  // a copy's completion still to come moves an mbarrier on
  for (const Watch& watch : watches_) {
    if (!watch.repeating || watch.writesAtVerdict != launchWrites_) return nullptr;
  }
  return ctas_.empty() ? nullptr : ctas_.front().get();
}

void SmModel::account(TimedWarp& w, uint64_t now, StallReason next) {
  if (now > w.since) counters_.warpCycles[static_cast<size_t>(w.state)] += now - w.since;
  w.since = std::max(w.since, now);
  w.state = next;
}

void SmModel::watchForLivelock(uint64_t writes) {
  launchWrites_ += writes;
  windowWrites_ += writes;
  // Every so many issues, each CTA that has run a round since its last
  // look is looked at, as the functional driver looks after each
  // scheduling round.
  constexpr uint64_t kRound = 1024;
  if (++issuedSinceWatch_ < kRound) return;
  issuedSinceWatch_ = 0;
  for (size_t c = 0; c < ctas_.size(); ++c) {
    const exec::CtaState& cta = *ctas_[c];
    Watch& watch = watches_[c];
    if (cta.instructions - watch.checkedAt < kRound) continue;
    watch.repeating = watch.monitor.repeating(cta, cta.instructions - watch.checkedAt, launchWrites_);
    watch.checkedAt = cta.instructions;
    watch.writesAtVerdict = launchWrites_;
  }
}

bool SmModel::isSerial(const TimedWarp& w, const exec::PreparedInstruction& pi) const {
  if (clustered_) {
    const exec::ThreadGroup& group = w.warp->groups[w.warp->current];
    if (reachesClusterPeers(pi, *group.frame, group.mask, exec::rankInCluster(w.cta->ctaid, grid_.clusters.dims),
                            ctx_.layout))
      return true;
  }
  switch (pi.source->opcode) {
    case isa::Opcode::Atom:
    case isa::Opcode::Red:
      // A generic address may resolve to global memory: not known before
      // the instruction runs, so generic ones wait too.
      return pi.space == AddressSpace::Global || pi.space == AddressSpace::Generic;
    case isa::Opcode::Sured:
    case isa::Opcode::RedAsync:
    case isa::Opcode::CpReduceAsyncBulk:
    case isa::Opcode::CpReduceAsyncBulkTensor:
    case isa::Opcode::MultimemRed:
    case isa::Opcode::MultimemLdReduce: return true;
    case isa::Opcode::Call: {
      // The device runtime (malloc, free, launches, streams, events) keeps
      // launch-wide state and reads memory behind the overlay; printf and
      // assert only touch the CTA's own output and the launch's error.
      const exec::Builtin builtin = w.frame->function->calls[pi.aux].builtin;
      return builtin != exec::Builtin::None && builtin != exec::Builtin::Vprintf &&
             builtin != exec::Builtin::AssertFail;
    }
    default: return false;
  }
}

void SmModel::issue(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now) {
  w.fencing = nullptr;
  // mayReachBeyondSm looked at every warp that could issue in this cycle.
  if (runningAhead_ && !staysOnSm(pi))
    throw std::logic_error(
        "internal: an instruction that reaches beyond its SM issued while the SM ran ahead");
  if (windowEnd_ != 0 && isSerial(w, pi)) {
    // Charged its issue slot now, run after the window (runDeferred); the
    // warp issues nothing more in this window.
    account(w, now, StallReason::Selected);
    account(w, now + 1, StallReason::LgThrottle);
    ++counters_.issued;
    if (windowEnd_ > w.notBefore) {
      w.notBefore = windowEnd_;
      w.notBeforeReason = StallReason::LgThrottle;
    }
    w.retry = windowEnd_;
    deferred_.push_back({now, static_cast<uint32_t>(&sp - subPartitions_.data()), w.warp, &pi});
    return;
  }
  execute(w, pi, sp, now, false);
}

void SmModel::runDeferred(size_t i) {
  const Deferred& d = deferred_[i];
  auto w = std::find_if(warps_.begin(), warps_.end(), [&](const TimedWarp& t) { return t.warp == d.warp; });
  if (w == warps_.end()) return;  // cannot happen: the warp waits for this instruction
  const uint64_t clock = clock_;
  clock_ = d.cycle;  // %clock as at its issue
  exec::ClusterState* cluster = w->cta->cluster;
  const uint64_t phase = cluster != nullptr ? cluster->barrier.phase : 0;
  execute(*w, *d.instruction, subPartitions_[d.subPartition], d.cycle, true);
  w->retry = 0;
  clock_ = clock;
  if (cluster != nullptr) noteClusterBarrier(*w, *cluster, phase, d);
}

void SmModel::reviseLateAnswers() {
  // The warps by their executor's warp, looked up once a waiter moves
  // (those of CTAs that finished since are gone: only the SM's memory
  // drain still waits on their accesses).
  std::vector<std::pair<const exec::Warp*, TimedWarp*>> byWarp;
  auto moveWaiter = [&](const LateAnswers::Waiter& waiter, uint64_t moved) {
    memoryDrained_ = std::max(memoryDrained_, moved);
    if (byWarp.empty()) {
      for (TimedWarp& w : warps_) byWarp.emplace_back(w.warp, &w);
      std::sort(byWarp.begin(), byWarp.end());
    }
    auto found = std::lower_bound(byWarp.begin(), byWarp.end(), waiter.warp,
                                  [](const auto& entry, const exec::Warp* warp) { return entry.first < warp; });
    if (found == byWarp.end() || found->first != waiter.warp) return;
    TimedWarp& w = *found->second;
    // A register a later instruction wrote since has that one's cycle.
    for (uint32_t row : waiter.rows) {
      if (row < w.readyAt.size() && w.readyAt[row] == waiter.ready) w.readyAt[row] = moved;
    }
    if (!waiter.isAsyncCopy) {
      w.lastResult = std::max(w.lastResult, moved);
      w.memoryDone = std::max(w.memoryDone, moved);
      return;
    }
    // cp.async: its group, open, committed or already waited for.
    if (waiter.asyncGroup == w.asyncGroupsCommitted) {
      w.asyncCopiesDone = std::max(w.asyncCopiesDone, moved);
    } else if (waiter.asyncGroup >= w.asyncGroupsWaited) {
      uint64_t& group = w.asyncGroupsDone[waiter.asyncGroup - w.asyncGroupsWaited];
      group = std::max(group, moved);
    } else if (moved > w.notBefore) {
      w.notBefore = moved;  // the wait_group that waited for it holds the warp still
      w.notBeforeReason = StallReason::LongScoreboard;
    }
  };
  late_.revise([&](uint64_t ticket, uint64_t answer) { l1_.reviseFill(ticket, answer); }, moveWaiter);
  l1_.settleFills();
}

void SmModel::failLaunch(LaunchErrorKind kind, const std::string& what) {
  startPlacedCtas();  // the error names the first resident CTA, started or not
  ctx_.cta = ctas_.empty() ? nullptr : ctas_.front().get();
  ctx_.warp = nullptr;
  ctx_.frame = nullptr;
  ctx_.current = nullptr;
  ctx_.fail(kind, what, 0);
}

void SmModel::execute(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now,
                      bool charged) {
  ctx_.cta = w.cta;
  ctx_.warp = w.warp;
  Pipeline pipe = pipelineOf(*pi.source);
  const exec::PreparedFunction& fn = *w.frame->function;
  const InstructionFacts& facts = code_.of(fn, pi);
  const OperandSources& sources = facts.sources;
  aggregatedAtomic_ = facts.aggregatedAtomic;
  uint64_t divergentBefore = ctx_.stats.divergentBranches;
  uint64_t writesBefore = w.cta->memoryWrites;
  exec::StepResult result = exec::step(ctx_);
  if (result != exec::StepResult::Executed) {
    w.nextKnown = false;
    return;
  }
  afterStep(w);
  watchForLivelock(w.cta->memoryWrites - writesBefore);
  const exec::PreparedInstruction* partner = charged ? nullptr : stepSharedPartner(w, fn, pi);
  if (!charged) {
    account(w, now, StallReason::Selected);
    account(w, now + 1, StallReason::NotSelected);  // until the warp is looked at again
    ++counters_.issued;
  }
  AddressSpace space =
      ctx_.report.access == AccessKind::None ? AddressSpace::Generic : resolvedSpace(ctx_.report, ctx_.layout);
  // An instruction ptxas wraps in others: their issue slots (below) and
  // the whole's latency.
  const bool wgmma = isWgmma(pi.source->opcode);
  // Bulk copies (the tensor memory accelerator's) write no registers and
  // do not hold the warp: their completions arrive later (arriving_).
  const bool bulk = !bulkCopies_.empty();
  forgetLastAccess();
  if (bulk) timeBulkCopies(w, pi, now);
  // Another CTA's shared memory answers over the SM-to-SM network.
  const bool peerShared = clustered_ && space == AddressSpace::Shared && reachedPeerShared();
  uint64_t ready = wgmma        ? queueWgmma(w, pi, sp, now)
                   : bulk       ? now + 1
                   : peerShared ? now + timing_.cluster.dsmemLatencyCycles
                                : now + (facts.latencyCycles != 0 ? facts.latencyCycles : resultLatency(pipe, space, now));
  // max: a deferred instruction (runDeferred) times itself at its issue
  // cycle, after later issues have already moved these on.
  uint64_t& pipelineFree = sp.pipelineFree[static_cast<size_t>(pipe)];
  if (!wgmma) {
    const uint32_t busy = occupancy(pipe);
    pipelineFree = std::max(pipelineFree, now + busy);
    if (pipe == Pipeline::Tensor) counters_.tensorHmmaCycles += busy;
  }
  // Sources sharing a register bank are read one after another; the
  // dispatch waits for them (a dependent instruction waits longer anyway).
  sp.dispatchFree = std::max(sp.dispatchFree, now + 1 + facts.addedSass + bankConflictCycles(sources, w.lastSources));
  w.lastSources = sources;
  ResultPath path = peerShared ? ResultPath::Lsu : resultPath(pipe, space);
  for (const exec::PreparedInstruction* done : {&pi, partner}) {
    if (done == nullptr) continue;
    for (uint32_t row : fn.writesOf(*done)) {
      w.readyAt[row] = ready;
      w.path[row] = path;
    }
  }
  if (ctx_.report.access != AccessKind::None) memoryDrained_ = std::max(memoryDrained_, ready);
  late_.noteAccess(accessTickets_, {w.warp, fn.writesOf(pi), ready, accessAnswerOffset_,
                                    pi.source->opcode == isa::Opcode::CpAsync, w.asyncGroupsCommitted});
  if (pi.source->opcode == isa::Opcode::CpAsync) {
    // No register waits for the copy, nor does a fence: only
    // cp.async.wait_group/wait_all (trackAsyncCopies).
    w.asyncCopiesDone = std::max(w.asyncCopiesDone, ready);
  } else if (!wgmma && !bulk) {
    w.lastResult = std::max(w.lastResult, ready);
    if (ctx_.report.access != AccessKind::None) w.memoryDone = std::max(w.memoryDone, ready);
    trackAsyncCopies(w, pi, now);
    trackCompletionGroups(w, pi, now);
  }
  if (lgWait_ != 0 && now + lgWait_ > w.notBefore) {
    // The access waited for an L1 miss slot; the warp's next instruction
    // waits with it (lg_throttle).
    w.notBefore = now + lgWait_;
    w.notBeforeReason = StallReason::LgThrottle;
  }
  if (pi.changesControl && pipe == Pipeline::Branch) {
    // The warp's next instruction waits for the branch to resolve, longer
    // when it split the warp (tests/timing/calibration/h100/control.out:
    // branch.ifelse_uniform.empty, branch.divergence_cost.empty).
    uint64_t resolved = now + timing_.sm.branchCycles +
                        (ctx_.stats.divergentBranches != divergentBefore ? timing_.sm.divergenceCycles : 0);
    if (resolved > w.notBefore) {
      w.notBefore = resolved;
      w.notBeforeReason = StallReason::BranchResolving;
    }
  }
  if (w.warp->done()) exec::releaseCompletedBarriers(ctx_);
  if (pi.sync == exec::SyncKind::CtaBarrier || w.warp->done()) {
    // Warps a barrier released (those blocked before this step and ready
    // now, and this warp if it arrived last) leave it one after another,
    // the first after the barrier's own cost
    // (tests/timing/calibration/h100/control.out: barrier.warps_W is
    // 14 + 2 (W - 1) cycles).
    bool selfReleased = pi.sync == exec::SyncKind::CtaBarrier && w.warp->status == exec::WarpStatus::Ready;
    uint64_t release = now + timing_.sm.barrierCycles;
    for (TimedWarp& other : warps_) {
      if (other.cta != w.cta || other.warp->status != exec::WarpStatus::Ready) continue;
      if (other.wasBlocked || (&other == &w && selfReleased)) {
        if (release > other.notBefore) {
          other.notBefore = release;
          other.notBeforeReason = StallReason::Barrier;
        }
        other.retry = 0;
        release += timing_.sm.barrierCyclesPerWarp;
      }
    }
    for (TimedWarp& other : warps_) {
      if (other.cta == w.cta) other.wasBlocked = other.warp->status == exec::WarpStatus::Blocked;
    }
  }
  // The launch's instruction limit is checked between windows (the driver sums these).
  ++windowInstructions_;
}

void SmModel::trackAsyncCopies(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now) {
  isa::Opcode op = pi.source->opcode;
  if (op == isa::Opcode::CpAsyncCommitGroup || op == isa::Opcode::CpAsyncWaitAll) {
    // An empty group is complete at once (its cycle 0 waits for nothing).
    w.asyncGroupsDone.push_back(w.asyncCopiesDone);
    w.asyncCopiesDone = 0;
    ++w.asyncGroupsCommitted;
  }
  if (op != isa::Opcode::CpAsyncWaitGroup && op != isa::Opcode::CpAsyncWaitAll) return;
  // wait_group N: all but the N most recent groups (the semantics keep N
  // in aux); wait_all: every group, the copies it just committed included.
  size_t keep = op == isa::Opcode::CpAsyncWaitGroup ? static_cast<size_t>(pi.aux) : 0;
  uint64_t landed = now;
  const size_t waited = w.asyncGroupsDone.size() > keep ? w.asyncGroupsDone.size() - keep : 0;
  for (size_t g = 0; g < waited; ++g) landed = std::max(landed, w.asyncGroupsDone[g]);
  w.asyncGroupsDone.erase(w.asyncGroupsDone.begin(), w.asyncGroupsDone.begin() + static_cast<std::ptrdiff_t>(waited));
  w.asyncGroupsWaited += waited;
  // ptxas makes the wait a DEPBAR on the scoreboard that the copies'
  // LDGSTS instructions count down, an L1TEX scoreboard: Nsight Compute
  // reports the warp's wait as long_scoreboard.
  if (landed > w.notBefore) {
    w.notBefore = landed;
    w.notBeforeReason = StallReason::LongScoreboard;
  }
}

uint64_t SmModel::cycle(uint64_t now, std::vector<std::unique_ptr<exec::CtaState>>& finished) {
  // The cycles since the last call, in which nothing changed here.
  if (!ctas_.empty()) {
    uint64_t span = now - now_;
    counters_.activeCycles += span;
    counters_.warpCyclesResident += span * liveWarps_;
  }
  now_ = now;
  clock_ = now;
  uint64_t next = applyArrivedCopies(now);
  if (ctx_.aborted) return UINT64_MAX;
  std::vector<WarpCandidate>& candidates = candidates_;
  std::vector<uint32_t>& indices = candidateWarps_;
  std::vector<const exec::PreparedInstruction*>& nextInstructions = candidateInstructions_;
  for (SubPartition& sp : subPartitions_) {
    candidates.clear();
    indices.clear();
    nextInstructions.clear();
    for (uint32_t index : sp.warps) {
      TimedWarp& w = warps_[index];
      if (w.warp->done()) continue;
      if (now < w.retry) {
        candidates.push_back({w.slot, w.age, false, w.waitsOnMemory && w.retry != kParked});
        indices.push_back(index);
        nextInstructions.push_back(nullptr);
        next = std::min(next, w.retry);
        continue;
      }
      ctx_.cta = w.cta;
      ctx_.warp = w.warp;
      if (!w.nextKnown) {
        const exec::PreparedInstruction* pi = w.warp->status == exec::WarpStatus::Ready ? exec::peek(ctx_) : nullptr;
        w.next = skipVanishing(w, pi);
        if (ctx_.aborted) return UINT64_MAX;
        w.nextKnown = true;
      }
      const exec::PreparedInstruction* pi = w.next;
      WarpCandidate c{w.slot, w.age, false, false};
      if (pi == nullptr) {
        // Blocked at a barrier (or waiting for warp-synchronous partners):
        // looked at again when a warp of its CTA moves.
        account(w, now, StallReason::Barrier);
        w.retry = kParked;
        if (std::find(parkedCtas_.begin(), parkedCtas_.end(), w.cta) == parkedCtas_.end())
          parkedCtas_.push_back(w.cta);
      } else {
        Hold hold = holdOf(w, *pi, sp, fetchedAt(w, *pi, now), now);
        c.ready = hold.until <= now;
        if (c.ready) {
          account(w, now, StallReason::NotSelected);
        } else {
          account(w, now, hold.reason);
          next = std::min(next, hold.until);
          c.waitingOnMemory = hold.reason == StallReason::LongScoreboard;
          w.retry = hold.until;
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
    counters_.warpCyclesResident += liveWarps_;
    now_ = now + 1;
    lastActive_ = now;
  }
  if (warpFinished_) retireFinished(finished);
  return next;
}

void SmModel::afterStep(TimedWarp& w) {
  w.nextKnown = false;
  if (w.warp->done()) {
    --liveWarps_;
    warpFinished_ = true;
  }
  auto parked = std::find(parkedCtas_.begin(), parkedCtas_.end(), w.cta);
  if (parked == parkedCtas_.end()) return;
  parkedCtas_.erase(parked);
  for (TimedWarp& other : warps_) {
    if (other.retry == kParked && other.cta == w.cta) {
      other.retry = 0;
      other.nextKnown = false;
    }
  }
}

void SmModel::retireFinished(std::vector<std::unique_ptr<exec::CtaState>>& finished) {
  warpFinished_ = false;
  for (size_t c = 0; c < ctas_.size();) {
    exec::CtaState* cta = ctas_[c].get();
    bool done = std::all_of(cta->warps.begin(), cta->warps.end(), [](const exec::Warp& w) { return w.done(); });
    if (!done) {
      ++c;
      continue;
    }
    // Its warps leave their sub-partitions (indices into warps_ shift);
    // the others close up in place.
    std::vector<uint32_t>& remap = warpRemap_;
    remap.assign(warps_.size(), UINT32_MAX);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < warps_.size(); ++i) {
      if (warps_[i].cta == cta) {
        for (SubPartition& sp : subPartitions_) sp.policy->retire(warps_[i].slot);
        continue;
      }
      remap[i] = kept;
      if (kept != i) warps_[kept] = std::move(warps_[i]);
      ++kept;
    }
    warps_.erase(warps_.begin() + kept, warps_.end());
    for (SubPartition& sp : subPartitions_) {
      std::erase_if(sp.warps, [&](uint32_t i) { return remap[i] == UINT32_MAX; });
      for (uint32_t& i : sp.warps) i = remap[i];
    }
    std::erase(parkedCtas_, cta);
    // Its copies still on their way have no one left to complete for.
    std::erase_if(arriving_, [&](const ArrivingCopy& a) { return a.cta == cta; });
    finished.push_back(std::move(ctas_[c]));
    ctas_.erase(ctas_.begin() + static_cast<std::ptrdiff_t>(c));
    watches_.erase(watches_.begin() + static_cast<std::ptrdiff_t>(c));
  }
}

}  // namespace ptxsim::sim::timing
