#include "timing_driver.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include "../exec/cta_runner.h"
#include "ptxsim/memory/l1_carveout.h"
#include "sm_model.h"
#include "trace_hooks.h"

namespace ptxsim::sim::timing {

namespace {

// %smid and %clock64 are the SM's and its cycle; %globaltimer converts the
// cycle at the preset's SM clock.
class SimulatedClock final : public exec::DriverClock {
 public:
  SimulatedClock(const std::vector<std::unique_ptr<SmModel>>& sms, const std::map<const exec::CtaState*, uint32_t>& smOf,
                 uint64_t startNs, uint32_t clockKhz)
      : sms_(sms), smOf_(smOf), startNs_(startNs), clockKhz_(clockKhz) {}
  uint32_t smOf(const exec::ExecContext& ctx) const override { return smOf_.at(ctx.cta); }
  uint64_t cycle(const exec::ExecContext& ctx) const override { return sms_[smOf(ctx)]->now(); }
  uint64_t globalTimerNs(const exec::ExecContext& ctx) const override {
    return startNs_ + cycle(ctx) * 1'000'000 / clockKhz_;
  }

 private:
  const std::vector<std::unique_ptr<SmModel>>& sms_;
  const std::map<const exec::CtaState*, uint32_t>& smOf_;
  uint64_t startNs_;
  uint32_t clockKhz_;
};

// The first resident CTA when every SM's resident CTAs are livelocked
// (SmModel::livelockedCta), else null. Idle SMs do not count.
exec::CtaState* livelocked(const std::vector<std::unique_ptr<SmModel>>& sms) {
  exec::CtaState* first = nullptr;
  for (const auto& sm : sms) {
    if (sm->residentCtas() == 0) continue;
    exec::CtaState* stuck = sm->livelockedCta();
    if (stuck == nullptr) return nullptr;
    if (first == nullptr) first = stuck;
  }
  return first;
}

}  // namespace

TimedGrid runTimedGrid(exec::GridContext& grid, uint32_t ctasPerSm, KeptState& kept, uint64_t startCycle) {
  TimedGrid out;
  const TimingConfig& timing = grid.config.timing;
  const uint64_t ctaCount = grid.launch.grid.count();
  std::vector<std::unique_ptr<SmModel>> sms;
  // The L1 gets what the resident CTAs' shared memory (and the 1 KiB the
  // driver reserves for each) leaves of the unified array.
  uint64_t sharedPerCta = grid.kernel.staticSharedBytes + grid.launch.dynamicSharedBytes + 1024;
  uint64_t sharedPerSm = std::min<uint64_t>(sharedPerCta * ctasPerSm, UINT32_MAX);
  uint32_t l1Bytes = memory::l1CapacityBytes(static_cast<uint32_t>(
      std::min<uint64_t>(sharedPerSm, memory::kSm90SharedCarveoutsKiB.back() * 1024)));
  CodeLayout code(grid.kernel, kept.instructionCaches.moduleNumber(grid.kernel.module), timing);
  std::vector<InstructionFetch>& fetch = kept.instructionCaches.forLaunch(timing, grid.config.smCount);
  memory::L2Cache& l2 = kept.memory.forLaunch(timing, grid.options.flushCaches);
  const memory::Hbm& dram = kept.memory.dram();
  for (uint32_t s = 0; s < grid.config.smCount; ++s) {
    sms.push_back(std::make_unique<SmModel>(s, grid, timing, code, fetch[s], kept.memory.fromSms(), l1Bytes));
  }
  std::map<const exec::CtaState*, uint32_t> smOfCta;
  uint64_t launchWrites = 0;
  for (auto& sm : sms) sm->watchWrites(&launchWrites);
  SimulatedClock clock(sms, smOfCta, grid.launchTimeNs, grid.config.clockRateKhz == 0 ? 1u : grid.config.clockRateKhz);
  grid.clock = &clock;
  std::map<uint64_t, std::string> printfByCta;
  uint64_t nextCta = 0;
  uint64_t now = startCycle;
  std::vector<uint64_t> nextEvent(sms.size(), UINT64_MAX);
  // --trace and the progress lines (trace_hooks.h): a pointer check per CTA when off.
  TraceRecorder* trace = grid.options.trace;
  if (trace != nullptr) trace->kernelStarted(tracedKernel(grid), startCycle);
  ProgressMeter progress(grid.kernel.kernel().function->name, grid.options.progress, std::cerr);
  // CTAs go to SMs in order, each SM filled to its limit in turn of the
  // lowest free slot, as the hardware's dispatcher hands them out at the start.
  auto dispatch = [&](uint64_t at) {
    for (uint32_t round = 0; round < ctasPerSm && nextCta < ctaCount; ++round) {
      for (auto& sm : sms) {
        if (nextCta >= ctaCount) break;
        if (sm->residentCtas() > round || sm->residentCtas() >= ctasPerSm) continue;
        sm->launchCta(nextCta, at);
        if (trace != nullptr) trace->ctaStarted(sm->index(), nextCta, at);
        smOfCta[sm->context().cta] = sm->index();
        nextEvent[sm->index()] = std::min(nextEvent[sm->index()], at);
        ++nextCta;
      }
    }
  };
  dispatch(now);
  std::vector<std::unique_ptr<exec::CtaState>> finished;
  bool failed = false;
  while (true) {
    uint64_t soonest = *std::min_element(nextEvent.begin(), nextEvent.end());
    if (soonest == UINT64_MAX) break;
    now = std::max(now, soonest);
    for (auto& sm : sms) {
      if (nextEvent[sm->index()] > now) continue;
      finished.clear();
      nextEvent[sm->index()] = sm->cycle(now, finished);
      if (sm->context().aborted) {
        failed = true;
        break;
      }
      for (auto& cta : finished) {
        if (!cta->printfOutput.empty()) printfByCta[cta->linearId] = std::move(cta->printfOutput);
        if (!cta->deviceRuntime.launches.empty())
          out.launchesByCta[cta->linearId] = std::move(cta->deviceRuntime.launches);
        smOfCta.erase(cta.get());
        if (trace != nullptr) trace->ctaFinished(sm->index(), cta->linearId, now);
        // The freed slot takes the next CTA after the launch cost.
        if (nextCta < ctaCount) {
          uint64_t at = now + timing.sm.ctaLaunchCycles;
          sm->launchCta(nextCta, at);
          if (trace != nullptr) trace->ctaStarted(sm->index(), nextCta, at);
          smOfCta[sm->context().cta] = sm->index();
          nextEvent[sm->index()] = std::min(nextEvent[sm->index()], at);
          ++nextCta;
        }
      }
    }
    if (failed) break;
    if (progress.due()) progress.report(progressOf(sms, now - startCycle));
    // Every resident CTA on every SM spins through states it was in
    // before, and no memory changed: it will go on forever.
    if (exec::CtaState* stuck = livelocked(sms)) {
      SmModel& sm = *sms[smOfCta.at(stuck)];
      exec::failStalled(sm.context(), *stuck,
                        "the resident blocks repeat the same states without writing memory (a spin on memory no "
                        "block writes, or a grid.sync() some block never reaches); the first of them");
      break;
    }
    // Resident CTAs but nothing will ever happen: every warp waits for a
    // barrier or for threads that cannot run.
    if (*std::min_element(nextEvent.begin(), nextEvent.end()) == UINT64_MAX) {
      for (auto& sm : sms) {
        if (sm->residentCtas() == 0) continue;
        exec::failStalled(sm->context(), *sm->context().cta, "no thread of the block can make progress");
        failed = true;
        break;
      }
    }
  }
  uint64_t lastActive = startCycle;
  for (auto& sm : sms) {
    lastActive = std::max(lastActive, sm->lastActiveCycle());
    if (sm->memoryDrainedAt() > 0) lastActive = std::max(lastActive, sm->memoryDrainedAt() - 1);
  }
  out.stats.timed = true;
  // The front end's launch and retirement of the grid (launch.grid_cycles).
  out.stats.timing.cyclesElapsed = lastActive + 1 - startCycle + timing.gridCycles;
  uint64_t active = 0, warpCycles = 0;
  for (auto& sm : sms) {
    out.stats.add(sm->context().stats);
    active += sm->counters().activeCycles;
    warpCycles += sm->counters().warpCyclesResident;
    const SmCounters& c = sm->counters();
    if (trace != nullptr) trace->smSummary(sm->index(), tracedSm(c));
    out.stats.timing.instructionsIssued += c.issued;
    for (size_t r = 0; r < kStallReasons; ++r) out.stats.timing.stallWarpCycles[r] += c.warpCycles[r];
    out.stats.timing.sharedBankConflictsLoad += c.sharedBankConflictsLoad;
    out.stats.timing.sharedBankConflictsStore += c.sharedBankConflictsStore;
    const memory::L1Stats& l1 = sm->l1();
    out.stats.timing.l1LoadRequests += l1.loadRequests;
    out.stats.timing.l1StoreRequests += l1.storeRequests;
    out.stats.timing.l1LoadSectors += l1.loadSectors;
    out.stats.timing.l1StoreSectors += l1.storeSectors;
    out.stats.timing.l1TextureRequests += l1.texture.requests;
    out.stats.timing.l1TextureSectors += l1.texture.sectors;
    out.stats.timing.l1SurfaceLoadSectors += l1.surfaceLoad.sectors;
    out.stats.timing.l1SurfaceStoreSectors += l1.surfaceStore.sectors;
    out.stats.timing.l1LdgstsRequests += l1.ldgsts.requests;
    out.stats.timing.l1LdgstsSectors += l1.ldgsts.sectors;
    out.stats.timing.l1SectorHits += l1.loadSectorHits + l1.storeSectorHits + l1.texture.sectorHits +
                                     l1.surfaceLoad.sectorHits + l1.surfaceStore.sectorHits + l1.ldgsts.sectorHits;
  }
  out.stats.timing.l2Sectors = l2.stats().readSectors + l2.stats().writeSectors + l2.stats().atomicSectors;
  out.stats.timing.l2SectorHits = l2.stats().sectorHits;
  out.stats.timing.dramBytesRead = dram.stats().bytesRead;
  out.stats.timing.dramBytesWritten = dram.stats().bytesWritten;
  uint32_t clockKhz = grid.config.clockRateKhz == 0 ? 1u : grid.config.clockRateKhz;
  out.stats.timing.durationNs = out.stats.timing.cyclesElapsed * 1'000'000 / clockKhz;
  out.stats.timing.smCyclesActiveAvg = static_cast<double>(active) / static_cast<double>(sms.size());
  uint32_t warpSlots = grid.config.maxThreadsPerSm / exec::kWarpSize;
  if (active != 0) out.stats.timing.warpsActivePct = 100.0 * static_cast<double>(warpCycles) / (static_cast<double>(active) * warpSlots);
  for (auto& [id, text] : printfByCta) out.printfOutput += text;
  if (trace != nullptr) {
    trace->kernelFinished(
        {out.stats.timing.cyclesElapsed, out.stats.warpInstructions, out.stats.threadInstructions, grid.error.message});
  }
  progress.finish({out.stats.timing.cyclesElapsed, out.stats.warpInstructions, out.stats.threadInstructions});
  grid.clock = &grid.instructionClock;
  return out;
}

}  // namespace ptxsim::sim::timing
