#include "ptxsim/memory/allocation_table.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace ptxsim::memory {

const Allocation& AllocationTable::allocate(uint64_t size, uint64_t alignment, AllocationKind kind,
                                            std::string label) {
  if (alignment < kGranularity) alignment = kGranularity;
  if ((alignment & (alignment - 1)) != 0 || alignment > (uint64_t{1} << 20)) {
    throw std::invalid_argument("allocation alignment must be a power of two up to 1 MiB");
  }
  uint64_t base = (next_ + alignment - 1) & ~(alignment - 1);
  uint64_t granules = (std::max<uint64_t>(size, 1) + kGranularity - 1) / kGranularity;
  if (granules > (uint64_t{1} << 40) / kGranularity || base + granules * kGranularity >= (uint64_t{1} << 47)) {
    throw std::length_error("device address space exhausted");
  }
  // A guard granule after each allocation keeps neighbours apart, so a
  // small overrun lands outside every allocation and is reported.
  next_ = base + (granules + 1) * kGranularity;
  liveBytes_ += size;
  auto [it, inserted] = live_.emplace(base, Allocation{base, size, kind, std::move(label), nullptr, nextBufferId_++});
  return it->second;
}

uint64_t AllocationTable::reserve(uint64_t size, uint64_t alignment) {
  if (alignment < kGranularity) alignment = kGranularity;
  if ((alignment & (alignment - 1)) != 0) throw std::invalid_argument("reservation alignment must be a power of two");
  uint64_t base = (next_ + alignment - 1) & ~(alignment - 1);
  uint64_t granules = (std::max<uint64_t>(size, 1) + kGranularity - 1) / kGranularity;
  if (granules > (uint64_t{1} << 40) / kGranularity || base + granules * kGranularity >= (uint64_t{1} << 47)) {
    throw std::length_error("device address space exhausted");
  }
  next_ = base + (granules + 1) * kGranularity;  // and a guard granule, as allocate() leaves
  return base;
}

const Allocation& AllocationTable::allocateAt(uint64_t base, uint64_t size, AllocationKind kind) {
  uint64_t extent = std::max<uint64_t>(size, 1);
  auto after = live_.lower_bound(base);
  if ((after != live_.end() && after->first < base + extent) || find(base) != nullptr) {
    throw std::invalid_argument("the range overlaps a live allocation");
  }
  freed_.erase(base);
  liveBytes_ += size;
  return live_.emplace(base, Allocation{base, size, kind, {}, nullptr, nextBufferId_++}).first->second;
}

bool AllocationTable::addHostRange(uint8_t* base, uint64_t size, AllocationKind kind) {
  auto address = reinterpret_cast<uint64_t>(base);
  uint64_t extent = std::max<uint64_t>(size, 1);
  // Host pointers must stay clear of the device's own ranges: below the
  // generic windows, or above everything allocate() hands out.
  constexpr uint64_t kWindowsBegin = 0x0000'7000'0000'0000ull;
  bool belowDevice = address + extent <= kWindowsBegin;
  bool aboveDevice = address >= next_ + (uint64_t{1} << 40);
  if (!belowDevice && !aboveDevice) return false;
  auto after = live_.lower_bound(address);
  if (after != live_.end() && after->first < address + extent) return false;
  if (after != live_.begin() && find(address) != nullptr) return false;
  liveBytes_ += size;
  Allocation a{address, size, kind, {}, base, nextBufferId_++};
  live_.emplace(address, a);
  return true;
}

std::optional<Allocation> AllocationTable::release(uint64_t base) {
  auto it = live_.find(base);
  if (it == live_.end()) return std::nullopt;
  Allocation gone = it->second;
  live_.erase(it);
  liveBytes_ -= gone.size;
  freed_.emplace(base, gone);
  return gone;
}

bool AllocationTable::restore(uint64_t base) {
  auto it = freed_.find(base);
  if (it == freed_.end()) return false;
  liveBytes_ += it->second.size;
  live_.emplace(base, it->second);
  freed_.erase(it);
  return true;
}

const Allocation* AllocationTable::containing(const std::map<uint64_t, Allocation>& ranges, uint64_t address) {
  auto it = ranges.upper_bound(address);
  if (it == ranges.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  // A zero-byte allocation still owns its first byte's address for lookups.
  uint64_t extent = a.size == 0 ? 1 : a.size;
  return address - a.base < extent ? &a : nullptr;
}

const Allocation* AllocationTable::find(uint64_t address) const { return containing(live_, address); }

AccessCheck AllocationTable::check(uint64_t address, uint64_t size) const {
  if (const Allocation* a = containing(live_, address)) {
    if (address + size - a->base <= a->size) return {AccessStatus::Ok, a};
    // Device memory mapped back to back (cuMemMap into one reservation) is
    // one range to an access; allocate() keeps a gap after everything else.
    for (const Allocation* piece = a; piece->host == nullptr;) {
      auto next = live_.find(piece->base + piece->size);
      if (next == live_.end() || next->second.host != nullptr) break;
      piece = &next->second;
      if (address + size <= piece->base + piece->size) return {AccessStatus::Ok, a};
    }
    return {AccessStatus::OutOfBounds, a};
  }
  if (const Allocation* f = containing(freed_, address)) return {AccessStatus::Freed, f};
  // Report the nearest live allocation below, which is usually the one the
  // program overran.
  auto it = live_.upper_bound(address);
  const Allocation* nearest = it == live_.begin() ? nullptr : &std::prev(it)->second;
  return {AccessStatus::OutOfBounds, nearest};
}

}  // namespace ptxsim::memory
