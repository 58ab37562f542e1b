#include "ptxsim/memory/l2_cache.h"

#include <algorithm>
#include <bit>
#include <cstdint>

// The L2 slice's atomic unit (L2Cache::runAtomicUnit): the timing of the
// sectors of an atomic request it updates, and the hazard of a sector it
// has just updated; the rules and their measurements are in l2_cache.h.

namespace ptxsim::memory {

uint64_t L2Cache::runAtomicUnit(Slice& slice, uint64_t dataAt, const MemoryRequest& request,
                                uint64_t& busyTicks) const {
  const uint32_t wordsPerSector = config_.sectorBytes / 4;
  const uint32_t sectorWordMask = wordsPerSector >= 32 ? ~0u : (1u << wordsPerSector) - 1;
  const uint64_t ops = request.opsPerWord;
  uint64_t issueAt = slice.atomicFreeAtTick;
  uint64_t lastDone = 0;
  busyTicks = 0;
  for (uint32_t sectors = request.sectorMask; sectors != 0; sectors &= sectors - 1) {
    const auto sector = static_cast<uint32_t>(std::countr_zero(sectors));
    // The request's words of this sector; 0 where not known (no results
    // pass on then).
    const uint32_t firstWord = sector * wordsPerSector;
    const uint32_t words =
        wordsPerSector == 0 || firstWord >= 32 ? 0 : (request.atomicWords >> firstWord) & sectorWordMask;
    uint64_t ready = dataAt * kAtomicTicksPerCycle;
    // The sector's last update, or the slot to forget for this one: the
    // update that is done first.
    AtomicUpdate* slot = &slice.atomicUpdates[0];
    for (AtomicUpdate& update : slice.atomicUpdates) {
      if (update.used && update.line == request.lineAddress && update.sector == sector) {
        slot = &update;
        break;
      }
      if (!update.used || (slot->used && update.doneAtTick < slot->doneAtTick)) slot = &update;
    }
    if (slot->used && slot->line == request.lineAddress && slot->sector == sector) {
      const bool passesOn = words != 0 && (words & ~slot->words) == 0;
      ready = std::max(ready, slot->doneAtTick + (passesOn ? 0 : atomicHazardTicks_));
    }
    const uint64_t start = std::max(issueAt, ready);
    const uint64_t holds = (ops - 1) * atomicTicksPerOp_ + atomicTicksPerSector_;
    issueAt = start + holds;
    busyTicks += holds;
    const uint64_t doneAt = start + ops * atomicTicksPerOp_;
    *slot = AtomicUpdate{request.lineAddress, sector, words, doneAt, true};
    lastDone = std::max(lastDone, doneAt);
  }
  slice.atomicFreeAtTick = issueAt;
  return lastDone;
}

}  // namespace ptxsim::memory
