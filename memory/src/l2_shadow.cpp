#include "ptxsim/memory/l2_cache.h"

#include <algorithm>
#include <cstdint>
#include <utility>

// An SM's shadow of the L2 (L2Cache::Shadow): the copies of the slices and
// sets its requests of a window touched, made on first use and kept for
// the next window.

namespace ptxsim::memory {

void L2Cache::Shadow::clear() {
  for (uint32_t index : slicesCopied_) sliceCopied_[index] = Copied::No;
  slicesCopied_.clear();
  if (setsUsed_ != 0) std::fill(setTable_.begin(), setTable_.end(), 0);
  setsUsed_ = 0;
  backend_.clear();
}

L2Cache::Slice& L2Cache::Shadow::slice(const L2Cache& l2, uint32_t index) {
  if (slices_.size() != l2.slices_.size()) {
    slices_.resize(l2.slices_.size());
    sliceCopied_.assign(l2.slices_.size(), Copied::No);
  }
  if (sliceCopied_[index] == Copied::No) {
    // Copy-assigned: its vectors keep their storage.
    static_cast<SliceClocks&>(slices_[index]) = l2.slices_[index];
    sliceCopied_[index] = Copied::ButAtomicUpdates;
    slicesCopied_.push_back(index);
  }
  return slices_[index];
}

void L2Cache::Shadow::atomicUpdatesOf(const L2Cache& l2, Slice& copy) {
  const auto index = static_cast<size_t>(&copy - slices_.data());
  if (sliceCopied_[index] == Copied::Whole) return;
  copy.atomicUpdates = l2.slices_[index].atomicUpdates;
  sliceCopied_[index] = Copied::Whole;
}

std::pair<L2Cache::Shadow::Set*, bool> L2Cache::Shadow::set(uint32_t index) {
  if (2 * (setsUsed_ + 1) > setTable_.size()) {
    // Twice the room, the copies so far entered again.
    setTable_.assign(std::max<size_t>(64, 2 * setTable_.size()), 0);
    for (size_t position = 0; position < setsUsed_; ++position) {
      size_t probe = sets_[position].index & (setTable_.size() - 1);
      while (setTable_[probe] != 0) probe = (probe + 1) & (setTable_.size() - 1);
      setTable_[probe] = (uint64_t{sets_[position].index} + 1) << 32 | position;
    }
  }
  const uint64_t key = uint64_t{index} + 1;
  size_t probe = index & (setTable_.size() - 1);
  while (setTable_[probe] != 0) {
    if (setTable_[probe] >> 32 == key) return {&sets_[static_cast<uint32_t>(setTable_[probe])], false};
    probe = (probe + 1) & (setTable_.size() - 1);
  }
  if (setsUsed_ == sets_.size()) sets_.emplace_back();
  setTable_[probe] = key << 32 | setsUsed_;
  Set& copy = sets_[setsUsed_++];
  copy.index = index;
  return {&copy, true};
}

}  // namespace ptxsim::memory
