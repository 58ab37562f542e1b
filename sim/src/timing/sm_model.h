#pragma once

// One SM of the timing model: the CTAs resident on it and their warps,
// dealt to sub-partitions by warp slot; each sub-partition's warp
// scheduler (schedulers/) issues at most one warp instruction per cycle to
// a pipeline that is free, once the instruction's sources are ready.
//
// The instruction executes when it issues (the executor's step(), so
// results are the functional model's, bit for bit); the model decides only
// when. A result is ready after its pipeline's latency, or for memory
// after the memory's: shared memory by its wavefronts (bank conflicts),
// global, local, texture and surface accesses through the SM's L1 and the
// L2 behind it (README: timing model); cp.async's copies likewise, without
// holding the warp until a cp.async.wait_group/wait_all asks for them.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../exec/exec_context.h"
#include "../exec/progress_monitor.h"
#include "../exec/store_overlay.h"
#include "code_layout.h"
#include "instruction_fetch.h"
#include "late_answers.h"
#include "ptxsim/memory/backend.h"
#include "ptxsim/memory/interconnect.h"
#include "ptxsim/memory/l1_cache.h"
#include "ptxsim/memory/l2_cache.h"
#include "ptxsim/sim/stall_reason.h"
#include "ptxsim/sim/timing_config.h"
#include "schedulers/issue_policy.h"
#include "sm_data_caches.h"
#include "warpgroup_mma.h"

namespace ptxsim::sim::timing {

// Per-SM counters, in Nsight Compute's terms where they have one.
struct SmCounters {
  uint64_t activeCycles = 0;      // sm__cycles_active: cycles with at least one resident warp
  uint64_t warpCyclesResident = 0;  // sum over cycles of resident warps (sm__warps_active)
  uint64_t issued = 0;            // smsp__inst_issued
  // Warp-cycles by what each resident warp did (stall_reason.h).
  std::array<uint64_t, kStallReasons> warpCycles{};
  // Shared-memory wavefronts beyond the fewest the access needs
  // (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld / _st).
  uint64_t sharedBankConflictsLoad = 0;
  uint64_t sharedBankConflictsStore = 0;
  uint64_t sharedBankConflictsAtomic = 0;
  // Sub-partition-cycles the tensor cores spent on wgmma (gmma) and on
  // mma.sync and wmma (hmma): sm__pipe_tensor_op_{gmma,hmma}_cycles_active.
  uint64_t tensorGmmaCycles = 0;
  uint64_t tensorHmmaCycles = 0;
};

// alignas: SMs run on different host threads (timing_driver.cpp); their
// counters must not share cache lines.
class alignas(64) SmModel {
 public:
  // `code`: the launch's instruction addresses and operand sources;
  // `fetch`: the SM's instruction caches (kept between launches);
  // `caches`: its L1 and constant cache, empty (sm_data_caches.h: the L1
  // sized to what the launch's shared memory leaves of the unified array);
  // `noc` and `l2`: the crossbar and the L2 behind it (memory beyond it
  // included) every SM shares, only estimated: the driver applies the SM's
  // requests to the crossbar (l2Requests()).
  SmModel(uint32_t index, exec::GridContext& grid, const TimingConfig& timing, const CodeLayout& code,
          InstructionFetch& fetch, SmDataCache& caches, const memory::Interconnect& noc,
          const memory::L2Cache& l2);
  SmModel(const SmModel&) = delete;
  SmModel& operator=(const SmModel&) = delete;

  uint32_t index() const { return index_; }
  // The CTAs placed here and not finished, those not started yet included.
  size_t residentCtas() const { return ctas_.size() + placed_.size(); }

  // Makes CTA `linearId` resident; its warps may issue from `startCycle`.
  // Its state is built when the SM next runs (startPlacedCtas), so that
  // the driver's serial phase only notes it and the work is spread over
  // the host threads with the SM's window.
  // A CTA of a thread block cluster joins `cluster` as rank `rank` then.
  void placeCta(uint64_t linearId, uint64_t startCycle, exec::ClusterState* cluster = nullptr,
                uint32_t rank = 0) {
    placed_.push_back({linearId, startCycle, cluster, rank});
  }

  // Runs cycle `now`: every sub-partition issues at most one instruction.
  // Returns the earliest later cycle at which something may happen here
  // (UINT64_MAX when nothing will without a CTA launch). CTAs that
  // finished are appended to `finished`.
  uint64_t cycle(uint64_t now, std::vector<std::unique_ptr<exec::CtaState>>& finished);

  // Whether every resident CTA's state repeats with memory unchanged (the
  // functional driver's livelock watch, progress_monitor.h); the first
  // such CTA, or null when some CTA moves on or none is resident.
  exec::CtaState* livelockedCta() const;

  // --- Windows (timing_driver.cpp: the scheme) ---
  // Runs cycles from `from` while they are before `end`, each SM on its
  // own: global stores go to overlay(), L2 requests are answered from the
  // L2 as it is and logged (l2Requests()), serial instructions are
  // charged but deferred (deferred()). Returns the SM's next event.
  uint64_t runWindow(uint64_t from, uint64_t end);
  // Runs ahead of the other SMs (timing_driver.cpp, "Running ahead"): as
  // runWindow, but stops before the first cycle in which a warp that may
  // issue has an instruction that reaches beyond the SM (stays_on_sm.h),
  // so nothing it runs is seen by, or depends on, another SM. Before each
  // cycle it stores the cycle in `reached` (every earlier one is done).
  // Returns the cycle it stopped before, not run: its next event, `end` or
  // later if it ran that far (UINT64_MAX if nothing will happen; if the
  // launch failed, `reached` holds the cycle it failed in).
  uint64_t runAhead(uint64_t from, uint64_t end, std::atomic<uint64_t>& reached);
  // A request the SM made of the L2, in the order made.
  struct LoggedRequest {
    uint64_t now = 0;
    uint64_t sequence = 0;  // the request's ticket (MemoryBackend::lastTicket)
    uint64_t estimate = 0;  // the answer the SM got
    memory::MemoryRequest request;
    uint32_t slice = 0;  // the L2 slice it goes to
  };
  const std::vector<LoggedRequest>& l2Requests() const { return l2_.log; }
  // After the driver applied l2Requests() to the L2: forgets them, and
  // `doneAt`, the latest of the L2's answers to them, counts towards
  // memoryDrainedAt() (the estimates did not see other SMs' requests).
  // The driver: request `sequence` was really answered at `answer`, later
  // than its estimate (late_answers.h). What waited on it moves when the
  // SM next runs (runWindow, before it places new CTAs).
  void lateAnswer(uint64_t sequence, uint64_t answer) { late_.lateAnswer(sequence, answer); }
  void appliedL2Requests(uint64_t doneAt) {
    l2_.log.clear();  // the shadows are forgotten when the SM next runs (runWindow)
    memoryDrained_ = std::max(memoryDrained_, doneAt);
  }
  // An instruction that must not run inside a window (isSerial): the cycle
  // it issued at and its sub-partition.
  struct Deferred {
    uint64_t cycle = 0;
    uint32_t subPartition = 0;
    exec::Warp* warp = nullptr;
    const exec::PreparedInstruction* instruction = nullptr;
  };
  const std::vector<Deferred>& deferred() const { return deferred_; }
  // Executes deferred()[i] as issued at its cycle (after the window, with
  // memory as the overlays' commit left it).
  void runDeferred(size_t i);
  void clearDeferred() { deferred_.clear(); }

  // --- Thread block clusters (sm_cluster.cpp) ---
  // The cluster barrier phases deferred instructions completed in the
  // window (an arrival or a warp's exit), with the cycle each did; the
  // driver wakes the cluster's waiting warps on their SMs and clears them.
  struct ClusterRelease {
    const exec::ClusterState* cluster = nullptr;
    uint64_t cycle = 0;
  };
  std::vector<ClusterRelease>& clusterReleases() { return clusterReleases_; }
  // The warps of `cluster`'s CTAs here that a barrier.cluster phase
  // released move on at `at`; whether any did.
  bool wakeClusterWaiters(const exec::ClusterState& cluster, uint64_t at);
  // Bulk copies' mbarrier completions for other CTAs of the cluster
  // (multicast), held back from the window: applied by the driver between
  // windows, in SM order. False if the launch failed.
  bool applyPeerArrivals();
  // CTAs that finished in the window, with the cycle each did.
  struct Finished {
    uint64_t cycle = 0;
    std::unique_ptr<exec::CtaState> cta;
  };
  std::vector<Finished>& finished() { return finished_; }
  // After the driver took what it needed from finished(): keeps their
  // states for the next CTAs placed here, whose registers, shared and local
  // memory then reuse the allocations (initCta resets every byte).
  void recycleFinished();
  // The CTA states kept for reuse, handed from one launch's SM to the
  // next launch's (KeptState): building a CTA's frames anew each launch
  // cost a tenth of a short kernel's host time, most of it page faults
  // that stall the other host threads too.
  void adoptSpareCtas(std::vector<std::unique_ptr<exec::CtaState>> spares) { spareCtas_ = std::move(spares); }
  std::vector<std::unique_ptr<exec::CtaState>> takeSpareCtas() { return std::move(spareCtas_); }
  exec::StoreOverlay& overlay() { return overlay_; }
  // Fails the launch (`kind`, `what`) in the name of the SM's first
  // resident CTA (between windows: no instruction is running).
  void failLaunch(LaunchErrorKind kind, const std::string& what);
  // Warp instructions and memory-writing instructions since the last
  // take, which restarts them.
  struct WindowCounts {
    uint64_t instructions = 0;
    uint64_t writes = 0;
  };
  WindowCounts takeWindowCounts() {
    const WindowCounts counts{windowInstructions_, windowWrites_};
    windowInstructions_ = 0;
    windowWrites_ = 0;
    return counts;
  }
  // The launch's memory writes so far, which the SM's livelock watches
  // compare their verdicts against (its own writes since are added).
  void syncLaunchWrites(uint64_t launchWrites) { launchWrites_ = launchWrites; }

  // The SM's execution context: statistics, the abort flag.
  exec::ExecContext& context() { return ctx_; }
  const SmCounters& counters() const { return counters_; }
  const memory::L1Stats& l1() const { return l1_.stats(); }
  const FetchStats& fetch() const { return fetch_.stats(); }
  uint64_t now() const { return clock_; }
  // The last cycle simulated with a CTA resident (0 if none ever was).
  uint64_t lastActiveCycle() const { return lastActive_; }
  // When every memory access issued here has completed: stores and
  // reductions accepted by the L2, loads' data returned. A grid ends only
  // then (the H100's atomic throughput to one address is its reductions'
  // drain: tests/timing/calibration/h100/bandwidth.out).
  uint64_t memoryDrainedAt() const { return memoryDrained_; }

 private:
  // Where a result comes from decides the stall its readers report.
  enum class ResultPath : uint8_t { Fixed, Mio, Lsu };
  struct TimedWarp {
    exec::CtaState* cta = nullptr;
    exec::Warp* warp = nullptr;
    uint32_t slot = 0;  // in its sub-partition
    uint64_t age = 0;   // launch order
    // Dependence tracking: the cycle each register row of the current
    // frame is ready; a call or return waits for every result first.
    const exec::Frame* frame = nullptr;
    std::vector<uint64_t> readyAt;
    std::vector<ResultPath> path;
    uint64_t lastResult = 0;      // the latest ready cycle of any result
    uint64_t memoryDone = 0;      // when every access issued so far has completed (fences wait for it)
    // The fence the warp waits at (fence_cost.h) and when its MEMBAR is done.
    const exec::PreparedInstruction* fencing = nullptr;
    uint64_t fenceDoneAt = 0;
    uint64_t notBefore = 0;       // barrier release, CTA start, branch resolution
    StallReason notBeforeReason = StallReason::NoInstruction;
    bool wasBlocked = false;
    bool clusterWaiting = false;  // blocked at barrier.cluster.wait: another CTA's arrival wakes it
    // What the warp has been doing since `since` (cycles before it are
    // counted in SmCounters::warpCycles).
    StallReason state = StallReason::NoInstruction;
    uint64_t since = 0;
    // When a check found the warp unable to issue: the earliest cycle it
    // might (its dependences and notBefore only move later, pipelines only
    // get busier), so until then it is not checked again.
    uint64_t retry = 0;
    bool waitsOnMemory = false;
    // Instruction fetch: the line of the last lookup and when it is in the L0.
    uint64_t fetchLine = UINT64_MAX;
    uint64_t fetchReadyAt = 0;
    // cp.async: when the copies issued since the last commit_group have
    // all landed in shared memory, and each committed group's, oldest first.
    uint64_t asyncCopiesDone = 0;
    // A vector, not a deque: a deque allocates even when empty, and a
    // TimedWarp is made for every warp of every CTA.
    std::vector<uint64_t> asyncGroupsDone;
    uint64_t asyncGroupsCommitted = 0;  // groups closed so far (the open one's number)
    uint64_t asyncGroupsWaited = 0;     // of those, waited for (left asyncGroupsDone)
    CompletionGroups wgmma;
    CompletionGroups bulkGroups;  // cp.async.bulk's stores and reductions (bulk_group)
    // The operands its previous instruction read (the reuse cache).
    OperandSources lastSources;
    // Its next instruction (null: blocked), known until it steps or wakes.
    const exec::PreparedInstruction* next = nullptr;
    bool nextKnown = false;
  };
  // Why a warp cannot issue yet, and until when.
  struct Hold {
    uint64_t until = 0;
    StallReason reason = StallReason::Selected;
    void atLeast(uint64_t cycle, StallReason why) {
      if (cycle > until) {
        until = cycle;
        reason = why;
      }
    }
  };
  struct SubPartition {
    std::unique_ptr<IssuePolicy> policy;
    std::vector<uint32_t> warps;  // TimedWarp indices
    std::array<uint64_t, static_cast<size_t>(Pipeline::Count)> pipelineFree{};
    uint64_t dispatchFree = 0;  // after the operand reads of a register-bank conflict
    uint64_t tensorCoreFree = 0;  // when its tensor core is done with the wgmmas queued on it
  };

  // Readiness (sm_readiness.cpp). The earliest cycle `w` could issue `pi`
  // and what holds it until then (issuable now when `until` <= now);
  // `fetched`: when `pi` is in the L0.
  Hold holdOf(TimedWarp& w, const exec::PreparedInstruction& pi, const SubPartition& sp, uint64_t fetched,
              uint64_t now) const;
  // When the warp's next instruction `pi` is in the L0.
  uint64_t fetchedAt(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now);
  // Executes the moves ptxas would not issue (vanishesInSass) at `pi`
  // and after it, their results ready with their sources; returns the
  // warp's next instruction to issue.
  const exec::PreparedInstruction* skipVanishing(TimedWarp& w, const exec::PreparedInstruction* pi);
  // Counts the cycles since `w.since` under its state, which becomes `next` from `now`.
  void account(TimedWarp& w, uint64_t now, StallReason next);
  void issue(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now);
  // After `pi`, a 32-bit shared access, has run: if ptxas would pair it
  // with the next instruction (shared_pairs.h), runs that one too (not
  // issued) and makes ctx_.report the pair's 64-bit access; returns it.
  const exec::PreparedInstruction* stepSharedPartner(TimedWarp& w, const exec::PreparedFunction& fn,
                                                     const exec::PreparedInstruction& pi);
  // Runs `pi` and times it as issued at `now`; `charged`: its issue slot
  // was counted when it was deferred.
  void execute(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now, bool charged);
  // runWindow and runAhead: cycles from `from` until `end` or until
  // stopBefore(cycle) says to stop before it.
  template <class StopBefore>
  uint64_t runCycles(uint64_t from, uint64_t end, const StopBefore& stopBefore);
  // Whether a warp that may issue at `now` has, as its next instruction
  // (past the moves skipVanishing would run), one that reaches beyond the
  // SM. Changes nothing cycle(now) would not: it only peeks, in cycle()'s
  // order (the ITS schedule picks a warp's threads once a step).
  bool mayReachBeyondSm(uint64_t now);
  // Whether `pi` has effects other SMs could see at once (atomics and
  // reductions on global memory, device-runtime calls): run between windows.
  bool isSerial(const TimedWarp& w, const exec::PreparedInstruction& pi) const;
  // Cycles from issue until the instruction just executed (ctx_.report) has its result.
  // Sets lgWait_ when the access waited for an L1 MSHR (execute() clears
  // the access's state first: forgetLastAccess).
  // `space`: where the access resolved to (memory instructions).
  uint32_t resultLatency(Pipeline pipe, AddressSpace space, uint64_t now);
  // Clears what the previous instruction's access left (its MSHR wait, L2
  // tickets, wavefronts), so that an instruction timed without
  // resultLatency (wgmma, bulk copies, wrapped MUFU forms) inherits none.
  void forgetLastAccess() {
    lastWavefronts_ = 0;
    lgWait_ = 0;
    accessTickets_.clear();
    accessAnswerOffset_ = 0;
  }
  // Global and local accesses (and cp.async's reads) through the L1 and
  // the back end: cycles from `now` until the data is there.
  uint64_t l1Latency(uint64_t now);
  // Texture fetches' texels and surface accesses through the L1 (the
  // texture cache) and the back end, plus the texture pipeline's cycles.
  uint64_t texturePathLatency(uint64_t now);
  // An atomic's or reduction's lines, performed in the L2's slices: the
  // cycle the last is back.
  uint64_t atomicsAtL2(uint64_t now, const memory::CoalescedAccess& access, const std::array<uint64_t, 32>& addresses,
                       uint32_t executed);
  // cp.async's group bookkeeping after `pi` issued at `now`: commit_group
  // closes a group, wait_group and wait_all hold the warp until the groups
  // they wait for have landed.
  void trackAsyncCopies(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now);
  // A wgmma issued at `now` on `sp`'s tensor core: when its results are
  // there (warpgroup_mma.h); commit_group and wait_group keep the warp's
  // groups and hold it for them.
  uint64_t queueWgmma(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now);
  // The groups of wgmma and of the bulk copies after `pi` issued at `now`:
  // commit_group closes one, wait_group holds the warp for them.
  void trackCompletionGroups(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now);
  // The bulk copies `pi` just issued at `now` (bulkCopies_): their lines
  // through the tensor memory accelerator and the L2; a load's mbarrier
  // completions wait in arriving_, a store's group gets its end.
  void timeBulkCopies(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now);
  // Applies the completions that have arrived by `now`; returns the
  // earliest still to come (UINT64_MAX if none).
  uint64_t applyArrivedCopies(uint64_t now);
  // Applies one completion (its CTA's writes counted); false if the launch failed.
  struct ArrivingCopy;
  bool completeArrived(const ArrivingCopy& a);
  ResultPath resultPath(Pipeline pipe, AddressSpace space) const;
  // Cycles the instruction just executed keeps its pipeline from the next issue.
  uint32_t occupancy(Pipeline pipe) const;
  // Counts the instruction's memory writes launch-wide and, now and then,
  // asks the resident CTAs' livelock watches.
  void watchForLivelock(uint64_t writes);
  void retireFinished(std::vector<std::unique_ptr<exec::CtaState>>& finished);
  // Moves what waited on the late answers (registers, fences, cp.async
  // groups, L1 fills), among the warps resident now: a finished CTA's
  // warps are gone, and the placed CTAs, which may reuse their states, not
  // started yet.
  void reviseLateAnswers();
  // Builds the state of the CTAs placeCta placed, in the order placed.
  void startPlacedCtas();
  struct Placed;
  void startCta(const Placed& placed);
  // After a step of `w`: counts it out if it finished, and wakes the warps
  // of its CTA that were parked blocked (only its CTA's steps release them).
  void afterStep(TimedWarp& w);

  uint32_t index_;
  exec::GridContext& grid_;
  const TimingConfig& timing_;
  const CodeLayout& code_;
  exec::ExecContext ctx_;
  std::vector<std::unique_ptr<exec::CtaState>> ctas_;
  struct Placed {
    uint64_t linearId = 0;
    uint64_t startCycle = 0;
    exec::ClusterState* cluster = nullptr;
    uint32_t rank = 0;
  };
  std::vector<Placed> placed_;  // placed, not started (placeCta)
  std::vector<std::unique_ptr<exec::CtaState>> spareCtas_;  // finished ones' states, for reuse
  // Per resident CTA, as ctas_: its livelock watch, its instruction count
  // at the last look, and the watch's verdict then.
  struct Watch {
    exec::ProgressMonitor monitor;
    uint64_t checkedAt = 0;
    bool repeating = false;
    uint64_t writesAtVerdict = 0;  // the launch's writes when it was given; stale once they change
  };
  std::vector<Watch> watches_;
  uint64_t launchWrites_ = 0;  // the launch's writes at the last sync, plus windowWrites_
  uint64_t windowWrites_ = 0;
  uint64_t windowInstructions_ = 0;
  uint64_t issuedSinceWatch_ = 0;
  uint64_t windowEnd_ = 0;  // of the window being run
  bool runningAhead_ = false;  // in runAhead: only instructions that stay on the SM may issue
  std::vector<Deferred> deferred_;
  std::vector<Finished> finished_;
  std::vector<std::unique_ptr<exec::CtaState>> finishedNow_;  // cycle()'s, moved to finished_
  exec::StoreOverlay overlay_;
  std::vector<TimedWarp> warps_;
  std::vector<SubPartition> subPartitions_;
  // The SM's way across the crossbar to the shared L2: its requests carry
  // its index (its crossbar port, near or far partition), are answered
  // from the crossbar and the L2 as the last window left them plus the SM's
  // own requests since (Interconnect::Shadow, L2Cache::Shadow: other SMs
  // may be asking at the same time) and logged for the driver to apply in
  // order. So the SM's own port is exact and another SM's use of a slice's
  // crossbar port or of the L2 shows one window late.
  class L2Port final : public memory::MemoryBackend {
   public:
    L2Port(const memory::Interconnect& noc, const memory::L2Cache& l2, uint32_t sm) : noc_(noc), l2_(l2), sm_(sm) {}
    uint64_t request(uint64_t now, const memory::MemoryRequest& request) override {
      memory::MemoryRequest tagged = request;
      tagged.sm = sm_;
      const uint64_t estimate = l2_.estimateInto(l2Shadow_, noc_.arrivalInto(nocShadow_, now, tagged), tagged);
      log.push_back({now, nextSequence_++, estimate, tagged, l2_.sliceOf(tagged.lineAddress)});
      return estimate;
    }
    // Every answer is an estimate the driver may revise (late_answers.h).
    uint64_t lastTicket() const override { return nextSequence_ - 1; }
    uint64_t estimateAfter(std::span<const memory::TimedRequest> before, uint64_t now,
                           const memory::MemoryRequest& request) const override {
      memory::MemoryRequest tagged = request;
      tagged.sm = sm_;
      return noc_.estimateAfter(before, now, tagged);
    }
    void clearShadows() {
      nocShadow_.clear();
      l2Shadow_.clear();
    }
    std::vector<LoggedRequest> log;

   private:
    const memory::Interconnect& noc_;
    const memory::L2Cache& l2_;
    memory::Interconnect::Shadow nocShadow_;
    memory::L2Cache::Shadow l2Shadow_;
    uint32_t sm_;
    uint64_t nextSequence_ = 0;
  };
  L2Port l2_;
  memory::L1Cache& l1_;
  memory::FixedLatencyBackend constantBackend_;
  memory::L1Cache& constantCache_;
  InstructionFetch& fetch_;
  // The bulk copies of the instruction being executed (ctx_.bulkCopies),
  // and the loads' mbarrier completions still on their way, with the warp
  // that issued them.
  exec::BulkCopyLog bulkCopies_;
  struct ArrivingCopy {
    uint64_t at = 0;
    exec::CtaState* cta = nullptr;
    exec::Warp* warp = nullptr;
    const exec::PreparedInstruction* instruction = nullptr;
    exec::BulkCopyLog::Completion completion;
  };
  std::vector<ArrivingCopy> arriving_;
  std::vector<ArrivingCopy> peerArrivals_;  // arrived for another CTA of the cluster (applyPeerArrivals)
  std::vector<ClusterRelease> clusterReleases_;
  // A cluster launch: instructions that reach other CTAs are serial (cluster_reach.h).
  bool clustered_ = false;
  // Whether the instruction just executed read or wrote another CTA's shared memory.
  bool reachedPeerShared() const;
  // After deferred instruction `d` of `w` ran, `cluster`'s barrier having
  // been in `phaseBefore`: a phase it completed is noted for the driver
  // (clusterReleases), a wait it blocks marks the warp, and a wait that
  // found its phase complete holds the warp until the release.
  void noteClusterBarrier(TimedWarp& w, exec::ClusterState& cluster, uint64_t phaseBefore, const Deferred& d);
  // The rank of the other CTA whose mbarrier a bulk copy's completion is
  // for, if it is another's.
  std::optional<uint64_t> peerOf(const ArrivingCopy& copy) const;
  double tmaFree_ = 0;  // when the SM's tensor memory accelerator can send its next line
  uint64_t lgWait_ = 0;          // MSHR wait of the access just executed
  // The provisional L2 answers the access just executed depends on, and
  // the cycles its result comes after the back end's answer.
  std::vector<uint64_t> accessTickets_;
  uint64_t accessAnswerOffset_ = 0;
  LateAnswers late_;
  uint32_t lastWavefronts_ = 0;
  // When the SM's texture units can start the next fetch's lookups.
  double textureUnitFree_ = 0;  // of the instruction just executed, if a shared access
  bool aggregatedAtomic_ = false;  // the instruction just executed is one reduction per warp (warp_uniform.h)
  uint64_t nextAge_ = 0;
  uint64_t now_ = 0;    // cycles before this are accounted in counters_
  uint64_t clock_ = 0;  // the cycle being simulated (%clock64)
  uint64_t lastActive_ = 0;
  uint64_t memoryDrained_ = 0;
  uint64_t liveWarps_ = 0;       // resident warps not finished
  bool warpFinished_ = false;    // since the last look for finished CTAs
  // The CTAs with blocked warps not looked at until the CTA moves (retry =
  // kParked): a few at most, looked up after every step.
  std::vector<const exec::CtaState*> parkedCtas_;
  // cycle()'s and retireFinished()'s working lists, kept so that a cycle
  // allocates nothing.
  std::vector<WarpCandidate> candidates_;
  std::vector<uint32_t> candidateWarps_;
  std::vector<const exec::PreparedInstruction*> candidateInstructions_;
  std::vector<uint32_t> warpRemap_;
  SmCounters counters_;
};

// When every SM's resident CTAs are livelocked (SmModel::livelockedCta):
// the first SM with one and its first such CTA; else null. Idle SMs do
// not count.
std::pair<SmModel*, exec::CtaState*> livelocked(const std::vector<std::unique_ptr<SmModel>>& sms);

}  // namespace ptxsim::sim::timing
