#pragma once

// The small L2 the L2 tests hold against hand-derived cycles: 2
// slices, one per partition (slice 0 near SMs 0, 2, ..., slice 1 near SMs
// 1, 3, ...), 2 sets of 2 ways of 128-byte lines, near 100 and far 130
// cycles, a 32-byte port a cycle per slice; atomic units that start a
// sector every 0.5 cycles, pass one word's result on to its next operation
// 2 cycles later and to other words of the sector 10 cycles after that; a
// recording back end answers 50 cycles after a request is sent. With 2
// slices or sets, line l goes to (l % 2 + parity(l / 2)) % 2: lines 0, 3, 5,
// 6 to slice (and set) 0, lines 1, 2, 4, 7 to 1.

#include <bit>
#include <cstdint>

#include "ptxsim/memory/l2_cache.h"

namespace ptxsim::memory::test {

inline L2Config small() {
  L2Config config;
  config.capacityBytes = 2 * 2 * 128;
  config.ways = 2;
  config.slices = 2;
  config.partitions = 2;
  config.nearLatencyCycles = 100;
  config.farLatencyCycles = 130;
  config.sliceBytesPerCycle = 32;
  config.mshrsPerSlice = 4;
  config.atomicCyclesPerOp = 2;
  config.atomicCyclesPerSector = 0.5;
  config.atomicHazardCycles = 10;
  config.coalesceWindowCycles = 0;  // the request coalescer has its own test
  config.fetchBytes = 32;           // the sectors asked for: fetch blocks have their own test
  // The write port as fast as the slice's port (a sector a cycle): it binds
  // only in its own tests.
  config.writeRequestCycles = 0;
  config.writeSectorsPerCycle = 1;
  config.dirtyLineWays = 1;         // a dirty line takes a way, as a clean one (their own test)
  config.dirtyShare = 1;            // no limit on dirty lines (their own test)
  config.partitionCopies = false;  // their own test
  config.partitionSmRun = 1;
  return config;
}

inline constexpr uint64_t kLine0 = 0x000, kLine1 = 0x080, kLine3 = 0x180, kLine5 = 0x280;

inline MemoryRequest read(uint64_t line, uint32_t mask, uint32_t sm = 0) {
  MemoryRequest r{line, mask, 32u * static_cast<uint32_t>(std::popcount(mask)), false};
  r.sm = sm;
  return r;
}
inline MemoryRequest write(uint64_t line, uint32_t mask, uint32_t sm = 0) {
  MemoryRequest r = read(line, mask, sm);
  r.write = true;
  return r;
}
inline MemoryRequest atomic(uint64_t line, uint32_t mask, uint32_t opsPerWord, uint32_t sm = 0) {
  MemoryRequest r = read(line, mask, sm);
  r.atomic = true;
  r.opsPerWord = opsPerWord;
  return r;
}
// An atomic on the line's 4-byte words `words` (bit w: word w; 8 words a
// sector), in the sectors that hold them.
inline MemoryRequest atomicOn(uint64_t line, uint32_t words, uint32_t opsPerWord, uint32_t sm = 0) {
  uint32_t mask = 0;
  for (uint32_t sector = 0; sector < 4; ++sector)
    if (((words >> (8 * sector)) & 0xffu) != 0) mask |= 1u << sector;
  MemoryRequest r = atomic(line, mask, opsPerWord, sm);
  r.atomicWords = words;
  return r;
}

}  // namespace ptxsim::memory::test
