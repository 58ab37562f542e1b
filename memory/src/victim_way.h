#pragma once

// Replacement shared by the sectored caches (l1_cache.cpp, l2_cache.cpp).

#include <algorithm>
#include <cstdint>

namespace ptxsim::memory {

// The way of `set` (`ways` long) a new line takes: the first invalid one,
// else the least recently used (`lastUse`) whose sectors have all arrived
// by `now` — a line still being filled stays, as its data has to land
// somewhere; null when every way is filling. `arrivalsOf(way)` gives a
// way's `sectorsPerLine` arrival cycles.
template <typename Way, typename ArrivalsOf>
Way* victimWay(Way* set, uint32_t ways, uint32_t sectorsPerLine, uint64_t now, ArrivalsOf arrivalsOf) {
  Way* victim = nullptr;
  for (uint32_t w = 0; w < ways; ++w) {
    Way& way = set[w];
    if (!way.valid) return &way;
    const uint64_t* arrival = arrivalsOf(way);
    bool filling = std::any_of(arrival, arrival + sectorsPerLine, [&](uint64_t t) { return t > now; });
    if (!filling && (victim == nullptr || way.lastUse < victim->lastUse)) victim = &way;
  }
  return victim;
}

}  // namespace ptxsim::memory
