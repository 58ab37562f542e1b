#include "ptxsim/sim/device_heap.h"

namespace ptxsim::sim {

void DeviceHeap::reset(uint64_t base, uint64_t size) {
  std::lock_guard lock(mutex_);
  base_ = base;
  size_ = size;
  used_.clear();
}

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  std::lock_guard lock(mutex_);
  if (bytes > size_) return 0;  // also keeps the rounding below from wrapping (malloc(SIZE_MAX))
  uint64_t need = (std::max<uint64_t>(bytes, 1) + 15) & ~uint64_t{15};
  uint64_t cursor = base_;
  for (const auto& [address, length] : used_) {
    if (address - cursor >= need) break;
    cursor = address + length;
  }
  if (need > base_ + size_ - cursor) return 0;
  used_.emplace(cursor, need);
  return cursor;
}

bool DeviceHeap::release(uint64_t address) {
  std::lock_guard lock(mutex_);
  return used_.erase(address) == 1;
}

}  // namespace ptxsim::sim
