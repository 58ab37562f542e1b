// The timing driver, and how it runs the SMs on several host threads with
// the same results whatever their number.
//
// Time advances in windows of gpu.sync_window cycles (W). A window [T0, T1)
// starts at the window holding the soonest event of any SM; windows in
// which nothing happens are skipped.
//
// Phase A, in parallel (window_pool.h: each host thread runs the SMs of
// its block of the SMs that hold CTAs, then helps the others; which thread
// runs an SM changes nothing but the wall time): every SM with an event before T1
// runs its cycles up to T1 on its own (SmModel::runWindow). Nothing it does there is seen by another
// SM in the same window:
//  - global stores go to the SM's store overlay (exec/store_overlay.h);
//    its loads see memory as at T0 plus its own stores;
//  - atomics and reductions on global (or generic) memory and
//    device-runtime calls are "serial": the warp is charged the issue slot
//    at its cycle t but the instruction does not run, and the warp issues
//    nothing more until T1;
//  - the SM's L2 requests cross the crossbar (memory/interconnect.h) and
//    are answered from its ports, the L2 and HBM as at T0 plus the SM's
//    own earlier requests of the window (Interconnect::arrivalInto and
//    L2Cache::estimateInto, which change only the SM's shadows) and
//    logged: the SM's own crossbar port is exact (no other SM uses it), a
//    slice's port shows other SMs' traffic one window late;
//  - counts the launch shares (instructions for the timeout, writes for the
//    livelock watch) are the SM's own.
// Phase B, in a fixed order (what it needs to know of each SM, such as
// how many sectors it stored or requests it logged, from the summaries the
// SMs' threads wrote at the end of their windows, side by side): the
// overlays are written to memory in SM order (on the host threads when
// there are many sectors, each thread a share of the addresses, its SMs
// in order, so the bytes are the same;
// StoreOverlay::commitShare); the deferred instructions run in (t, SM,
// sub-partition) order, each timed as issued at its t; the logged L2
// requests, theirs included, are applied to the real crossbar and L2 in
// (cycle, SM, sequence) order, on the host threads when there are many
// (l2_exchange.h: each SM's crossbar port takes the SM's requests already
// at the end of the SM's phase A when it has no deferred instruction, each
// L2 slice the slice's), and the slices' HBM requests go to the HBM in
// (cycle, slice) order when all are done (L2Cache::finishWindow); the
// statistics come from here; the SM hears the answers when it next runs,
// on its host thread, and an answer later than its estimate moves what
// waited on it (late_answers.h) before it places new CTAs;
// finished CTAs are retired in (cycle, SM) order, the next ones placed
// sm.cta_launch cycles after (more than a window), each told to --trace in
// that order (a placed CTA's state is built, reusing a finished one's, by
// its SM when it next runs: in phase A, on its host thread); the shared
// counts are summed, then the progress line (once a window), the
// deadlock check, and at each span's first window (Running ahead, below)
// the instruction limit and livelock checks run.
//
// Running ahead: when every SM holding CTAs can have a host thread of its
// own, an SM goes on after its window, as a task on the host threads
// (run_ahead.h; it first hears the answers to the window's L2 requests,
// as its next window would), past the window's end while every warp that
// may issue has an instruction that stays on the SM (stays_on_sm.h:
// registers, its CTAs' shared memory, CTA barriers, branches), until at
// most the end of the span of kRunAheadWindows windows it is in. Nothing
// it runs there is seen by another SM, nor depends on one (its answers
// were heard first), so it reaches the cycle it stops before in the state
// the windows would have left it in; it rejoins the window that cycle lies
// in, and its counts join the launch's there. Meanwhile the windows go on
// without it, each waiting only until every SM running ahead has stopped
// or got past its end (so which window an SM rejoins depends on the cycles
// alone). What it gives: the SMs of a shared-memory loop (n-body's tiles)
// run thousands of cycles without meeting the others at every window.
// The checks that read every SM (the instruction limit, the livelock
// watch, and the launch's writes the watches compare against) run at each
// span's first window, where none runs ahead: so running ahead or not,
// on any number of threads, changes nothing but the host time.
//
// So an SM sees other SMs' stores at the next window and their L2 traffic
// (contention, lines they brought in) one window late, which W well below
// the L2's round trip keeps close to a serial model, and the results depend
// on nothing but the program, the preset and W: one host thread runs the
// same windows.
//
// LaunchOptions::hostProfile (phase_timer.h) gets the host time of each
// phase, to see what limits the speed-up over host threads.

#include "timing_driver.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

#include "../exec/cta_runner.h"
#include "cluster_placement.h"
#include "l2_exchange.h"
#include "phase_timer.h"
#include "run_ahead.h"
#include "ptxsim/memory/l1_carveout.h"
#include "simulated_clock.h"
#include "sm_model.h"
#include "timed_stats.h"
#include "trace_hooks.h"

namespace ptxsim::sim::timing {

namespace {

// Fewer stored sectors than this in a window are written to memory on the
// calling thread: sharing them out would cost more than it saves.
constexpr size_t kSectorsToShare = 512;
// Fewer L2 requests than this in a window are applied on the calling
// thread alone.
constexpr size_t kRequestsToShare = 64;
// The spans of windows from the launch's start: an SM runs ahead at most
// to its span's end, and the checks run at each span's first window
// (Running ahead, above). A livelock is found within two spans.
constexpr uint64_t kRunAheadWindows = 256;
// nextEvent of an SM running ahead: not known, not "never".
constexpr uint64_t kRunningAhead = UINT64_MAX - 1;

}  // namespace

TimedGrid runTimedGrid(exec::GridContext& grid, uint32_t ctasPerSm, KeptState& kept, unsigned hostThreads,
                       uint64_t startCycle) {
  TimedGrid out;
  const TimingConfig& timing = grid.config.timing;
  const uint64_t ctaCount = grid.launch.grid.count();
  const uint64_t window = timing.syncWindowCycles;
  PhaseTimer timer(grid.options.hostProfile);
  if (timer.on()) ++timer.profile().launches;
  std::vector<std::unique_ptr<SmModel>> sms;
  // The L1 gets what the resident CTAs' shared memory (and the 1 KiB the
  // driver reserves for each) leaves of the unified array.
  uint64_t sharedPerCta = grid.kernel.staticSharedBytes + grid.launch.dynamicSharedBytes + 1024;
  uint64_t sharedPerSm = std::min<uint64_t>(sharedPerCta * ctasPerSm, UINT32_MAX);
  uint32_t l1Bytes = memory::l1CapacityBytes(
      static_cast<uint32_t>(std::min<uint64_t>(sharedPerSm, memory::kSm90SharedCarveoutsKiB.back() * 1024)));
  CodeLayout code(grid.kernel, kept.instructionCaches.moduleNumber(grid.kernel.module), timing);
  std::vector<InstructionFetch>& fetch = kept.instructionCaches.forLaunch(timing, grid.config.smCount);
  memory::L2Cache& l2 = kept.memory.forLaunch(
      timing, grid.options.flushCaches, grid.machineCodeBytes != 0 ? grid.machineCodeBytes : code.sassBytes());
  const memory::Hbm& dram = kept.memory.dram();
  const unsigned threads = std::max(1u, std::min<unsigned>(hostThreads, grid.config.smCount));
  if (!kept.pool || kept.pool->threads() != threads) kept.pool = std::make_unique<WindowPool>(threads);
  std::vector<SmDataCache>& caches = kept.dataCaches.forLaunch(timing, grid.config.smCount, l1Bytes);
  sms.resize(grid.config.smCount);
  kept.spareCtas.resize(sms.size());
  auto onPool = [&](size_t count, const std::function<void(size_t)>& work) { kept.pool->run(count, work); };
  timer.parallel(onPool, sms.size(), &HostProfile::smBuilds, &HostProfile::buildWallSeconds, [&](size_t s) {
    sms[s] = std::make_unique<SmModel>(static_cast<uint32_t>(s), grid, timing, code, fetch[s], caches[s],
                                       kept.memory.interconnect(), l2);
    sms[s]->adoptSpareCtas(std::move(kept.spareCtas[s]));
  });
  out.hostThreads = threads;
  uint64_t launchWrites = 0;
  uint64_t launchInstructions = grid.warpInstructions.load();
  SimulatedClock clock(sms, grid.launchTimeNs, grid.config.clockRateKhz == 0 ? 1u : grid.config.clockRateKhz);
  grid.clock = &clock;
  std::map<uint64_t, std::string> printfByCta;
  uint64_t nextCta = 0;
  std::vector<uint64_t> nextEvent(sms.size(), UINT64_MAX);
  // --trace and the progress lines (trace_hooks.h): a pointer check per CTA when off.
  TraceRecorder* trace = grid.options.trace;
  if (trace != nullptr) trace->kernelStarted(tracedKernel(grid), startCycle);
  ProgressMeter progress(grid.kernel.kernel().function->name, grid.options.progress, std::cerr);
  // Called on the calling thread only: at the start in SM order, then in
  // phase B in (cycle, SM) order, so the trace's order is deterministic too.
  auto place = [&](SmModel& sm, uint64_t at) {
    sm.placeCta(nextCta, at);
    if (trace != nullptr) trace->ctaStarted(sm.index(), nextCta, at);
    nextEvent[sm.index()] = std::min(nextEvent[sm.index()], at);
    ++nextCta;
  };
  // Thread block clusters go whole to one GPC's SMs (cluster_placement.h).
  std::optional<ClusterPlacement> clusters;
  if (grid.clusters.size() > 1) {
    clusters.emplace(grid.config.gpcSms, grid.config.smCount, grid.launch.grid, grid.clusters,
                     static_cast<uint32_t>((grid.launch.block.count() + exec::kWarpSize - 1) / exec::kWarpSize));
  }
  std::vector<uint32_t> clusterSms;
  auto resident = [&](uint32_t s) { return static_cast<uint32_t>(sms[s]->residentCtas()); };
  // Places clusters while one fits; `at` as place's.
  auto placeClusters = [&](uint64_t at) {
    while (!clusters->allPlaced() && clusters->fit(resident, ctasPerSm, clusterSms)) {
      const ClusterPlacement::Placed placed = clusters->placeNext(clusterSms);
      for (uint32_t rank = 0; rank < placed.ctas.size(); ++rank) {
        SmModel& sm = *sms[clusterSms[rank]];
        sm.placeCta(placed.ctas[rank], at, placed.state, rank);
        if (trace != nullptr) trace->ctaStarted(sm.index(), placed.ctas[rank], at);
        nextEvent[sm.index()] = std::min(nextEvent[sm.index()], at);
      }
      nextCta += placed.ctas.size();
    }
  };
  // CTAs go to SMs in order, each SM filled to its limit in turn of the
  // lowest free slot, as the hardware's dispatcher hands them out at the start.
  if (clusters) placeClusters(startCycle);
  // A cluster no GPC can hold even empty would never start.
  const bool clusterFits =
      !clusters || clusters->fit([](uint32_t) { return 0u; }, ctasPerSm, clusterSms) || clusters->allPlaced();
  if (!clusterFits) {
    grid.fail(0, LaunchErrorKind::InvalidClusterSize,
              "launch of " + grid.kernel.kernel().function->name + ": a cluster of " +
                  std::to_string(clusters->clusterSize()) + " blocks does not fit the SMs of any GPC at " +
                  std::to_string(ctasPerSm) + " block(s) an SM (the preset's gpc_sms)");
  }
  for (uint32_t round = 0; round < ctasPerSm && nextCta < ctaCount && !clusters; ++round) {
    for (auto& sm : sms) {
      if (nextCta >= ctaCount) break;
      if (sm->residentCtas() > round || sm->residentCtas() >= ctasPerSm) continue;
      place(*sm, startCycle);
    }
  }
  timer.mark(&HostProfile::placeSeconds);
  // Phase B's orders (the scheme at the top).
  struct DeferredRef {
    uint64_t cycle;
    uint32_t sm;
    uint32_t subPartition;
    size_t index;
  };
  struct FinishedRef {
    uint64_t cycle;
    uint32_t sm;
    size_t index;
  };
  std::vector<DeferredRef> deferred;
  std::vector<FinishedRef> finishedCtas;
  std::vector<uint32_t> running;                     // the SMs with an event in this window
  std::vector<uint32_t> occupied;                    // the SMs with CTAs
  std::vector<size_t> stripeStarts(threads + 1, 0);  // ... split into the host threads' stripes
  // Each SM's store overlay committed share by share, not yet emptied.
  std::vector<uint8_t> overlayDue(sms.size(), 0);
  // What phase B reads of each SM that ran a window, written by the SM's
  // host thread at the end of its run, side by side: read from the SMs and
  // their steps, each of which another core's caches hold, it took the
  // driver's thread a cache miss an SM in each of phase B's loops, and
  // every slice's step one an SM, which on 16 threads was most of phase B.
  struct WindowSummary {
    uint32_t storedSectors = 0;
    uint32_t deferred = 0;  // instructions: its log grows in phase B, injected there
    uint32_t requests = 0;  // logged L2 requests
    uint32_t finished = 0;  // CTAs
    SmModel::WindowCounts counts;
    bool aborted = false;
  };
  std::vector<WindowSummary> summaries(sms.size());
  L2Exchange exchange(kept.memory, static_cast<uint32_t>(sms.size()), timer.on());
  // What an SM's next run starts with, on its host thread (a window in
  // phase A, or running ahead): the answers to its last log, and its store
  // overlay emptied if phase B committed it share by share.
  auto catchUp = [&](uint32_t s) {
    exchange.hear(s, *sms[s]);
    if (overlayDue[s] != 0) {
      sms[s]->overlay().clear();
      overlayDue[s] = 0;
    }
  };
  // Resident CTAs but nothing will ever happen: every warp waits for a
  // barrier or for threads that cannot run. Fails the launch if so.
  auto stalled = [&] {
    if (*std::min_element(nextEvent.begin(), nextEvent.end()) != UINT64_MAX) return false;
    for (auto& sm : sms) {
      if (sm->residentCtas() == 0) continue;
      exec::failStalled(sm->context(), *sm->context().cta, "no thread of the block can make progress");
      return true;
    }
    return false;
  };
  RunAhead ahead(*kept.pool, sms.size());
  std::vector<double> aheadSeconds(timer.on() ? sms.size() : 0, 0.0);  // per SM, for the profile
  const uint64_t span = kRunAheadWindows * window;
  uint64_t checkedSpan = UINT64_MAX;  // the span of the last checkpoint
  // The launch's shared counts: an SM's counts join them when it has run
  // a window or stopped running ahead.
  auto addCounts = [&](const SmModel::WindowCounts& counts) {
    launchInstructions += counts.instructions;
    launchWrites += counts.writes;
  };
  // Run on the SM's host thread at the end of its window, and again on
  // the driver's for an SM whose deferred instructions ran in phase B
  // (their requests join its log, their counts its window's).
  auto summarize = [&](uint32_t s) {
    SmModel& sm = *sms[s];
    WindowSummary& summary = summaries[s];
    summary.storedSectors = static_cast<uint32_t>(sm.overlay().sectors());
    summary.deferred = static_cast<uint32_t>(sm.deferred().size());
    summary.requests = static_cast<uint32_t>(sm.l2Requests().size());
    summary.finished = static_cast<uint32_t>(sm.finished().size());
    summary.counts = sm.takeWindowCounts();
    summary.aborted = sm.context().aborted;
  };
  // An SM that stopped running ahead rejoins the windows at the cycle it
  // stopped before; a launch failed there fails here.
  auto rejoin = [&](uint32_t s, uint64_t stop) {
    nextEvent[s] = stop;
    addCounts(sms[s]->takeWindowCounts());
    return sms[s]->context().aborted;
  };
  auto rejoinAll = [&] {
    const WallTimer waited(timer, &HostProfile::aheadWaitWallSeconds, ahead.count() != 0);
    const std::vector<std::optional<uint64_t>> stops = ahead.stopAll();
    for (uint32_t s = 0; s < stops.size(); ++s)
      if (stops[s]) rejoin(s, *stops[s]);
  };
  bool failed = !clusterFits;
  uint64_t windowsDoneAt = startCycle;  // the end of the last window run or passed
  while (!failed) {
    // The next window: that of the soonest event of the SMs not running
    // ahead, or sooner if one running ahead stopped before its end; with
    // none but those, the next window, passed if none stopped in it.
    uint64_t soonest = UINT64_MAX, windowEnd = UINT64_MAX;
    std::optional<WallTimer> waited;
    if (ahead.count() != 0) waited.emplace(timer, &HostProfile::aheadWaitWallSeconds);
    for (bool rejoined = true; rejoined && !failed;) {
      rejoined = false;
      soonest = UINT64_MAX;
      for (uint32_t s = 0; s < sms.size(); ++s)
        if (!ahead.running(s)) soonest = std::min(soonest, nextEvent[s]);
      if (soonest != UINT64_MAX) {
        windowEnd = soonest - (soonest - startCycle) % window + window;
      } else {
        windowEnd = ahead.count() != 0 ? windowsDoneAt + window : UINT64_MAX;
      }
      for (uint32_t s = 0; s < sms.size() && ahead.count() != 0; ++s) {
        if (!ahead.running(s)) continue;
        // With no window to run before, the driver's thread may as well
        // run an SM no helper has taken all the way.
        if (std::optional<uint64_t> stop = ahead.stoppedBefore(s, windowEnd, soonest == UINT64_MAX)) {
          failed = rejoin(s, *stop) || failed;
          rejoined = true;
        }
      }
    }
    waited.reset();
    if (failed || (soonest == UINT64_MAX && ahead.count() == 0 && stalled())) {
      failed = true;
      break;
    }
    if (soonest == UINT64_MAX) {
      if (ahead.count() == 0) break;
      windowsDoneAt = windowEnd;
      continue;
    }
    windowsDoneAt = windowEnd;
    running.clear();
    for (uint32_t s = 0; s < sms.size(); ++s)
      if (nextEvent[s] < windowEnd) running.push_back(s);
    // Each host thread's stripe: the running SMs of its block of SM
    // numbers, the same from window to window (window_pool.h: its caches).
    // The blocks split the occupied SMs (those with CTAs, running in this
    // window or not) evenly, so that a grid of fewer CTAs than SMs still
    // gives every host thread its own SMs; they move only when an SM
    // becomes idle or busy, not with which SMs have an event in a window.
    occupied.clear();
    for (uint32_t s = 0; s < sms.size(); ++s)
      if (nextEvent[s] != UINT64_MAX) occupied.push_back(s);
    for (unsigned t = 0; t <= threads; ++t) {
      const size_t first = occupied.size() * t / threads;
      const uint32_t fromSm = first < occupied.size() ? occupied[first] : static_cast<uint32_t>(sms.size());
      stripeStarts[t] =
          static_cast<size_t>(std::lower_bound(running.begin(), running.end(), fromSm) - running.begin());
    }
    timer.mark(&HostProfile::scheduleSeconds);
    // Phase A.
    auto onStripes = [&](size_t count, const std::function<void(size_t)>& work) {
      kept.pool->run(count, work, stripeStarts);
    };
    timer.parallel(onStripes, running.size(), &HostProfile::smWindows, &HostProfile::phaseASeconds,
                   [&](size_t i) {
                     const uint32_t s = running[i];
                     catchUp(s);
                     nextEvent[s] = sms[s]->runWindow(nextEvent[s], windowEnd);
                     summarize(s);
                     // With deferred instructions, its log grows in phase B: injected there.
                     if (summaries[s].deferred == 0) exchange.inject(s, *sms[s], windowEnd);
                   });
    // Phase B. Stores first, in SM order.
    size_t storedSectors = 0;
    for (uint32_t s : running) storedSectors += summaries[s].storedSectors;
    if (threads == 1 || storedSectors < kSectorsToShare) {
      for (uint32_t s : running)
        if (summaries[s].storedSectors != 0) sms[s]->overlay().commit(grid.store);
      if (storedSectors >= kSectorsToShare) timer.mark(&HostProfile::overlaySharedSeconds);
    } else {
      // In shares of the address space, one a thread, each in SM order.
      kept.pool->run(threads, [&](size_t share) {
        for (uint32_t s : running)
          sms[s]->overlay().commitShare(grid.store, static_cast<unsigned>(share), threads);
      });
      // Each SM empties its overlay on its own thread before it next runs.
      for (uint32_t s : running) overlayDue[s] = summaries[s].storedSectors != 0 ? 1 : 0;
    }
    timer.mark(&HostProfile::overlaySeconds);
    deferred.clear();
    for (uint32_t s : running) {
      if (summaries[s].deferred == 0) continue;
      const auto& list = sms[s]->deferred();
      for (size_t i = 0; i < list.size(); ++i)
        deferred.push_back({list[i].cycle, s, list[i].subPartition, i});
    }
    std::sort(deferred.begin(), deferred.end(), [](const DeferredRef& x, const DeferredRef& y) {
      return std::tie(x.cycle, x.sm, x.subPartition) < std::tie(y.cycle, y.sm, y.subPartition);
    });
    for (const DeferredRef& d : deferred) {
      sms[d.sm]->runDeferred(d.index);
      if (sms[d.sm]->context().aborted) failed = true;
    }
    if (clusters) failed = !exchangeAcrossClusters(sms, running, *clusters, nextEvent, windowEnd, timing) || failed;
    for (uint32_t s : running) {
      if (summaries[s].deferred == 0) continue;
      const SmModel::WindowCounts before = summaries[s].counts;
      summarize(s);  // before clearDeferred: the summary keeps its count
      summaries[s].counts.instructions += before.instructions;
      summaries[s].counts.writes += before.writes;
      sms[s]->clearDeferred();
    }
    timer.mark(&HostProfile::deferredSeconds);
    // The logged L2 requests, applied in (cycle, SM, sequence) order
    // (l2_exchange.h): injected at the end of each SM's phase A, or here
    // for an SM with deferred instructions; each slice's on the host
    // threads when there are many; heard by each SM when it next runs.
    size_t requestCount = 0, lateRequests = 0;
    for (uint32_t s : running) {
      requestCount += summaries[s].requests;
      if (summaries[s].deferred != 0) lateRequests += summaries[s].requests;
    }
    if (lateRequests > 0) {
      auto injectLate = [&](size_t i) {
        const uint32_t s = running[i];
        if (summaries[s].deferred != 0) exchange.inject(s, *sms[s], windowEnd);
      };
      if (threads > 1 && lateRequests >= kRequestsToShare) {
        kept.pool->run(running.size(), injectLate, stripeStarts);
      } else {
        for (size_t i = 0; i < running.size(); ++i) injectLate(i);
      }
    }
    auto applySlice = [&](size_t index) {
      exchange.applySlice(static_cast<uint32_t>(index), running, windowEnd);
    };
    if (threads > 1 && requestCount >= kRequestsToShare) {
      timer.parallel(onPool, exchange.slices(), &HostProfile::sliceSteps, &HostProfile::sliceStepsWallSeconds,
                     applySlice, {.keepMark = true, .wallTimes = true});
    } else if (requestCount > 0) {
      for (uint32_t slice = 0; slice < exchange.slices(); ++slice) applySlice(slice);
    }
    timer.mark(&HostProfile::l2Seconds);
    l2.finishWindow();
    timer.mark(&HostProfile::l2DramSeconds);
    // CTAs that finished, in the order they did.
    finishedCtas.clear();
    uint64_t freedAt = 0;  // the last cycle a CTA of a cluster finished
    for (uint32_t s : running) {
      if (summaries[s].aborted) failed = true;
      if (summaries[s].finished == 0) continue;
      const auto& list = sms[s]->finished();
      for (size_t i = 0; i < list.size(); ++i) finishedCtas.push_back({list[i].cycle, s, i});
    }
    std::sort(finishedCtas.begin(), finishedCtas.end(), [](const FinishedRef& x, const FinishedRef& y) {
      return std::tie(x.cycle, x.sm) < std::tie(y.cycle, y.sm);
    });
    for (const FinishedRef& f : finishedCtas) {
      SmModel& sm = *sms[f.sm];
      std::unique_ptr<exec::CtaState>& cta = sm.finished()[f.index].cta;
      if (!cta->printfOutput.empty()) printfByCta[cta->linearId] = std::move(cta->printfOutput);
      if (!cta->deviceRuntime.launches.empty())
        out.launchesByCta[cta->linearId] = std::move(cta->deviceRuntime.launches);
      if (trace != nullptr) trace->ctaFinished(f.sm, cta->linearId, f.cycle);
      // The freed slot takes the next CTA after the launch cost.
      if (clusters) {
        clusters->finished(std::move(cta));
        freedAt = f.cycle;
      } else if (nextCta < ctaCount && !failed) {
        place(sm, f.cycle + timing.sm.ctaLaunchCycles);
      }
    }
    // A cluster starts once its GPC has room for all its CTAs.
    if (clusters && !finishedCtas.empty() && !failed) placeClusters(freedAt + timing.sm.ctaLaunchCycles);
    for (uint32_t s : running)
      if (summaries[s].finished != 0) sms[s]->recycleFinished();
    timer.mark(&HostProfile::retireSeconds);
    for (uint32_t s : running) addCounts(summaries[s].counts);
    grid.warpInstructions.store(launchInstructions);
    if (failed) break;
    // The checks that read every SM run at checkpoints, the first window
    // of each span, where none runs ahead (their runs end at the spans'
    // ends): so they see the same states whether SMs ran ahead or not.
    const bool checkpoint = (windowEnd - 1 - startCycle) / span != checkedSpan;
    if (checkpoint) {
      checkedSpan = (windowEnd - 1 - startCycle) / span;
      rejoinAll();  // those that stopped at the span's end and wait for a later window
      for (auto& sm : sms) sm->syncLaunchWrites(launchWrites);
    }
    if (checkpoint && launchInstructions > grid.options.maxWarpInstructions) {
      auto busy =
          std::find_if(sms.begin(), sms.end(), [](const auto& sm) { return sm->residentCtas() != 0; });
      SmModel& sm = busy != sms.end() ? **busy : *sms.front();
      sm.failLaunch(LaunchErrorKind::Timeout, "the launch executed more than " +
                                                  std::to_string(grid.options.maxWarpInstructions) +
                                                  " warp instructions (a kernel that never finishes?)");
      break;
    }
    // Once a window, on the calling thread: the cycles simulated so far.
    // Both read every SM's state: not while some run ahead.
    if (ahead.count() == 0 && progress.due()) progress.report(progressOf(sms, windowEnd - startCycle));
    // Every resident CTA on every SM spins through states it was in
    // before, and no memory changed: it will go on forever.
    if (auto [sm, stuck] = checkpoint ? livelocked(sms) : std::pair<SmModel*, exec::CtaState*>{};
        stuck != nullptr) {
      exec::failStalled(
          sm->context(), *stuck,
          "the resident blocks repeat the same states without writing memory (a spin on memory no "
          "block writes, or a grid.sync() some block never reaches); the first of them");
      break;
    }
    if (stalled()) failed = true;
    // The SMs of the window run ahead from their next event to at most
    // the span's end (not past it: the next checkpoint is the next span's
    // first window), when each SM holding CTAs can have a host thread of
    // its own: with more SMs than threads, each window already keeps every
    // thread busy, and an SM run ahead on a thread would hold back the SMs
    // dealt to it.
    // Not in cluster launches: a cluster's arrivals wake warps on other SMs between windows.
    if (!failed && grid.options.runAhead && !clusters && threads > 1 && occupied.size() <= threads &&
        (windowEnd - startCycle) % span != 0) {
      const uint64_t until = windowEnd - (windowEnd - startCycle) % span + span;
      for (uint32_t s : running) {
        const uint64_t from = nextEvent[s];
        if (from >= until) continue;
        nextEvent[s] = kRunningAhead;
        if (timer.on()) ++timer.profile().aheadRuns;
        ahead.start(s, from, until, [&, s](std::atomic<uint64_t>& reached, uint64_t start, uint64_t end) {
          catchUp(s);
          const double cpuFrom = aheadSeconds.empty() ? 0 : threadCpuSeconds();
          const uint64_t stop = sms[s]->runAhead(start, end, reached);
          if (!aheadSeconds.empty()) aheadSeconds[s] += threadCpuSeconds() - cpuFrom;
          return sms[s]->context().aborted ? reached.load(std::memory_order_relaxed) : stop;
        });
      }
    }
    timer.mark(&HostProfile::checkSeconds);
  }
  rejoinAll();
  if (timer.on()) addAheadSeconds(timer.profile(), aheadSeconds);
  exchange.addCounts();
  if (timer.on()) timer.profile().sliceGatherSeconds += exchange.gatheredSeconds();
  // The answers to the last windows' requests of the SMs that have not
  // run since.
  for (uint32_t s = 0; s < sms.size(); ++s) exchange.hear(s, *sms[s]);
  gatherTimedStats(out.stats, sms, l2.stats(), dram.stats(), grid.config, startCycle);
  if (trace != nullptr)
    for (const auto& sm : sms) trace->smSummary(sm->index(), tracedSm(sm->counters()));
  for (auto& [id, text] : printfByCta) out.printfOutput += text;
  if (trace != nullptr) {
    trace->kernelFinished({out.stats.timing.cyclesElapsed, out.stats.warpInstructions,
                           out.stats.threadInstructions, grid.error.message});
  }
  progress.finish({out.stats.timing.cyclesElapsed, out.stats.warpInstructions, out.stats.threadInstructions});
  grid.clock = &grid.instructionClock;
  timer.mark(&HostProfile::finishSeconds);
  // On the host threads: freeing an SM's caches takes a while.
  timer.parallel(onPool, sms.size(), &HostProfile::smEnds, &HostProfile::endWallSeconds, [&](size_t s) {
    kept.spareCtas[s] = sms[s]->takeSpareCtas();
    sms[s].reset();
  });
  return out;
}

}  // namespace ptxsim::sim::timing
