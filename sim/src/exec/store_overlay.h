#pragma once

// One SM's global-memory stores during a timing window
// (sim/src/timing/timing_driver.cpp): kept aside, by 32-byte sector, until
// the window ends, so that no other SM sees them before then whatever the
// order host threads run the SMs in. A sector enters with memory's bytes
// as they were (its first store copies them), so the SM's own loads read it
// whole; the bytes stored are marked, and only they are written back when
// the window commits, in SM order.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ptxsim/memory/page_store.h"

namespace ptxsim::sim::exec {

class StoreOverlay {
 public:
  static constexpr uint64_t kSectorBytes = 32;

  bool empty() const { return count_ == 0; }
  size_t sectors() const { return count_; }

  // The overlay's copy of `address` (its sector must be present), or null
  // when the sector is not in the overlay.
  uint8_t* find(uint64_t address);

  // Where a store of `size` bytes at `address` (inside one sector) writes:
  // the overlay's copy, its bytes marked as stored. A sector new to the
  // overlay copies memory's bytes first: `memoryBytes` points at `address`
  // in memory, valid from `validFrom` to `validTo` (the allocation's bounds;
  // bytes of the sector outside it stay 0 and are never written back).
  // `hostSector`: where the sector's first byte lies in host memory for a
  // host-backed allocation (null: the page store).
  uint8_t* store(uint64_t address, unsigned size, const uint8_t* memoryBytes, uint64_t validFrom, uint64_t validTo,
                 uint8_t* hostSector);

  // Writes the stored bytes to memory (`pages` for sectors not host-backed)
  // and empties the overlay.
  void commit(memory::PageStore& pages);
  // commit() split over host threads: writes only the sectors of share
  // `share` of `shares` (by kShareBytes block of address, so that threads
  // write disjoint sectors whatever the SMs stored) and keeps them. Several
  // SMs' overlays committed share by share, each share's SMs in order, give
  // memory what committing them whole in that order gives. clear() after.
  static constexpr uint64_t kShareBytes = 512;
  void commitShare(memory::PageStore& pages, unsigned share, unsigned shares);
  void clear();

 private:
  struct Sector {
    uint64_t address = 0;  // sector-aligned
    uint32_t stored = 0;   // bit b: byte b was stored
    uint32_t slot = 0;     // in table_
    uint8_t* host = nullptr;
    std::array<uint8_t, kSectorBytes> bytes{};
  };
  static constexpr size_t kChunk = 256;
  static constexpr uint32_t kEmpty = UINT32_MAX;

  Sector& sector(size_t i) { return chunks_[i / kChunk][i % kChunk]; }
  uint32_t slotOf(uint64_t sectorAddress) const;
  Sector* lookup(uint64_t sectorAddress);
  void grow();

  // Open addressing, linear probing; sector indices, kEmpty when free.
  std::vector<uint32_t> table_ = std::vector<uint32_t>(64, kEmpty);
  // The sectors in order of entry, in chunks so that a pointer handed out
  // stays valid until commit.
  std::vector<std::unique_ptr<Sector[]>> chunks_;
  size_t count_ = 0;
};

}  // namespace ptxsim::sim::exec
