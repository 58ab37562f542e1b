#include "ptxsim/memory/l2_cache.h"

#include <bit>
#include <cstdint>

// The L2's statistics: what a lookup counts (L2Cache::count) and how the
// slices' shares of a window add up (L2Stats::add).

namespace ptxsim::memory {

double L2Stats::sectorHitRatePct() const {
  const uint64_t sectors = sectorHits + sectorMisses;
  return sectors == 0 ? 0.0 : 100.0 * static_cast<double>(sectorHits) / static_cast<double>(sectors);
}

void L2Cache::count(L2Stats& stats, const MemoryRequest& request, uint32_t partition, bool near,
                    uint32_t hits, uint32_t misses, uint32_t inFlightHits, Lookups lookups) {
  const uint32_t sectors = static_cast<uint32_t>(std::popcount(request.sectorMask));
  if (lookups.byFabric) {
    stats.fabricSectors += sectors;
    stats.fabricSectorHits += hits;
    stats.fabricSectorMisses += misses;
  }
  if (!lookups.bySm) return;
  if (request.atomic) {
    ++stats.atomicRequests;
    stats.atomicSectors += sectors;
  } else if (request.write) {
    ++stats.writeRequests;
    stats.writeSectors += sectors;
  } else {
    ++stats.readRequests;
    stats.readSectors += sectors;
  }
  stats.sectorHits += hits;
  stats.sectorMisses += misses;
  stats.inFlightSectorHits += inFlightHits;
  stats.partitionSectorHits[partition] += hits;
  ++(near ? stats.nearRequests : stats.farRequests);
}

void L2Stats::add(const L2Stats& other) {
  readRequests += other.readRequests;
  writeRequests += other.writeRequests;
  atomicRequests += other.atomicRequests;
  readSectors += other.readSectors;
  writeSectors += other.writeSectors;
  atomicSectors += other.atomicSectors;
  sectorHits += other.sectorHits;
  sectorMisses += other.sectorMisses;
  inFlightSectorHits += other.inFlightSectorHits;
  nearRequests += other.nearRequests;
  farRequests += other.farRequests;
  evictions += other.evictions;
  dirtyEvictions += other.dirtyEvictions;
  cleanings += other.cleanings;
  writeBackSectors += other.writeBackSectors;
  coalescedSectors += other.coalescedSectors;
  fabricSectors += other.fabricSectors;
  fabricSectorHits += other.fabricSectorHits;
  fabricSectorMisses += other.fabricSectorMisses;
  mshrStallCycles += other.mshrStallCycles;
  atomicUnitBusyCycles += other.atomicUnitBusyCycles;
  writePortWaitCycles += other.writePortWaitCycles;
  if (partitionSectorHits.size() < other.partitionSectorHits.size())
    partitionSectorHits.resize(other.partitionSectorHits.size(), 0);
  for (size_t p = 0; p < other.partitionSectorHits.size(); ++p)
    partitionSectorHits[p] += other.partitionSectorHits[p];
}

}  // namespace ptxsim::memory
