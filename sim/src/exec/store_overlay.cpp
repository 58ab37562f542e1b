#include "store_overlay.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ptxsim::sim::exec {

uint32_t StoreOverlay::slotOf(uint64_t sectorAddress) const {
  // Fibonacci hashing of the sector number spreads strided sectors.
  const uint64_t hash = (sectorAddress / kSectorBytes) * 0x9E3779B97F4A7C15ull;
  const auto bits = static_cast<unsigned>(std::countr_zero(table_.size()));
  return static_cast<uint32_t>(hash >> (64 - bits));
}

StoreOverlay::Sector* StoreOverlay::lookup(uint64_t base) {
  const size_t mask = table_.size() - 1;
  for (size_t slot = slotOf(base);; slot = (slot + 1) & mask) {
    const uint32_t index = table_[slot];
    if (index == kEmpty) return nullptr;
    Sector& s = sector(index);
    if (s.address == base) return &s;
  }
}

uint8_t* StoreOverlay::find(uint64_t address) {
  const uint64_t base = address & ~(kSectorBytes - 1);
  Sector* s = lookup(base);
  return s == nullptr ? nullptr : s->bytes.data() + (address - base);
}

void StoreOverlay::grow() {
  std::vector<uint32_t> bigger(table_.size() * 2, kEmpty);
  table_.swap(bigger);
  const size_t mask = table_.size() - 1;
  for (size_t i = 0; i < count_; ++i) {
    Sector& s = sector(i);
    size_t slot = slotOf(s.address);
    while (table_[slot] != kEmpty) slot = (slot + 1) & mask;
    table_[slot] = static_cast<uint32_t>(i);
    s.slot = static_cast<uint32_t>(slot);
  }
}

uint8_t* StoreOverlay::store(uint64_t address, unsigned size, const uint8_t* memoryBytes, uint64_t validFrom,
                             uint64_t validTo, uint8_t* hostSector) {
  const uint64_t base = address & ~(kSectorBytes - 1);
  const uint64_t offset = address - base;
  if (offset + size > kSectorBytes) {
    // Accesses are aligned to their size (ExecContext checks it first) and
    // at most a sector long.
    throw std::logic_error("store overlay: a store of " + std::to_string(size) + " bytes crosses a sector");
  }
  const uint32_t marks = (size == 32 ? UINT32_MAX : ((uint32_t{1} << size) - 1)) << offset;
  if (Sector* known = lookup(base)) {
    known->stored |= marks;
    return known->bytes.data() + offset;
  }
  if ((count_ + 1) * 2 > table_.size()) grow();
  if (count_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<Sector[]>(kChunk));
  Sector& s = sector(count_);
  s.address = base;
  s.stored = marks;
  s.host = hostSector;
  s.bytes.fill(0);
  const uint64_t from = std::max(base, validFrom);
  const uint64_t to = std::min(base + kSectorBytes, validTo);
  if (from < to) std::memcpy(s.bytes.data() + (from - base), memoryBytes - (address - from), to - from);
  const size_t mask = table_.size() - 1;
  size_t slot = slotOf(base);
  while (table_[slot] != kEmpty) slot = (slot + 1) & mask;
  table_[slot] = static_cast<uint32_t>(count_);
  s.slot = static_cast<uint32_t>(slot);
  ++count_;
  return s.bytes.data() + offset;
}

void StoreOverlay::commit(memory::PageStore& pages) {
  commitShare(pages, 0, 1);
  clear();
}

void StoreOverlay::commitShare(memory::PageStore& pages, unsigned share, unsigned shares) {
  for (size_t i = 0; i < count_; ++i) {
    Sector& s = sector(i);
    if (shares > 1 && (s.address / kShareBytes) % shares != share) continue;
    uint8_t* target = s.host;
    if (target == nullptr) {
      target = pages.pageForWrite(s.address) + (s.address & (memory::PageStore::kPageSize - 1));
    }
    // Runs of stored bytes, so that bytes other SMs stored stay theirs.
    for (uint32_t rest = s.stored; rest != 0;) {
      const auto first = static_cast<unsigned>(std::countr_zero(rest));
      const auto run = static_cast<unsigned>(std::countr_one(rest >> first));
      std::memcpy(target + first, s.bytes.data() + first, run);
      rest = run + first >= 32 ? 0 : rest & ~(((uint32_t{1} << run) - 1) << first);
    }
  }
}

void StoreOverlay::clear() {
  for (size_t i = 0; i < count_; ++i) table_[sector(i).slot] = kEmpty;
  count_ = 0;
}

}  // namespace ptxsim::sim::exec
