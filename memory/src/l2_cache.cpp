#include "ptxsim/memory/l2_cache.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "victim_way.h"

namespace ptxsim::memory {

namespace {

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("L2 cache: " + why); }

}  // namespace

L2Cache::L2Cache(const L2Config& config, MemoryBackend& backend) : config_(config), backend_(backend) {
  static_assert(sizeof(Way) == 40, "a way's size: its fields' order keeps it to 40 bytes");
  checkL2Config(config);
  sectorsPerLine_ = config.lineBytes / config.sectorBytes;
  sectorsPerFetch_ = config.fetchBytes / config.sectorBytes;
  const uint64_t sets = config.capacityBytes / (uint64_t{config.lineBytes} * config.ways);
  const auto ticks = [](double cycles) {
    return static_cast<uint64_t>(std::llround(cycles * kAtomicTicksPerCycle));
  };
  atomicTicksPerOp_ = std::max<uint64_t>(1, ticks(config.atomicCyclesPerOp));
  atomicTicksPerSector_ = std::max<uint64_t>(1, ticks(config.atomicCyclesPerSector));
  atomicHazardTicks_ = ticks(config.atomicHazardCycles);
  // The sectors the unit can start while an update still holds the next
  // atomic on its sector back (its hazard, or its operation's result), and
  // one more: an update older than these is no hazard any more.
  atomicUpdateSlots_ =
      static_cast<uint32_t>((atomicHazardTicks_ + atomicTicksPerOp_) / atomicTicksPerSector_) + 2;
  writeTicksPerRequest_ = ticks(config.writeRequestCycles);
  writeTicksPerSector_ = std::max<uint64_t>(1, ticks(1 / config.writeSectorsPerCycle));
  // Whole sets a slice; a remainder of sets (25600 over 48 slices: 16) is
  // left unused.
  setsPerSlice_ = static_cast<uint32_t>(sets / config.slices);
  sets_ = setsPerSlice_ * config.slices;
  ways_.resize(uint64_t{sets_} * config.ways);
  setFlushes_.assign(sets_, 0);
  arrival_.resize(ways_.size() * sectorsPerLine_);
  slices_.resize(config.slices);
  for (Slice& slice : slices_) slice.atomicUpdates.resize(atomicUpdateSlots_);
  stats_.partitionSectorHits.assign(config.partitions, 0);
  sliceWindows_.resize(config.slices);
  for (SliceWindow& window : sliceWindows_) window.stats.partitionSectorHits.assign(config.partitions, 0);
}

uint32_t L2Cache::sliceOf(uint64_t lineAddress) const {
  return spreadIndex(lineAddress / config_.lineBytes, config_.slices);
}

uint32_t L2Cache::setIndexOf(uint64_t lineAddress) const {
  const uint64_t line = lineAddress / config_.lineBytes;
  return spreadIndex(line, config_.slices) * setsPerSlice_ +
         spreadIndex(line / config_.slices, setsPerSlice_);
}

L2Cache::Way* L2Cache::setOf(uint64_t line) {
  const uint32_t index = setIndexOf(line);
  Way* set = &ways_[uint64_t{index} * config_.ways];
  if (!setCurrent(index)) {
    std::fill_n(set, config_.ways, Way{});
    setFlushes_[index] = flushes_;
  }
  return set;
}

void L2Cache::prefetchSet(uint64_t lineAddress) const {
  constexpr size_t kHostLine = 64;
  const uint64_t set = setIndexOf(lineAddress);
  const auto* ways = reinterpret_cast<const char*>(&ways_[set * config_.ways]);
  for (size_t at = 0; at < sizeof(Way) * config_.ways; at += kHostLine) __builtin_prefetch(ways + at);
  const auto* arrival = reinterpret_cast<const char*>(&arrival_[set * config_.ways * sectorsPerLine_]);
  for (size_t at = 0; at < sizeof(uint64_t) * config_.ways * sectorsPerLine_; at += kHostLine)
    __builtin_prefetch(arrival + at);
}

template <class W>
W* L2Cache::findIn(W* set, uint32_t ways, uint64_t line, uint32_t owner) {
  for (uint32_t w = 0; w < ways; ++w)
    if (set[w].valid && set[w].line == line && set[w].owner == owner) return &set[w];
  return nullptr;
}

uint64_t* L2Cache::arrivals(Way& way) {
  uint64_t* arrival = &arrival_[(&way - ways_.data()) * sectorsPerLine_];
  if (way.launch != launch_) {
    std::fill_n(arrival, sectorsPerLine_, 0);
    way.launch = launch_;
  }
  return arrival;
}

const uint64_t* L2Cache::arrivals(const Way& way) const {
  static constexpr uint64_t kArrived[32] = {};
  if (way.launch != launch_) return kArrived;
  return &arrival_[(&way - ways_.data()) * sectorsPerLine_];
}

void L2Cache::restartClocks() {
  ++launch_;
  for (Slice& slice : slices_) {
    const uint64_t useClock = slice.useClock;  // the lines kept are older than the new launch's uses
    slice = Slice{};
    slice.atomicUpdates.resize(atomicUpdateSlots_);
    slice.useClock = useClock;
  }
}

void L2Cache::startLaunch() {
  restartClocks();
  copyEngineClock_ = 0;
  atomicBusyTicks_ = 0;
  stats_ = {};
  stats_.partitionSectorHits.assign(config_.partitions, 0);
}

void L2Cache::checkRequest(const MemoryRequest& request) const {
  if (request.lineAddress % config_.lineBytes != 0)
    fail("request at " + std::to_string(request.lineAddress) + " is not aligned to a " +
         std::to_string(config_.lineBytes) + "-byte line");
  if (request.sectorMask == 0 || (sectorsPerLine_ < 32 && (request.sectorMask >> sectorsPerLine_) != 0))
    fail("sector mask " + std::to_string(request.sectorMask) + " names no sector or one beyond the line's " +
         std::to_string(sectorsPerLine_));
  if (request.atomic && request.opsPerWord == 0) fail("an atomic must make at least one operation per word");
}

// request()'s and requestInWindow()'s state: the L2's own; statistics to
// the L2's or the slice's window's; back-end requests made, or estimated
// and logged in the slice's window.
struct L2Cache::Applied {
  static constexpr bool kCommit = true;
  L2Cache& self;
  SliceWindow* window = nullptr;  // requestInWindow()'s slice
  Slice& slice(uint32_t index) { return self.slices_[index]; }
  Slice& withAtomicUpdates(Slice& slice) { return slice; }
  Way* set(uint64_t line) { return self.setOf(line); }
  uint64_t* arrivals(Way& way) { return self.arrivals(way); }
  L2Stats& stats() { return window != nullptr ? window->stats : self.stats_; }
  void addAtomicBusy(uint64_t ticks) {
    if (window != nullptr) {
      window->atomicBusyTicks += ticks;
      return;
    }
    self.atomicBusyTicks_ += ticks;
    self.stats_.atomicUnitBusyCycles = self.atomicBusyTicks_ / kAtomicTicksPerCycle;
  }
  uint64_t backend(uint64_t now, const MemoryRequest& request) {
    if (window == nullptr) return self.backend_.request(now, request);
    if (!window->backend) window->backend = self.backend_.makeView();
    return window->backend->estimateInto(now, request);
  }
};

// estimateInto()'s state: copies of what the L2 holds, made when first
// touched, in the shadow; the back end estimated after the shadow's earlier
// back-end requests.
struct L2Cache::Shadowed {
  static constexpr bool kCommit = false;
  const L2Cache& self;
  Shadow& shadow;
  Shadow::Set* current = nullptr;  // the set of the request being served (one a request)
  Slice& slice(uint32_t index) { return shadow.slice(self, index); }
  Slice& withAtomicUpdates(Slice& copy) {
    shadow.atomicUpdatesOf(self, copy);
    return copy;
  }
  Way* set(uint64_t line) {
    const uint32_t index = self.setIndexOf(line);
    auto [copy, added] = shadow.set(index);
    if (added) {
      const Way* ways = &self.ways_[uint64_t{index} * self.config_.ways];
      if (self.setCurrent(index))
        copy->ways.assign(ways, ways + self.config_.ways);
      else
        copy->ways.assign(self.config_.ways, Way{});  // emptied by a flush, when next used
      copy->arrival.resize(uint64_t{self.config_.ways} * self.sectorsPerLine_);
      for (uint32_t w = 0; w < self.config_.ways; ++w)
        std::copy_n(self.arrivals(ways[w]), self.sectorsPerLine_,
                    &copy->arrival[uint64_t{w} * self.sectorsPerLine_]);
    }
    current = copy;
    return copy->ways.data();
  }
  uint64_t* arrivals(Way& way) {
    return &current->arrival[(&way - current->ways.data()) * self.sectorsPerLine_];
  }
  uint64_t backend(uint64_t now, const MemoryRequest& request) {
    const uint64_t done = self.backend_.estimateAfter(shadow.backend_, now, request);
    shadow.backend_.push_back({now, request});
    return done;
  }
};

uint64_t L2Cache::request(uint64_t now, const MemoryRequest& request) {
  Applied state{*this};
  return serve(state, now, request);
}

uint64_t L2Cache::copyEngineNow() {
  if (copyEngineClock_ == 0) restartClocks();
  return copyEngineClock_;
}

void L2Cache::copyEngineStore(uint64_t lineAddress, uint32_t sectorMask) {
  MemoryRequest store{lineAddress, sectorMask, 0, true};
  checkRequest(store);
  store.bytes = static_cast<uint32_t>(std::popcount(sectorMask)) * config_.sectorBytes;
  const uint32_t slice = sliceOf(lineAddress);
  const uint64_t now = copyEngineNow();
  Applied state{*this};
  const Place home{slices_[slice], partitionOf(slice), setOf(lineAddress), true};
  // Not an SM's lookup nor the fabric's: ncu counts the copy engine's apart.
  copyEngineClock_ = std::max(now + 1, atHome(state, now, store, now, home, Lookups{.bySm = false}));
}

void L2Cache::copyEngineFill(uint64_t lineAddress, uint32_t sectorMask, CopiedData data) {
  checkRequest({lineAddress, sectorMask, 0, false});
  const uint32_t sliceIndex = sliceOf(lineAddress);
  const uint32_t home = partitionOf(sliceIndex);
  const uint64_t now = copyEngineNow();
  copyEngineClock_ = now + 1;
  Applied state{*this};
  Way* set = setOf(lineAddress);
  if (data == CopiedData::Replaced && config_.partitionCopies)
    dropCopies(set, config_.ways, lineAddress, home, sectorMask);
  // Not a lookup of an SM nor of the fabric: no statistics (the launch's
  // restart anyway), and no fetch: the data came with the copy.
  Way* way = findOrAllocate(state, set, lineAddress, home, home, now, 0);
  if (way == nullptr) return;  // every way filling: not on this clock, where every fill has landed
  uint64_t* arrival = state.arrivals(*way);
  const uint32_t added = sectorMask & ~way->sectors;
  for (uint32_t s = 0; s < sectorsPerLine_; ++s)
    if ((added >> s) & 1) arrival[s] = now;
  way->sectors |= sectorMask;
  way->unasked &= ~sectorMask;
  if (data == CopiedData::Replaced) way->dirty &= ~sectorMask;
  rankLookup(*way, *config_.replacement, ++slices_[sliceIndex].useClock);
}

uint64_t L2Cache::requestInWindow(uint64_t now, const MemoryRequest& request) {
  SliceWindow& window = sliceWindows_[sliceOf(request.lineAddress)];
  window.touched = true;
  Applied state{*this, &window};
  return serve(state, now, request);
}

void L2Cache::finishWindow() {
  windowBackend_.clear();
  for (uint32_t s = 0; s < sliceWindows_.size(); ++s) {
    SliceWindow& window = sliceWindows_[s];
    if (!window.touched) continue;
    window.touched = false;
    if (window.backend) {
      for (const TimedRequest& logged : window.backend->requests())
        windowBackend_.push_back({logged, static_cast<uint32_t>(windowBackend_.size())});
      window.backend->clear();
    }
    stats_.add(window.stats);
    // Restarted keeping the partitions' vector: this runs every window.
    std::vector<uint64_t> partitionHits = std::move(window.stats.partitionSectorHits);
    std::fill(partitionHits.begin(), partitionHits.end(), 0);
    window.stats = L2Stats{};
    window.stats.partitionSectorHits = std::move(partitionHits);
    atomicBusyTicks_ += window.atomicBusyTicks;
    window.atomicBusyTicks = 0;
  }
  stats_.atomicUnitBusyCycles = atomicBusyTicks_ / kAtomicTicksPerCycle;
  // By cycle, then slice, each slice's in its order: gathered in (slice,
  // order), so by cycle and then place (std::sort, unlike stable_sort,
  // allocates nothing, and this runs every window).
  std::sort(windowBackend_.begin(), windowBackend_.end(), [](const auto& x, const auto& y) {
    return std::tie(x.first.now, x.second) < std::tie(y.first.now, y.second);
  });
  for (const auto& [logged, place] : windowBackend_) backend_.request(logged.now, logged.request);
}

uint64_t L2Cache::estimateInto(Shadow& shadow, uint64_t now, const MemoryRequest& request) const {
  Shadowed state{*this, shadow};
  return serve(state, now, request);
}

uint64_t L2Cache::estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                                const MemoryRequest& request) const {
  Shadow shadow;
  for (const TimedRequest& earlier : before) estimateInto(shadow, earlier.now, earlier.request);
  return estimateInto(shadow, now, request);
}

// The slice's request coalescer in front of the tag lookup: the sectors of
// a read that a read of the same line looked up at most
// coalesceWindowCycles - 1 cycles ago are merged with it (no lookup, the
// same data time); a write or atomic to the line ends the merging.
template <class State>
uint64_t L2Cache::serve(State& state, uint64_t now, const MemoryRequest& request) {
  const L2Cache& self = state.self;
  self.checkRequest(request);
  const uint64_t window = self.config_.coalesceWindowCycles;
  const uint32_t sliceIndex = self.sliceOf(request.lineAddress);
  Slice& slice = state.slice(sliceIndex);
  if (window == 0) return lookup(state, now, request, sliceIndex, slice);
  const bool read = request.isRead();
  uint32_t merged = 0;
  uint64_t mergedReady = 0;
  for (RecentRead& recent : slice.recent) {
    if (recent.sectors == 0 || recent.line != request.lineAddress) continue;
    if (!read) {
      recent.sectors = 0;  // written: later reads look it up again
      continue;
    }
    if (now >= recent.at + window) continue;
    const uint32_t shared = recent.sectors & request.sectorMask;
    if (shared == 0) continue;
    merged |= shared;
    mergedReady = std::max(mergedReady, recent.readyAt);
  }
  if constexpr (State::kCommit) state.stats().coalescedSectors += std::popcount(merged);
  if (merged == request.sectorMask) return mergedReady;
  MemoryRequest rest = request;
  rest.sectorMask &= ~merged;
  rest.bytes = static_cast<uint32_t>(std::popcount(rest.sectorMask)) * self.config_.sectorBytes;
  const uint64_t bytesPerCycle = self.config_.sliceBytesPerCycle;
  const uint64_t lookedUpAt = std::max(now, (slice.portFreeAtByte + bytesPerCycle - 1) / bytesPerCycle);
  const uint64_t ready = lookup(state, now, rest, sliceIndex, slice);
  if (read) {
    slice.recent[slice.nextRecent] = {rest.lineAddress, rest.sectorMask, lookedUpAt, ready};
    slice.nextRecent = (slice.nextRecent + 1) % kRecentReads;
  }
  return std::max(ready, mergedReady);
}

template <class State>
uint64_t L2Cache::lookup(State& state, uint64_t now, const MemoryRequest& request, uint32_t sliceIndex,
                         Slice& slice) {
  const L2Cache& self = state.self;
  const L2Config& config = self.config_;
  const uint32_t home = self.partitionOf(sliceIndex);
  const uint32_t requester = self.partitionNear(request.sm);
  const bool near = home == requester;
  const uint64_t latency = near ? config.nearLatencyCycles : config.farLatencyCycles;

  const uint32_t sectorCount = static_cast<uint32_t>(std::popcount(request.sectorMask));
  // The port's byte clock, unrounded; the data is ready from the cycle its
  // last byte has passed in. An atomic's sectors go to the atomic unit
  // instead (runAtomicUnit).
  const uint64_t bytesPerCycle = config.sliceBytesPerCycle;
  uint64_t portEnd = now;
  if (!request.atomic) {
    slice.portFreeAtByte =
        std::max(now * bytesPerCycle, slice.portFreeAtByte) + uint64_t{sectorCount} * config.sectorBytes;
    portEnd = (slice.portFreeAtByte + bytesPerCycle - 1) / bytesPerCycle;
  }

  const Place place{slice, home, state.set(request.lineAddress), near};
  if (near || !config.partitionCopies || request.atomic)
    return atHome(state, now, request, portEnd, place, Lookups{.bySm = true, .byFabric = !near}) + latency;
  if (request.isStore()) return storeWithCopy(state, now, request, portEnd, place, requester) + latency;
  return throughCopy(state, now, request, portEnd, place, requester) + latency;
}

template <class State>
void L2Cache::writeBack(State& state, const Way& way, uint64_t now, uint32_t sm) {
  const auto sectors = static_cast<uint32_t>(std::popcount(way.dirty));
  MemoryRequest request{way.line, way.dirty, sectors * state.self.config_.sectorBytes, true};
  request.sm = sm;
  if constexpr (State::kCommit) state.stats().writeBackSectors += sectors;
  state.backend(now, request);
}

template <class State>
void L2Cache::evict(State& state, Way& victim, uint64_t now, uint32_t sm) {
  if (!victim.valid) return;
  if (victim.dirty != 0) {
    writeBack(state, victim, now, sm);
    if constexpr (State::kCommit) ++state.stats().dirtyEvictions;
  }
  if constexpr (State::kCommit) ++state.stats().evictions;
  victim.valid = false;
}

template <class State>
void L2Cache::clean(State& state, Way& way, uint64_t now, uint32_t sm) {
  writeBack(state, way, now, sm);
  if constexpr (State::kCommit) ++state.stats().cleanings;
  way.dirty = 0;
}

uint32_t L2Cache::maxDirtyLines(uint64_t lineAddress) const {
  // Each set its own fraction in [0, 1), so that over the sets the limits
  // average the share of ways rather than round it.
  constexpr uint32_t kSteps = 1024;
  const uint32_t step = spreadIndex(uint64_t{setIndexOf(lineAddress)} * 0x9e3779b97f4a7c15ull, kSteps);
  return static_cast<uint32_t>(config_.dirtyShare * config_.ways + static_cast<double>(step) / kSteps);
}

template <class State>
void L2Cache::makeRoom(State& state, Way* set, const Way* keep, uint64_t now, uint32_t sm) {
  const L2Config& config = state.self.config_;
  if (keep == nullptr) return;
  if (config.dirtyLineWays != 1) {
    while (Way* victim = overfullVictim(set, config.ways, config.dirtyLineWays, state.self.sectorsPerLine_, now,
                                        keep, [&](Way& w) { return state.arrivals(w); }))
      evict(state, *victim, now, sm);
  }
  if (config.dirtyShare >= 1.0) return;
  const uint32_t limit = state.self.maxDirtyLines(keep->line);
  while (Way* oldest = dirtyBeyondLimit(set, config.ways, limit, keep)) clean(state, *oldest, now, sm);
}

template <class State>
L2Cache::Way* L2Cache::findOrAllocate(State& state, Way* set, uint64_t line, uint32_t owner, uint32_t home,
                                      uint64_t now, uint32_t sm) {
  const L2Cache& self = state.self;
  if (Way* way = findIn(set, self.config_.ways, line, owner)) return way;
  // A copy does not take its own line's home.
  const Way* keep = owner == home ? nullptr : findIn(set, self.config_.ways, line, home);
  Way* way = victimWay(
      set, self.config_.ways, self.sectorsPerLine_, now, [&](Way& w) { return state.arrivals(w); }, keep);
  if (way == nullptr) return nullptr;
  evict(state, *way, now, sm);
  *way = Way{.line = line, .valid = true, .owner = static_cast<uint8_t>(owner)};
  std::fill_n(state.arrivals(*way), self.sectorsPerLine_, 0);
  makeRoom(state, set, way, now, sm);
  return way;
}

template <class State>
L2Cache::Found L2Cache::find(State& state, Way* way, const MemoryRequest& request, uint64_t now,
                             uint64_t portEnd) {
  const L2Cache& self = state.self;
  Found found;
  found.dataAt = portEnd;
  found.present = way != nullptr ? way->sectors & request.sectorMask : 0;
  if (found.present != 0) {
    const uint64_t* arrival = state.arrivals(*way);
    for (uint32_t s = 0; s < self.sectorsPerLine_; ++s) {
      if (((found.present >> s) & 1) == 0) continue;
      if (arrival[s] > now) {
        if ((way->unasked >> s) & 1)
          found.unaskedInFlight |= 1u << s;
        else
          ++found.inFlightHits;
      }
      found.dataAt = std::max(found.dataAt, arrival[s]);
    }
  }
  const uint32_t missing = request.sectorMask & ~found.present;
  // A read's missing sectors come in whole fetch blocks (the sectors of
  // them the line lacks).
  if (!request.isStore() && missing != 0)
    found.fetched = way != nullptr ? self.fetchBlocks(missing) & ~way->sectors : missing;
  return found;
}

template <class State>
void L2Cache::countLookup(State& state, Slice& slice, Way* way, const MemoryRequest& request,
                          const Found& found, uint32_t partition, bool near, Lookups lookups) {
  const bool store = request.isStore();
  // Nsight Compute's hits and misses (tests/timing/kernels/h100/*.ncu.csv):
  // a store's sectors are whole, needing no fetch, and count as hits
  // (copy's 58% with the L2 flushed: reads miss, writes hit). A fetch counts
  // every sector it brings as a miss, neighbours included (gather's random
  // reads: 626 thousand misses against 346 thousand lookups that did not
  // hit); a later lookup of a neighbour still in flight counts as neither
  // (histogram_shared: warps reading adjacent sectors at once miss 32 800
  // times for 32 768 sectors), one of a neighbour that has landed as a hit.
  if constexpr (State::kCommit) {
    const auto hits = static_cast<uint32_t>(
        std::popcount(store ? request.sectorMask : found.present & ~found.unaskedInFlight));
    count(state.stats(), request, partition, near, hits, static_cast<uint32_t>(std::popcount(found.fetched)),
          store ? 0 : found.inFlightHits, lookups);
  }
  if (way != nullptr) {
    rankLookup(*way, *state.self.config_.replacement, ++slice.useClock);
    way->unasked = (way->unasked & ~request.sectorMask) | (found.fetched & ~request.sectorMask);
  }
}

template <class State>
uint64_t L2Cache::storeWithCopy(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                                const Place& place, uint32_t partition) {
  const uint64_t writtenAt =
      atHome(state, now, request, portEnd, place, Lookups{.bySm = true, .byFabric = true});
  // After the home's write, which drops every other partition's copy of
  // these sectors, this one's included.
  Way* copy = findOrAllocate(state, place.set, request.lineAddress, partition, place.home, now, request.sm);
  if (copy == nullptr) return writtenAt;
  copy->sectors |= request.sectorMask;
  rankLookup(*copy, *state.self.config_.replacement, ++place.slice.useClock);
  uint64_t* arrival = state.arrivals(*copy);
  for (uint32_t s = 0; s < state.self.sectorsPerLine_; ++s)
    if ((request.sectorMask >> s) & 1) arrival[s] = std::max(arrival[s], writtenAt);
  return writtenAt;
}

template <class State>
uint64_t L2Cache::throughCopy(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                              const Place& place, uint32_t partition) {
  const L2Cache& self = state.self;
  Way* copy = findOrAllocate(state, place.set, request.lineAddress, partition, place.home, now, request.sm);
  const Found found = find(state, copy, request, now, portEnd);
  countLookup(state, place.slice, copy, request, found, partition, false,
              Lookups{.bySm = true, .byFabric = false});
  if (found.fetched == 0) return found.dataAt;
  // The sectors the copy lacks, in whole fetch blocks, from the home over
  // the fabric. Held as in flight meanwhile, so that the home's line cannot
  // take the copy's way.
  uint64_t* arrival = copy != nullptr ? state.arrivals(*copy) : nullptr;
  if (copy != nullptr) {
    copy->sectors |= found.fetched;
    for (uint32_t s = 0; s < self.sectorsPerLine_; ++s)
      if ((found.fetched >> s) & 1) arrival[s] = UINT64_MAX;
  }
  MemoryRequest fromHome = request;
  fromHome.sectorMask = found.fetched;
  fromHome.bytes = static_cast<uint32_t>(std::popcount(found.fetched)) * self.config_.sectorBytes;
  const uint64_t homeDataAt =
      atHome(state, now, fromHome, portEnd, place, Lookups{.bySm = false, .byFabric = true});
  if (copy != nullptr)
    for (uint32_t s = 0; s < self.sectorsPerLine_; ++s)
      if ((found.fetched >> s) & 1) arrival[s] = homeDataAt;
  return std::max(found.dataAt, homeDataAt);
}

void L2Cache::dropCopies(Way* set, uint32_t ways, uint64_t line, uint32_t home, uint32_t sectors) {
  for (uint32_t w = 0; w < ways; ++w) {
    Way& copy = set[w];
    if (!copy.valid || copy.line != line || copy.owner == home) continue;
    copy.sectors &= ~sectors;
    copy.unasked &= ~sectors;
    if (copy.sectors == 0) copy.valid = false;
  }
}

template <class State>
uint64_t L2Cache::atHome(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                         const Place& place, Lookups lookups) {
  // Every change below goes to `state`; only statistics depend on kCommit.
  constexpr bool kCommit = State::kCommit;
  const L2Cache& self = state.self;
  const L2Config& config = self.config_;
  Slice& slice = place.slice;
  const uint32_t partition = place.home;
  const auto sectorCount = static_cast<uint32_t>(std::popcount(request.sectorMask));

  Way* set = place.set;
  Way* way = findOrAllocate(state, set, request.lineAddress, partition, partition, now, request.sm);
  uint64_t* arrival = way != nullptr ? state.arrivals(*way) : nullptr;
  const Found found = find(state, way, request, now, portEnd);
  countLookup(state, slice, way, request, found, partition, place.near, lookups);
  uint64_t dataAt = found.dataAt;
  const uint32_t missing = request.sectorMask & ~found.present;
  const uint32_t fetched = found.fetched;
  const bool store = request.isStore();
  // A store or atomic leaves the other partitions' copies without its
  // sectors (they read them from the home again).
  if (!request.isRead() && config.partitionCopies)
    dropCopies(set, config.ways, request.lineAddress, partition, request.sectorMask);

  // Takes the write port for `sectors` from `from` on: returns the cycle the
  // slots start in and the cycle the last ends in.
  auto writePort = [&](uint64_t from, uint32_t sectors) {
    const uint64_t start = std::max(from * kAtomicTicksPerCycle, slice.writeFreeAtTick);
    slice.writeFreeAtTick =
        start + self.writeTicksPerRequest_ + uint64_t{sectors} * self.writeTicksPerSector_;
    const uint64_t startCycle = start / kAtomicTicksPerCycle;
    if constexpr (kCommit) state.stats().writePortWaitCycles += startCycle > from ? startCycle - from : 0;
    return std::pair{startCycle, (slice.writeFreeAtTick + kAtomicTicksPerCycle - 1) / kAtomicTicksPerCycle};
  };
  if (store) {
    // Write-allocate without fetching: the written sectors are whole.
    // Through the slice's port and its write port together: written once both have passed it.
    const uint64_t writtenAt = std::max(portEnd, writePort(now, sectorCount).second);
    if (way != nullptr) {
      for (uint32_t s = 0; s < self.sectorsPerLine_; ++s)
        if ((request.sectorMask >> s) & 1) arrival[s] = std::max(arrival[s], writtenAt);
      way->sectors |= request.sectorMask;
      way->dirty |= request.sectorMask;
      makeRoom(state, set, way, now, request.sm);
    } else {
      state.backend(now, request);
    }
    return writtenAt;
  }

  if (missing != 0) {
    // The fetch of the fetch blocks holding the missing sectors (the
    // sectors of them the line lacks), once an MSHR is free.
    const auto fetchedCount = static_cast<uint32_t>(std::popcount(fetched));
    MemoryRequest read{request.lineAddress, fetched, fetchedCount * config.sectorBytes, false};
    read.sm = request.sm;
    std::vector<uint64_t>& mshrs = slice.mshrFreeAt;
    const uint64_t slotAt = writePort(now, fetchedCount).first;
    while (!mshrs.empty() && mshrs.front() <= slotAt) {
      std::pop_heap(mshrs.begin(), mshrs.end(), std::greater<>());
      mshrs.pop_back();
    }
    uint64_t sendAt = slotAt;
    if (mshrs.size() >= config.mshrsPerSlice) {
      sendAt = mshrs.front();  // this fetch takes that MSHR over
      std::pop_heap(mshrs.begin(), mshrs.end(), std::greater<>());
      mshrs.pop_back();
      if constexpr (kCommit) state.stats().mshrStallCycles += sendAt - slotAt;
    }
    const uint64_t arrives = state.backend(sendAt, read);
    mshrs.push_back(arrives);
    std::push_heap(mshrs.begin(), mshrs.end(), std::greater<>());
    dataAt = std::max(dataAt, arrives);
    if (way != nullptr) {
      way->sectors |= fetched;
      for (uint32_t s = 0; s < self.sectorsPerLine_; ++s)
        if ((fetched >> s) & 1) arrival[s] = arrives;
    }
  }
  if (!request.atomic) return dataAt;

  uint64_t busyTicks = 0;
  const uint64_t atomicEnd = self.runAtomicUnit(state.withAtomicUpdates(slice), dataAt, request, busyTicks);
  const uint64_t done = (atomicEnd + kAtomicTicksPerCycle - 1) / kAtomicTicksPerCycle;
  if constexpr (kCommit) state.addAtomicBusy(busyTicks);
  if (way != nullptr) {
    // Later readers get the updated words from the cycle the unit's last
    // update ends in (the unit orders later atomics on them itself, in
    // fractions of a cycle: rounding up would hold one word's chain a cycle
    // a request, atomic.one_address_one_lane).
    way->dirty |= request.sectorMask;
    makeRoom(state, set, way, now, request.sm);
    const uint64_t updatedAt = atomicEnd / kAtomicTicksPerCycle;
    for (uint32_t s = 0; s < self.sectorsPerLine_; ++s)
      if ((request.sectorMask >> s) & 1) arrival[s] = updatedAt;
  } else {
    MemoryRequest writeBack = request;  // nowhere to keep the result: written back with the fetch
    writeBack.atomic = false;
    writeBack.write = true;
    state.backend(now, writeBack);
  }
  return done;
}

uint32_t L2Cache::fetchBlocks(uint32_t sectors) const {
  const uint32_t block = sectorsPerFetch_ >= 32 ? ~0u : (1u << sectorsPerFetch_) - 1;
  uint32_t widened = 0;
  for (uint32_t first = 0; first < sectorsPerLine_; first += sectorsPerFetch_)
    if ((sectors >> first) & block) widened |= block << first;
  return widened;
}

void L2Cache::setFetchBytes(uint32_t bytes) {
  L2Config changed = config_;
  changed.fetchBytes = bytes;
  checkL2Config(changed);
  config_.fetchBytes = bytes;
  sectorsPerFetch_ = bytes / config_.sectorBytes;
}

}  // namespace ptxsim::memory
