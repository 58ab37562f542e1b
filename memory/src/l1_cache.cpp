#include "ptxsim/memory/l1_cache.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "victim_way.h"

namespace ptxsim::memory {

double L1Stats::sectorHitRatePct() const {
  uint64_t sectors = loadSectors + storeSectors;
  uint64_t hits = loadSectorHits + storeSectorHits;
  for (const L1TrafficCount* other : {&ldgsts, &texture, &surfaceLoad, &surfaceStore}) {
    sectors += other->sectors;
    hits += other->sectorHits;
  }
  return sectors == 0 ? 0.0 : 100.0 * static_cast<double>(hits) / static_cast<double>(sectors);
}

L1Cache::L1Cache(const L1Config& config) : L1Cache(config, Lines{}) {}

L1Cache::L1Cache(const L1Config& config, Lines lines) : config_(config), lines_(std::move(lines)) {
  auto fail = [](const char* why) { throw std::invalid_argument(std::string("L1 cache: ") + why); };
  if (config.sectorBytes == 0 || config.lineBytes % config.sectorBytes != 0)
    fail("the line must be whole sectors");
  sectorsPerLine_ = config.lineBytes / config.sectorBytes;
  if (sectorsPerLine_ == 0 || sectorsPerLine_ > 32) fail("a line must hold 1 to 32 sectors");
  if (config.ways == 0 || config.capacityBytes % (uint64_t{config.lineBytes} * config.ways) != 0)
    fail("the capacity must be a whole number of sets of `ways` lines");
  if (config.mshrs == 0) fail("at least one MSHR is needed");
  if (config.sectorsPerCycle == 0) fail("the data stage must take at least one sector a cycle");
  if (config.replacement == nullptr) fail("no replacement policy");
  sets_ = config.capacityBytes / (config.lineBytes * config.ways);
  // Every set stale: whatever the storage held, and however it is laid
  // out now, is emptied before it is read.
  ++lines_.epoch;
  lines_.ways.resize(uint64_t{sets_} * config.ways);
  const size_t sectors = lines_.ways.size() * sectorsPerLine_;
  lines_.arrival.resize(sectors);
  lines_.storeHitsFrom.resize(sectors);
  lines_.fillTicket.resize(sectors);
  lines_.setEpoch.resize(sets_);
}

void L1Cache::startOver(const L1Config& config) {
  Lines lines = std::move(lines_);
  *this = L1Cache(config, std::move(lines));
}

L1Cache::Way* L1Cache::setOf(uint64_t line) {
  const uint64_t set = line / config_.lineBytes % sets_;
  Way* ways = &lines_.ways[set * config_.ways];
  if (lines_.setEpoch[set] != lines_.epoch) {
    lines_.setEpoch[set] = lines_.epoch;
    std::fill_n(ways, config_.ways, Way{});
    const uint64_t first = set * config_.ways * sectorsPerLine_;
    const uint64_t count = uint64_t{config_.ways} * sectorsPerLine_;
    std::fill_n(&lines_.arrival[first], count, 0);
    std::fill_n(&lines_.storeHitsFrom[first], count, 0);
    std::fill_n(&lines_.fillTicket[first], count, MemoryBackend::kFinalAnswer);
  }
  return ways;
}

uint64_t L1Cache::reserveDataStage(uint64_t now, const CoalescedAccess& access) {
  uint64_t sectors = 0;
  for (const CoalescedLine& line : access.lines) sectors += std::popcount(line.sectorMask);
  const uint64_t first = std::max(now * config_.sectorsPerCycle, nextDataSlot_);
  nextDataSlot_ = first + sectors;
  return first;
}

L1Cache::Way* L1Cache::find(uint64_t line) {
  if (sets_ == 0) return nullptr;
  Way* set = setOf(line);
  for (uint32_t w = 0; w < config_.ways; ++w)
    if (set[w].valid && set[w].line == line) return &set[w];
  return nullptr;
}

L1Cache::Way* L1Cache::allocate(uint64_t line, uint64_t now) {
  if (sets_ == 0) return nullptr;
  Way* set = setOf(line);
  Way* victim =
      victimWay(set, config_.ways, sectorsPerLine_, now, [&](const Way& way) { return arrivals(way); });
  if (victim != nullptr) {
    *victim = Way{line, true, 0, 0};
    std::fill_n(arrivals(*victim), sectorsPerLine_, 0);
    std::fill_n(storeHitsFrom(*victim), sectorsPerLine_, 0);
    std::fill_n(fillTickets(*victim), sectorsPerLine_, MemoryBackend::kFinalAnswer);
  }
  return victim;
}

uint64_t* L1Cache::arrivals(const Way& way) {
  return &lines_.arrival[(&way - lines_.ways.data()) * sectorsPerLine_];
}
uint64_t* L1Cache::storeHitsFrom(const Way& way) {
  return &lines_.storeHitsFrom[(&way - lines_.ways.data()) * sectorsPerLine_];
}
uint64_t* L1Cache::fillTickets(const Way& way) {
  return &lines_.fillTicket[(&way - lines_.ways.data()) * sectorsPerLine_];
}

uint64_t L1Cache::acquireMshr(uint64_t at, uint64_t& stall) {
  while (!mshrFreeAt_.empty() && mshrFreeAt_.top() <= at) mshrFreeAt_.pop();
  if (mshrFreeAt_.size() < config_.mshrs) return at;
  const uint64_t freeAt = mshrFreeAt_.top();
  mshrFreeAt_.pop();  // the fetch that takes it over is pushed by the caller
  stall = std::max(stall, freeAt - at);
  return freeAt;
}

namespace {

void count(L1TrafficCount& counts, const L1Access& access) {
  ++counts.requests;
  counts.sectors += access.sectorHits + access.sectorMisses;
  counts.sectorHits += access.sectorHits;
}

}  // namespace

L1Access L1Cache::load(uint64_t now, const CoalescedAccess& access, MemoryBackend& backend, L1Policy policy,
                       L1Traffic traffic) {
  L1Access out;
  out.readyAt = now;
  out.lines = static_cast<uint32_t>(access.lines.size());
  lastTickets_.clear();
  uint64_t slot = reserveDataStage(now, access);
  for (const CoalescedLine& line : access.lines) {
    slot += std::popcount(line.sectorMask);
    const uint64_t at = (slot - 1) / config_.sectorsPerCycle;  // when its last sector passes the data stage
    Way* way = nullptr;
    if (policy == L1Policy::kAllocate) {
      way = find(line.address);
      if (way == nullptr) way = allocate(line.address, at);
    }
    uint64_t* arrival = way != nullptr ? arrivals(*way) : nullptr;
    const uint32_t hits = way != nullptr ? way->sectors & line.sectorMask : 0;
    for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
      if (((hits >> s) & 1) == 0) continue;
      if (arrival[s] > at) {
        ++stats_.inFlightSectorHits;
        const uint64_t ticket = fillTickets(*way)[s];
        // One ticket per fetch: a line's sectors in flight share theirs.
        if (ticket != MemoryBackend::kFinalAnswer && (lastTickets_.empty() || lastTickets_.back() != ticket))
          lastTickets_.push_back(ticket);
      }
      out.readyAt = std::max(out.readyAt, std::max(at + config_.hitLatencyCycles, arrival[s]));
    }
    const uint32_t misses = line.sectorMask & ~hits;
    if (misses != 0) {
      const uint64_t sendAt = acquireMshr(at, out.mshrStallCycles);
      const uint32_t bytes = std::popcount(misses) * config_.sectorBytes;
      const uint64_t arrives = backend.request(sendAt, {line.address, misses, bytes, false});
      const uint64_t ticket = backend.lastTicket();
      if (ticket != MemoryBackend::kFinalAnswer) lastTickets_.push_back(ticket);
      mshrFreeAt_.push(arrives);
      out.readyAt = std::max(out.readyAt, arrives);
      if (way != nullptr) {
        way->sectors |= misses;
        uint64_t* storeHit = storeHitsFrom(*way);
        uint64_t* fillTicket = fillTickets(*way);
        for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
          if (((misses >> s) & 1) == 0) continue;
          arrival[s] = arrives;
          storeHit[s] = 0;
          fillTicket[s] = ticket;
        }
        if (ticket != MemoryBackend::kFinalAnswer)
          pendingFills_.push_back(
              {ticket, static_cast<uint64_t>(way - lines_.ways.data()), line.address, misses});
      }
    }
    if (way != nullptr) rankLookup(*way, *config_.replacement, ++useClock_);
    out.sectorHits += std::popcount(hits);
    out.sectorMisses += std::popcount(misses);
  }
  switch (traffic) {
    case L1Traffic::kGlobal:
      ++stats_.loadRequests;
      stats_.loadSectors += out.sectorHits + out.sectorMisses;
      stats_.loadSectorHits += out.sectorHits;
      break;
    case L1Traffic::kLdgsts: count(stats_.ldgsts, out); break;
    case L1Traffic::kTexture: count(stats_.texture, out); break;
    case L1Traffic::kSurface: count(stats_.surfaceLoad, out); break;
  }
  stats_.mshrStallCycles += out.mshrStallCycles;
  return out;
}

L1Access L1Cache::store(uint64_t now, const CoalescedAccess& access, MemoryBackend& backend,
                        L1Traffic traffic, L1Policy policy) {
  const bool allocates = config_.storeAllocates && policy == L1Policy::kAllocate;
  L1Access out;
  out.readyAt = now;
  out.lines = static_cast<uint32_t>(access.lines.size());
  lastTickets_.clear();
  uint64_t slot = reserveDataStage(now, access);
  for (const CoalescedLine& line : access.lines) {
    slot += std::popcount(line.sectorMask);
    const uint64_t at = (slot - 1) / config_.sectorsPerCycle;
    Way* way = find(line.address);
    if (way == nullptr && allocates) way = allocate(line.address, at);
    const uint32_t present = way != nullptr ? way->sectors & line.sectorMask : 0;
    uint32_t hits = present;
    if (present != 0) {
      // The H100 counts a store to a sector another store wrote fewer than
      // ~100-200 cycles before as a miss (tests/timing/kernels/probe/l1_store_probe.cu).
      const uint64_t* storeHit = storeHitsFrom(*way);
      for (uint32_t s = 0; s < sectorsPerLine_; ++s)
        if (((present >> s) & 1) && storeHit[s] > at) hits &= ~(1u << s);
    }
    if (way != nullptr && allocates) {
      // The written sectors are valid from now on (whole sectors: the
      // model keeps no byte masks).
      uint64_t* arrival = arrivals(*way);
      uint64_t* storeHit = storeHitsFrom(*way);
      for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
        if (((line.sectorMask & ~present) >> s) & 1) {
          arrival[s] = at;
          storeHit[s] = at + config_.storeFillCycles;
        }
      }
      way->sectors |= line.sectorMask;
      rankLookup(*way, *config_.replacement, ++useClock_);
    }
    const uint32_t bytes = std::popcount(line.sectorMask) * config_.sectorBytes;
    out.readyAt = std::max(out.readyAt, backend.request(at, {line.address, line.sectorMask, bytes, true}));
    const uint64_t ticket = backend.lastTicket();
    if (ticket != MemoryBackend::kFinalAnswer) lastTickets_.push_back(ticket);
    out.sectorHits += std::popcount(hits);
    out.sectorMisses += std::popcount(line.sectorMask & ~hits);
  }
  if (traffic == L1Traffic::kSurface) {
    count(stats_.surfaceStore, out);
    return out;
  }
  ++stats_.storeRequests;
  stats_.storeSectors += out.sectorHits + out.sectorMisses;
  stats_.storeSectorHits += out.sectorHits;
  return out;
}

void L1Cache::countRepeatedTextureLookups(uint64_t sectors) {
  stats_.texture.sectors += sectors;
  stats_.texture.sectorHits += sectors;
}

void L1Cache::invalidate() {
  ++lines_.epoch;  // every set emptied when next looked up
  pendingFills_.clear();
}

void L1Cache::reviseFill(uint64_t ticket, uint64_t answer) {
  auto fill = std::lower_bound(pendingFills_.begin(), pendingFills_.end(), ticket,
                               [](const PendingFill& f, uint64_t t) { return f.ticket < t; });
  if (fill == pendingFills_.end() || fill->ticket != ticket) return;  // a bypassing fetch: nothing allocated
  const Way& way = lines_.ways[fill->way];
  if (!way.valid || way.line != fill->line) return;  // evicted since
  uint64_t* arrival = arrivals(way);
  const uint64_t* fillTicket = fillTickets(way);
  for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
    if (((fill->sectors >> s) & 1) && fillTicket[s] == ticket) arrival[s] = std::max(arrival[s], answer);
  }
}

void L1Cache::settleFills() {
  for (const PendingFill& fill : pendingFills_) {
    uint64_t* fillTicket = fillTickets(lines_.ways[fill.way]);
    for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
      if (fillTicket[s] == fill.ticket) fillTicket[s] = MemoryBackend::kFinalAnswer;
    }
  }
  pendingFills_.clear();
}

}  // namespace ptxsim::memory
