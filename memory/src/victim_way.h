#pragma once

// Victim choice shared by the sectored caches (l1_cache.cpp, l2_cache.cpp),
// and the L2's choice of a dirty line to write back and keep.

#include <algorithm>
#include <cstdint>

#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

// Ranks `way` for a lookup at `tick` of its cache's clock, as `policy`
// has it: a way of rank 0 was allocated for this lookup (ticks start at 1).
template <typename Way>
void rankLookup(Way& way, const ReplacementPolicy& policy, uint64_t tick) {
  const RankContext context{.tick = tick, .line = way.line};
  way.rank = way.rank == 0 ? policy.inserted(context) : policy.reused(context, way.rank);
}

// The way of `set` (`ways` long) a new line takes: the first invalid one,
// else the one of lowest rank (`rank`) whose sectors have all arrived
// by `now` — a line still being filled stays, as its data has to land
// somewhere — nor `keep`; null when every way is filling. `arrivalsOf(way)`
// gives a way's `sectorsPerLine` arrival cycles.
template <typename Way, typename ArrivalsOf>
Way* victimWay(Way* set, uint32_t ways, uint32_t sectorsPerLine, uint64_t now, ArrivalsOf arrivalsOf,
               const Way* keep = nullptr) {
  Way* victim = nullptr;
  for (uint32_t w = 0; w < ways; ++w) {
    Way& way = set[w];
    if (!way.valid) return &way;
    if (&way == keep) continue;
    const uint64_t* arrival = arrivalsOf(way);
    bool filling = std::any_of(arrival, arrival + sectorsPerLine, [&](uint64_t t) { return t > now; });
    if (!filling && (victim == nullptr || way.rank < victim->rank)) victim = &way;
  }
  return victim;
}

// With a line holding dirty sectors taking `dirtyWays` ways of the set's
// room: when its lines take more than `ways`, the one to evict, the one of
// lowest rank but `keep` whose fetches have all landed (a fetch in
// flight has to land somewhere; a store still being written does not hold
// its line, which is written back once written); else null.
template <typename Way, typename ArrivalsOf>
Way* overfullVictim(Way* set, uint32_t ways, uint32_t dirtyWays, uint32_t sectorsPerLine, uint64_t now,
                    const Way* keep, ArrivalsOf arrivalsOf) {
  uint32_t room = 0;
  for (uint32_t w = 0; w < ways; ++w)
    if (set[w].valid) room += set[w].dirty != 0 ? dirtyWays : 1;
  if (room <= ways) return nullptr;
  Way* victim = nullptr;
  for (uint32_t w = 0; w < ways; ++w) {
    Way& line = set[w];
    if (!line.valid || &line == keep) continue;
    const uint64_t* arrival = arrivalsOf(line);
    bool fetching = false;
    for (uint32_t sector = 0; sector < sectorsPerLine; ++sector)
      fetching = fetching || (arrival[sector] > now && ((line.dirty >> sector) & 1) == 0);
    if (!fetching && (victim == nullptr || line.rank < victim->rank)) victim = &line;
  }
  return victim;
}

// With at most `limit` of a set's lines dirty: when it holds more, the one
// to write back and keep, the dirty line of lowest rank but `keep`;
// else null.
template <typename Way>
Way* dirtyBeyondLimit(Way* set, uint32_t ways, uint32_t limit, const Way* keep) {
  uint32_t dirty = 0;
  Way* oldest = nullptr;
  for (uint32_t w = 0; w < ways; ++w) {
    Way& way = set[w];
    if (!way.valid || way.dirty == 0) continue;
    ++dirty;
    if (&way != keep && (oldest == nullptr || way.rank < oldest->rank)) oldest = &way;
  }
  return dirty > limit ? oldest : nullptr;
}

}  // namespace ptxsim::memory
