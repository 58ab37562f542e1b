#include "timed_stats.h"

#include <algorithm>

#include "../exec/lanes.h"

namespace ptxsim::sim::timing {

void gatherTimedStats(KernelStats& stats, const std::vector<std::unique_ptr<SmModel>>& sms,
                      const memory::L2Stats& l2, const memory::HbmStats& dram, const GpuConfig& config,
                      uint64_t startCycle) {
  uint64_t lastActive = startCycle;
  for (const auto& sm : sms) {
    lastActive = std::max(lastActive, sm->lastActiveCycle());
    if (sm->memoryDrainedAt() > 0) lastActive = std::max(lastActive, sm->memoryDrainedAt() - 1);
  }
  stats.timed = true;
  // The front end's launch and retirement of the grid (launch.grid_cycles).
  stats.timing.cyclesElapsed = lastActive + 1 - startCycle + config.timing.gridCycles;
  uint64_t active = 0, warpCycles = 0, gmma = 0, hmma = 0;
  for (const auto& sm : sms) {
    stats.add(sm->context().stats);
    active += sm->counters().activeCycles;
    warpCycles += sm->counters().warpCyclesResident;
    const SmCounters& c = sm->counters();
    stats.timing.instructionsIssued += c.issued;
    for (size_t r = 0; r < kStallReasons; ++r) stats.timing.stallWarpCycles[r] += c.warpCycles[r];
    stats.timing.sharedBankConflictsLoad += c.sharedBankConflictsLoad;
    stats.timing.sharedBankConflictsStore += c.sharedBankConflictsStore;
    stats.timing.sharedBankConflictsAtomic += c.sharedBankConflictsAtomic;
    gmma += c.tensorGmmaCycles;
    hmma += c.tensorHmmaCycles;
    const memory::L1Stats& l1 = sm->l1();
    stats.timing.l1LoadRequests += l1.loadRequests;
    stats.timing.l1StoreRequests += l1.storeRequests;
    stats.timing.l1LoadSectors += l1.loadSectors;
    stats.timing.l1StoreSectors += l1.storeSectors;
    stats.timing.l1TextureRequests += l1.texture.requests;
    stats.timing.l1TextureSectors += l1.texture.sectors;
    stats.timing.l1SurfaceLoadSectors += l1.surfaceLoad.sectors;
    stats.timing.l1SurfaceStoreSectors += l1.surfaceStore.sectors;
    stats.timing.l1LdgstsRequests += l1.ldgsts.requests;
    stats.timing.l1LdgstsSectors += l1.ldgsts.sectors;
    stats.timing.l1SectorHits += l1.loadSectorHits + l1.storeSectorHits + l1.texture.sectorHits +
                                 l1.surfaceLoad.sectorHits + l1.surfaceStore.sectorHits +
                                 l1.ldgsts.sectorHits;
  }
  stats.timing.l2Sectors = l2.readSectors + l2.writeSectors + l2.atomicSectors;
  stats.timing.l2SectorHits = l2.sectorHits;
  stats.timing.l2SectorMisses = l2.sectorMisses;
  stats.timing.l2FabricSectors = l2.fabricSectors;
  stats.timing.l2FabricSectorHits = l2.fabricSectorHits;
  stats.timing.l2FabricSectorMisses = l2.fabricSectorMisses;
  stats.timing.l2CoalescedSectors = l2.coalescedSectors;
  stats.timing.dramBytesRead = dram.bytesRead;
  stats.timing.dramBytesWritten = dram.bytesWritten;
  uint32_t clockKhz = config.clockRateKhz == 0 ? 1u : config.clockRateKhz;
  stats.timing.durationNs = stats.timing.cyclesElapsed * 1'000'000 / clockKhz;
  stats.timing.smCyclesActiveAvg = static_cast<double>(active) / static_cast<double>(sms.size());
  uint32_t warpSlots = config.maxThreadsPerSm / exec::kWarpSize;
  if (active != 0) {
    stats.timing.warpsActivePct =
        100.0 * static_cast<double>(warpCycles) / (static_cast<double>(active) * warpSlots);
    const double subPartitionCycles = static_cast<double>(active) * config.timing.sm.subPartitions;
    stats.timing.tensorGmmaPct = 100.0 * static_cast<double>(gmma) / subPartitionCycles;
    // The H100's hmma pipe counts wgmma's cycles as well (its Nsight Compute
    // gives a wgmma-only kernel 30-50% there: tests/timing/kernels/h100/hopper).
    stats.timing.tensorHmmaPct = 100.0 * static_cast<double>(hmma + gmma) / subPartitionCycles;
  }
}

}  // namespace ptxsim::sim::timing
