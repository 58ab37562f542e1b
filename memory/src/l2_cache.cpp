#include "ptxsim/memory/l2_cache.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "ptxsim/memory/address_hash.h"
#include "victim_way.h"

namespace ptxsim::memory {

namespace {

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("L2 cache: " + why); }

}  // namespace

double L2Stats::sectorHitRatePct() const {
  const uint64_t sectors = sectorHits + sectorMisses;
  return sectors == 0 ? 0.0 : 100.0 * static_cast<double>(sectorHits) / static_cast<double>(sectors);
}

void checkL2Config(const L2Config& config) {
  if (config.sectorBytes == 0 || config.lineBytes % config.sectorBytes != 0)
    fail("the line must be whole sectors");
  const uint32_t sectorsPerLine = config.lineBytes / config.sectorBytes;
  if (sectorsPerLine == 0 || sectorsPerLine > 32) fail("a line must hold 1 to 32 sectors");
  if (config.ways == 0 || config.capacityBytes == 0 ||
      config.capacityBytes % (uint64_t{config.lineBytes} * config.ways) != 0)
    fail("the capacity must be a positive whole number of sets of `ways` lines");
  if (config.capacityBytes / (uint64_t{config.lineBytes} * config.ways) > UINT32_MAX) fail("more than 2^32 sets");
  if (config.slices == 0) fail("at least one slice is needed");
  if (config.partitions == 0) fail("at least one partition is needed");
  if (config.slices % config.partitions != 0) fail("the slices must split evenly between the partitions");
  if (config.sliceBytesPerCycle == 0) fail("a slice's port must move at least one byte a cycle");
  if (config.mshrsPerSlice == 0) fail("a slice needs at least one MSHR");
  if (!std::isfinite(config.atomicCyclesPerOp) || config.atomicCyclesPerOp <= 0)
    fail("the atomic unit must take a positive, finite number of cycles per operation");
}

L2Cache::L2Cache(const L2Config& config, MemoryBackend& backend) : config_(config), backend_(backend) {
  checkL2Config(config);
  sectorsPerLine_ = config.lineBytes / config.sectorBytes;
  const uint64_t sets = config.capacityBytes / (uint64_t{config.lineBytes} * config.ways);
  atomicTicksPerRound_ = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::llround(config.atomicCyclesPerOp * kAtomicTicksPerCycle)));
  sets_ = static_cast<uint32_t>(sets);
  ways_.resize(sets * config.ways);
  arrival_.resize(ways_.size() * sectorsPerLine_);
  slices_.resize(config.slices);
  stats_.partitionSectorHits.assign(config.partitions, 0);
}

uint32_t L2Cache::sliceOf(uint64_t lineAddress) const {
  return spreadIndex(lineAddress / config_.lineBytes, config_.slices);
}

L2Cache::Way* L2Cache::find(uint64_t line) {
  Way* set = &ways_[uint64_t{spreadIndex(line / config_.lineBytes, sets_)} * config_.ways];
  for (uint32_t w = 0; w < config_.ways; ++w)
    if (set[w].valid && set[w].line == line) return &set[w];
  return nullptr;
}

L2Cache::Way* L2Cache::allocate(uint64_t line, uint64_t now, uint32_t sm) {
  Way* set = &ways_[uint64_t{spreadIndex(line / config_.lineBytes, sets_)} * config_.ways];
  Way* victim = victimWay(set, config_.ways, sectorsPerLine_, now, [&](Way& way) { return arrivals(way); });
  if (victim == nullptr) return nullptr;
  if (victim->valid) {
    ++stats_.evictions;
    if (victim->dirty != 0) {
      const uint32_t sectors = static_cast<uint32_t>(std::popcount(victim->dirty));
      ++stats_.dirtyEvictions;
      stats_.writeBackSectors += sectors;
      MemoryRequest writeBack{victim->line, victim->dirty, sectors * config_.sectorBytes, true};
      writeBack.sm = sm;
      backend_.request(now, writeBack);
    }
  }
  *victim = Way{line, true, 0, 0, 0};
  std::fill_n(arrivals(*victim), sectorsPerLine_, 0);
  return victim;
}

uint64_t* L2Cache::arrivals(Way& way) {
  uint64_t* arrival = &arrival_[(&way - ways_.data()) * sectorsPerLine_];
  if (way.launch != launch_) {
    std::fill_n(arrival, sectorsPerLine_, 0);
    way.launch = launch_;
  }
  return arrival;
}

uint64_t L2Cache::fetch(Slice& slice, uint64_t now, uint64_t line, uint32_t sectors, uint32_t sm) {
  while (!slice.mshrFreeAt.empty() && slice.mshrFreeAt.top() <= now) slice.mshrFreeAt.pop();
  uint64_t sendAt = now;
  if (slice.mshrFreeAt.size() >= config_.mshrsPerSlice) {
    sendAt = slice.mshrFreeAt.top();  // this fetch takes that MSHR over
    slice.mshrFreeAt.pop();
    stats_.mshrStallCycles += sendAt - now;
  }
  MemoryRequest read{line, sectors, static_cast<uint32_t>(std::popcount(sectors)) * config_.sectorBytes,
                     false};
  read.sm = sm;
  const uint64_t arrives = backend_.request(sendAt, read);
  slice.mshrFreeAt.push(arrives);
  return arrives;
}

uint64_t L2Cache::performAtomic(Slice& slice, uint64_t dataAt, const MemoryRequest& request) {
  const uint64_t rounds =
      uint64_t{static_cast<uint32_t>(std::popcount(request.sectorMask))} * request.opsPerWord;
  const uint64_t start = std::max(dataAt * kAtomicTicksPerCycle, slice.atomicFreeAtTick);
  slice.atomicFreeAtTick = start + rounds * atomicTicksPerRound_;
  atomicBusyTicks_ += rounds * atomicTicksPerRound_;
  stats_.atomicUnitBusyCycles = atomicBusyTicks_ / kAtomicTicksPerCycle;
  return (slice.atomicFreeAtTick + kAtomicTicksPerCycle - 1) / kAtomicTicksPerCycle;
}

void L2Cache::count(const MemoryRequest& request, uint32_t partition, bool near, uint32_t hits,
                    uint32_t inFlightHits) {
  const uint32_t sectors = static_cast<uint32_t>(std::popcount(request.sectorMask));
  if (request.atomic) {
    ++stats_.atomicRequests;
    stats_.atomicSectors += sectors;
  } else if (request.write) {
    ++stats_.writeRequests;
    stats_.writeSectors += sectors;
  } else {
    ++stats_.readRequests;
    stats_.readSectors += sectors;
  }
  stats_.sectorHits += hits;
  stats_.sectorMisses += sectors - hits;
  stats_.inFlightSectorHits += inFlightHits;
  stats_.partitionSectorHits[partition] += hits;
  ++(near ? stats_.nearRequests : stats_.farRequests);
}

void L2Cache::startLaunch() {
  ++launch_;
  for (Slice& slice : slices_) slice = Slice{};
  atomicBusyTicks_ = 0;
  stats_ = {};
  stats_.partitionSectorHits.assign(config_.partitions, 0);
}

uint64_t L2Cache::request(uint64_t now, const MemoryRequest& request) {
  if (request.lineAddress % config_.lineBytes != 0)
    fail("request at " + std::to_string(request.lineAddress) + " is not aligned to a " +
         std::to_string(config_.lineBytes) + "-byte line");
  if (request.sectorMask == 0 || (sectorsPerLine_ < 32 && (request.sectorMask >> sectorsPerLine_) != 0))
    fail("sector mask " + std::to_string(request.sectorMask) + " names no sector or one beyond the line's " +
         std::to_string(sectorsPerLine_));
  if (request.atomic && request.opsPerWord == 0) fail("an atomic must make at least one operation per word");

  const uint32_t sliceIndex = sliceOf(request.lineAddress);
  Slice& slice = slices_[sliceIndex];
  const uint32_t partition = partitionOf(sliceIndex);
  const bool near = partition == request.sm % config_.partitions;
  const uint64_t latency = near ? config_.nearLatencyCycles : config_.farLatencyCycles;

  const uint32_t sectorCount = static_cast<uint32_t>(std::popcount(request.sectorMask));
  const uint64_t portStart = std::max(now, slice.portFreeAt);
  slice.portFreeAt =
      portStart + (uint64_t{sectorCount} * config_.sectorBytes + config_.sliceBytesPerCycle - 1) /
                      config_.sliceBytesPerCycle;
  const uint64_t portEnd = slice.portFreeAt;

  Way* way = find(request.lineAddress);
  if (way == nullptr) way = allocate(request.lineAddress, now, request.sm);
  uint64_t* arrival = way != nullptr ? arrivals(*way) : nullptr;
  const uint32_t present = way != nullptr ? way->sectors & request.sectorMask : 0;
  uint64_t dataAt = portEnd;
  uint32_t inFlightHits = 0;
  for (uint32_t s = 0; s < sectorsPerLine_; ++s) {
    if (((present >> s) & 1) == 0) continue;
    if (arrival[s] > now) ++inFlightHits;
    dataAt = std::max(dataAt, arrival[s]);
  }
  const bool store = request.write && !request.atomic;
  // A store's sectors are whole: it needs no fetch, and Nsight Compute
  // counts its lookups as hits (copy's 58% on the H100 with the L2 flushed:
  // reads miss, writes hit; tests/timing/kernels/h100/streaming.ncu.csv).
  count(request, partition, near, store ? sectorCount : static_cast<uint32_t>(std::popcount(present)),
        store ? 0 : inFlightHits);
  if (way != nullptr) way->lastUse = ++useClock_;

  const uint32_t missing = request.sectorMask & ~present;
  if (store) {
    // Write-allocate without fetching: the written sectors are whole.
    if (way != nullptr) {
      for (uint32_t s = 0; s < sectorsPerLine_; ++s)
        if ((missing >> s) & 1) arrival[s] = portEnd;
      way->sectors |= request.sectorMask;
      way->dirty |= request.sectorMask;
    } else {
      backend_.request(now, request);
    }
    return portEnd + latency;
  }

  if (missing != 0) {
    const uint64_t arrives = fetch(slice, now, request.lineAddress, missing, request.sm);
    dataAt = std::max(dataAt, arrives);
    if (way != nullptr) {
      way->sectors |= missing;
      for (uint32_t s = 0; s < sectorsPerLine_; ++s)
        if ((missing >> s) & 1) arrival[s] = arrives;
    }
  }
  if (!request.atomic) return dataAt + latency;

  const uint64_t done = performAtomic(slice, dataAt, request);
  if (way != nullptr) {
    // Later readers get the updated words, from the cycle the unit's last
    // round ends in: the unit's fractional rounds already order the next
    // atomic on these words, which rounding up would hold a cycle per
    // request (one lane a warp to one address: 1.45 cycles a request on the
    // H100, atomic.one_address_one_lane).
    way->dirty |= request.sectorMask;
    const uint64_t updatedAt = slice.atomicFreeAtTick / kAtomicTicksPerCycle;
    for (uint32_t s = 0; s < sectorsPerLine_; ++s)
      if ((request.sectorMask >> s) & 1) arrival[s] = updatedAt;
  } else {
    MemoryRequest writeBack = request;  // nowhere to keep the result: written back with the fetch
    writeBack.atomic = false;
    writeBack.write = true;
    backend_.request(now, writeBack);
  }
  return done + latency;
}

}  // namespace ptxsim::memory
