#include "warp_shadow.h"

#include <algorithm>
#include <bit>

namespace ptxsim::sim::checks {

WarpShadow::WarpShadow() { reset(); }

void WarpShadow::reset() {
  // Every lane starts in epoch 1, which no other lane is ordered after yet.
  clock_ = {};
  for (unsigned l = 0; l < kLanes; ++l) clock_[l][l] = 1;
  barrierLanes_ = 0;
  barrierClock_ = {};
  clear();
}

void WarpShadow::synchronize(LaneMask lanes) {
  if (lanes == 0) return;
  std::array<uint32_t, kLanes> joined{};
  for (LaneMask m = lanes; m != 0; m &= m - 1) {
    const auto& c = clock_[static_cast<unsigned>(std::countr_zero(m))];
    for (unsigned j = 0; j < kLanes; ++j) joined[j] = std::max(joined[j], c[j]);
  }
  for (LaneMask m = lanes; m != 0; m &= m - 1) {
    auto l = static_cast<unsigned>(std::countr_zero(m));
    clock_[l] = joined;
    ++clock_[l][l];
  }
}

LaneMask WarpShadow::arriveAtBarrier(LaneMask lanes) {
  if (lanes == 0) return barrierLanes_;
  if ((lanes & barrierLanes_) != 0) {
    barrierLanes_ = 0;
    barrierClock_ = {};
  }
  for (LaneMask m = lanes; m != 0; m &= m - 1) {
    const auto& c = clock_[static_cast<unsigned>(std::countr_zero(m))];
    for (unsigned j = 0; j < kLanes; ++j) barrierClock_[j] = std::max(barrierClock_[j], c[j]);
  }
  barrierLanes_ |= lanes;
  // Earlier pieces keep their own (already advanced) epochs; the new one
  // starts a new epoch after the barrier.
  for (LaneMask m = barrierLanes_; m != 0; m &= m - 1) {
    auto l = static_cast<unsigned>(std::countr_zero(m));
    for (unsigned j = 0; j < kLanes; ++j) clock_[l][j] = std::max(clock_[l][j], barrierClock_[j]);
    if ((lanes >> l) & 1) ++clock_[l][l];
  }
  return barrierLanes_;
}

void WarpShadow::clear() {
  chunkIndex_.clear();
  chunks_.clear();
  lastChunk_ = kNoChunk;
  pool_.clear();
  freeSlots_.clear();
}

WarpShadow::Cell& WarpShadow::cell(bool shared, uint64_t address) {
  uint64_t key = (address >> kChunkBits) | (shared ? uint64_t{1} << 63 : 0);
  if (key != lastKey_ || lastChunk_ == kNoChunk) {
    auto [it, inserted] = chunkIndex_.try_emplace(key, static_cast<uint32_t>(chunks_.size()));
    if (inserted) chunks_.emplace_back();
    lastKey_ = key;
    lastChunk_ = it->second;
  }
  return chunks_[lastChunk_][address & ((1u << kChunkBits) - 1)];
}

template <typename F>
void WarpShadow::forEach(const AccessSet& set, F&& f) const {
  if (set.many != 0) {
    const LaneAccesses& all = pool_[set.many - 1];
    for (LaneMask m = all.lanes; m != 0; m &= m - 1) f(all.at[static_cast<unsigned>(std::countr_zero(m))]);
  } else if (set.one.site != 0) {
    f(set.one);
  }
}

void WarpShadow::add(AccessSet& set, const ShadowAccess& access) {
  if (set.many == 0 && (set.one.site == 0 || set.one.lane == access.lane)) {
    set.one = access;
    return;
  }
  if (set.many == 0) {
    uint32_t slot;
    if (!freeSlots_.empty()) {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
      pool_[slot] = LaneAccesses{};
    } else {
      slot = static_cast<uint32_t>(pool_.size());
      pool_.emplace_back();
    }
    pool_[slot].lanes = LaneMask{1} << set.one.lane;
    pool_[slot].at[set.one.lane] = set.one;
    set.one = ShadowAccess{};
    set.many = slot + 1;
  }
  LaneAccesses& all = pool_[set.many - 1];
  all.lanes |= LaneMask{1} << access.lane;
  all.at[access.lane] = access;
}

void WarpShadow::release(AccessSet& set) {
  if (set.many != 0) freeSlots_.push_back(set.many - 1);
  set = AccessSet{};
}

void WarpShadow::accessCell(Cell& cell, unsigned lane, AccessKind kind, uint32_t site, bool shared,
                            uint64_t address, std::vector<Conflict>& out, size_t first) {
  auto conflict = [&](const ShadowAccess& earlier, AccessKind earlierKind) {
    if (ordered(lane, earlier)) return;
    // A wider access meets the same earlier access on each of its bytes:
    // one conflict is enough.
    for (size_t i = first; i < out.size(); ++i) {
      const Conflict& c = out[i];
      if (c.lane == lane && c.earlierLane == earlier.lane && c.earlierSite == earlier.site && c.site == site)
        return;
    }
    out.push_back(Conflict{lane, kind, site, earlier.lane, earlierKind, earlier.site, shared, address});
  };
  // Every access conflicts with an unordered plain store; stores and
  // atomics also with unordered loads; loads and stores with unordered
  // atomics (atomics among themselves do not race).
  if (cell.write.site != 0) conflict(cell.write, AccessKind::Store);
  if (kind != AccessKind::Load) {
    forEach(cell.reads, [&](const ShadowAccess& a) { conflict(a, AccessKind::Load); });
  }
  if (kind != AccessKind::Atomic) {
    forEach(cell.atomics, [&](const ShadowAccess& a) { conflict(a, AccessKind::Atomic); });
  }
  ShadowAccess now{clock_[lane][lane], site, static_cast<uint8_t>(lane)};
  switch (kind) {
    case AccessKind::Load: add(cell.reads, now); break;
    case AccessKind::Atomic: add(cell.atomics, now); break;
    default:
      // The store is ordered after, or has just been reported against,
      // everything the cell held.
      cell.write = now;
      release(cell.reads);
      release(cell.atomics);
      break;
  }
}

void WarpShadow::access(unsigned lane, AccessKind kind, uint32_t site, bool shared, uint64_t address,
                        unsigned bytes, std::vector<Conflict>& out) {
  size_t first = out.size();
  uint64_t end = address + bytes;
  for (uint64_t a = address; a < end; ++a)
    accessCell(cell(shared, a), lane, kind, site, shared, a, out, first);
}

}  // namespace ptxsim::sim::checks
