#include "managed_advice.h"

#include <cstring>

namespace ptxsim::cudart {

namespace {

uint64_t pageBelow(uint64_t a) { return a / ManagedAdvice::kPageBytes * ManagedAdvice::kPageBytes; }
uint64_t pageAbove(uint64_t a) { return pageBelow(a + ManagedAdvice::kPageBytes - 1); }

// The legacy attributes answer with a device ordinal: cudaCpuDeviceId for
// the host (a NUMA node of it too).
int deviceIdOf(const cudaMemLocation& l) {
  switch (l.type) {
    case cudaMemLocationTypeDevice: return l.id;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma: return cudaCpuDeviceId;
    default: return cudaInvalidDeviceId;
  }
}

bool sameLocation(const cudaMemLocation& a, const cudaMemLocation& b) {
  return a.type == b.type && a.id == b.id;
}

}  // namespace

void ManagedAdvice::split(uint64_t at) {
  auto next = runs_.lower_bound(at);
  if (next != runs_.end() && next->first == at) return;
  PageAdvice before = next == runs_.begin() ? PageAdvice{} : std::prev(next)->second;
  runs_.emplace_hint(next, at, before);
}

template <class Change>
void ManagedAdvice::change(uint64_t address, uint64_t bytes, Change change) {
  uint64_t begin = pageBelow(address), end = pageAbove(address + bytes);
  if (begin >= end) return;
  split(begin);
  split(end);
  for (auto it = runs_.find(begin); it != runs_.end() && it->first < end; ++it) change(it->second);
  // Neighbouring runs that now agree become one (keeps the map small).
  for (auto it = runs_.begin(); it != runs_.end();) {
    PageAdvice previous = it == runs_.begin() ? PageAdvice{} : std::prev(it)->second;
    it = it->second == previous ? runs_.erase(it) : std::next(it);
  }
}

void ManagedAdvice::advise(uint64_t address, uint64_t bytes, cudaMemoryAdvise advice,
                           cudaMemLocation location) {
  if (location.type == cudaMemLocationTypeHostNumaCurrent) location = {cudaMemLocationTypeHostNuma, 0};
  change(address, bytes, [&](PageAdvice& p) {
    switch (advice) {
      case cudaMemAdviseSetReadMostly: p.readMostly = true; break;
      case cudaMemAdviseUnsetReadMostly: p.readMostly = false; break;
      case cudaMemAdviseSetPreferredLocation: p.preferred = location; break;
      case cudaMemAdviseUnsetPreferredLocation: p.preferred = {cudaMemLocationTypeInvalid, 0}; break;
      case cudaMemAdviseSetAccessedBy: p.accessedBy.insert(deviceIdOf(location)); break;
      case cudaMemAdviseUnsetAccessedBy: p.accessedBy.erase(deviceIdOf(location)); break;
    }
  });
}

void ManagedAdvice::prefetched(uint64_t address, uint64_t bytes, cudaMemLocation location) {
  if (location.type == cudaMemLocationTypeHostNumaCurrent) location = {cudaMemLocationTypeHostNuma, 0};
  change(address, bytes, [&](PageAdvice& p) { p.lastPrefetch = location; });
}

void ManagedAdvice::forget(uint64_t address, uint64_t bytes) {
  change(address, bytes, [](PageAdvice& p) { p = PageAdvice{}; });
}

std::vector<PageAdvice> ManagedAdvice::statesOf(uint64_t address, uint64_t bytes) const {
  uint64_t begin = pageBelow(address), end = pageAbove(address + bytes);
  std::vector<PageAdvice> states;
  auto it = runs_.upper_bound(begin);
  states.push_back(it == runs_.begin() ? PageAdvice{} : std::prev(it)->second);
  for (; it != runs_.end() && it->first < end; ++it) states.push_back(it->second);
  return states;
}

cudaError_t ManagedAdvice::query(cudaMemRangeAttribute attribute, uint64_t address, uint64_t bytes,
                                 void* data, size_t dataSize) const {
  std::vector<PageAdvice> states = statesOf(address, bytes);
  // The location every page shares, or an invalid one.
  auto common = [&](cudaMemLocation PageAdvice::*field) {
    cudaMemLocation first = states.front().*field;
    for (const PageAdvice& p : states) {
      if (!sameLocation(p.*field, first)) return cudaMemLocation{cudaMemLocationTypeInvalid, 0};
    }
    return first;
  };
  auto put = [&](int value) {
    if (dataSize != sizeof(int)) return cudaErrorInvalidValue;
    std::memcpy(data, &value, sizeof value);
    return cudaSuccess;
  };
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly: {
      bool all = true;
      for (const PageAdvice& p : states) all = all && p.readMostly;
      return put(all ? 1 : 0);
    }
    case cudaMemRangeAttributePreferredLocation: return put(deviceIdOf(common(&PageAdvice::preferred)));
    case cudaMemRangeAttributeLastPrefetchLocation: return put(deviceIdOf(common(&PageAdvice::lastPrefetch)));
    case cudaMemRangeAttributePreferredLocationType: return put(common(&PageAdvice::preferred).type);
    case cudaMemRangeAttributeLastPrefetchLocationType: return put(common(&PageAdvice::lastPrefetch).type);
    case cudaMemRangeAttributePreferredLocationId: return put(common(&PageAdvice::preferred).id);
    case cudaMemRangeAttributeLastPrefetchLocationId: return put(common(&PageAdvice::lastPrefetch).id);
    case cudaMemRangeAttributeAccessedBy: {
      if (dataSize == 0 || dataSize % sizeof(int) != 0) return cudaErrorInvalidValue;
      std::vector<int> devices;
      for (int d : states.front().accessedBy) {
        bool everywhere = true;
        for (const PageAdvice& p : states) everywhere = everywhere && p.accessedBy.count(d) != 0;
        if (everywhere) devices.push_back(d);
      }
      devices.resize(dataSize / sizeof(int), cudaInvalidDeviceId);
      std::memcpy(data, devices.data(), dataSize);
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidValue;
}

}  // namespace ptxsim::cudart
