// The configurations an L2Cache can be built with (checkL2Config): apart
// from the cache, so that presets are checked without building one.
#include <cmath>
#include <stdexcept>
#include <string>

#include "ptxsim/memory/l2_cache.h"

namespace ptxsim::memory {

namespace {

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("L2 cache: " + why); }

}  // namespace

void checkL2Config(const L2Config& config) {
  if (config.sectorBytes == 0 || config.lineBytes % config.sectorBytes != 0)
    fail("the line must be whole sectors");
  const uint32_t sectorsPerLine = config.lineBytes / config.sectorBytes;
  if (sectorsPerLine == 0 || sectorsPerLine > 32) fail("a line must hold 1 to 32 sectors");
  if (config.ways == 0 || config.capacityBytes == 0 ||
      config.capacityBytes % (uint64_t{config.lineBytes} * config.ways) != 0)
    fail("the capacity must be a positive whole number of sets of `ways` lines");
  if (config.capacityBytes / (uint64_t{config.lineBytes} * config.ways) > UINT32_MAX)
    fail("more than 2^32 sets");
  if (config.slices == 0) fail("at least one slice is needed");
  if (config.partitions == 0) fail("at least one partition is needed");
  if (config.partitionSmRun == 0) fail("a run of SMs near one partition must hold at least one SM");
  if (config.partitions > 256) fail("at most 256 partitions (a line's copies are tagged with a byte)");
  if (config.slices % config.partitions != 0) fail("the slices must split evenly between the partitions");
  if (config.capacityBytes / (uint64_t{config.lineBytes} * config.ways) < config.slices)
    fail("every slice needs at least one set");
  if (config.sliceBytesPerCycle == 0) fail("a slice's port must move at least one byte a cycle");
  if (config.mshrsPerSlice == 0) fail("a slice needs at least one MSHR");
  if (config.replacement == nullptr) fail("no replacement policy");
  if (!std::has_single_bit(config.fetchBytes) || config.fetchBytes < config.sectorBytes ||
      config.fetchBytes > config.lineBytes)
    fail("the fetch granularity must be a power of two from a sector to a line");
  if (!std::isfinite(config.atomicCyclesPerOp) || config.atomicCyclesPerOp <= 0)
    fail("the atomic unit must take a positive, finite number of cycles per operation");
  if (!std::isfinite(config.atomicCyclesPerSector) || config.atomicCyclesPerSector <= 0)
    fail("the atomic unit must take a positive, finite number of cycles per sector");
  if (!std::isfinite(config.atomicHazardCycles) || config.atomicHazardCycles < 0)
    fail("the atomic unit's hazard must be a finite number of cycles, 0 or more");
  if ((config.atomicHazardCycles + config.atomicCyclesPerOp) / config.atomicCyclesPerSector > 4096)
    fail(
        "the atomic unit would remember more than 4096 sectors: its hazard and operation are too long for "
        "its sector");
  if (!std::isfinite(config.writeSectorsPerCycle) || config.writeSectorsPerCycle <= 0)
    fail("the write port must pass a positive, finite number of sectors a cycle");
  if (config.dirtyLineWays == 0 || config.dirtyLineWays > config.ways)
    fail("a dirty line must take from 1 way to all the ways of its set");
  if (!(config.dirtyShare >= 0 && config.dirtyShare <= 1))
    fail("the share of a set's ways that may hold dirty lines must be from 0 to 1");
  if (!std::isfinite(config.writeRequestCycles) || config.writeRequestCycles < 0)
    fail("the write port's cycles per request must be finite and not negative");
}

}  // namespace ptxsim::memory
