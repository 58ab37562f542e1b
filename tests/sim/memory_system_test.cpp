// The memory beyond the SMs across launches: what the copy engine's
// memsets leave in the L2 for the next launch, against hand-derived
// lines and sectors (H100 defaults: 128-byte lines of 32-byte sectors).
#include "../../sim/src/timing/memory_system.h"

#include <gtest/gtest.h>

namespace ptxsim::sim::timing {
namespace {

memory::MemoryRequest readOf(uint64_t line, uint32_t sectorMask) {
  return {line, sectorMask, 32u * static_cast<uint32_t>(__builtin_popcount(sectorMask)), false};
}

// Whether a read of `sectorMask` of `line`, from an SM near the line's
// home partition, hits in every sector (a far SM would look up its own
// partition's copy).
bool hits(memory::L2Cache& l2, uint64_t line, uint32_t sectorMask) {
  const uint64_t before = l2.stats().sectorHits;
  memory::MemoryRequest request = readOf(line, sectorMask);
  request.sm = l2.partitionOf(l2.sliceOf(line)) * l2.config().partitionSmRun;
  l2.request(0, request);
  return l2.stats().sectorHits - before == static_cast<uint64_t>(__builtin_popcount(sectorMask));
}

// Line A whole, then one byte of line B's sector 2, then 255 bytes over
// lines C and D, with 256 bytes kept: A is dropped (the oldest), B and
// C-D are the 256 most recent.
void writeThree(MemorySystem& memory) {
  memory.copyEngineWrote(0x10000, 128, 256);
  memory.copyEngineWrote(0x20041, 1, 256);
  memory.copyEngineWrote(0x30000, 255, 256);
}

TEST(MemorySystem, TheNextLaunchFindsTheMostRecentMemsetSectorsInTheL2) {
  const TimingConfig timing;
  MemorySystem memory;
  writeThree(memory);
  memory::L2Cache& l2 = memory.forLaunch(timing, false, 0);
  EXPECT_EQ(l2.stats().writeSectors, 0u);  // the memsets' stores are not the launch's
  EXPECT_TRUE(hits(l2, 0x20000, 0x4));
  EXPECT_TRUE(hits(l2, 0x30000, 0xf));
  EXPECT_TRUE(hits(l2, 0x30080, 0xf));  // its last byte unwritten: whole sectors
  EXPECT_FALSE(hits(l2, 0x10000, 0x1));  // older than the 256 bytes kept
  EXPECT_FALSE(hits(l2, 0x20000, 0x2));  // the sector beside the byte written
  // Written once: the launch after finds only what it left.
  memory::L2Cache& next = memory.forLaunch(timing, true, 0);
  EXPECT_FALSE(hits(next, 0x30000, 0x1));
}

TEST(MemorySystem, AFlushedLaunchFindsNoneOfTheMemsetsBeforeIt) {
  const TimingConfig timing;
  MemorySystem memory;
  memory.forLaunch(timing, false, 0);  // an L2 to flush
  writeThree(memory);
  memory::L2Cache& l2 = memory.forLaunch(timing, true, 0);
  EXPECT_FALSE(hits(l2, 0x20000, 0x4));
  EXPECT_FALSE(hits(l2, 0x30000, 0x1));
}

}  // namespace
}  // namespace ptxsim::sim::timing
