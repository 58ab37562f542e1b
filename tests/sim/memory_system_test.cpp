// The memory beyond the SMs across launches: what the copy engines' fills
// and copies leave in the L2 for the next launch, against hand-derived
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
using Kind = CopyEngineRange::Kind;
constexpr CopyEngineLog::Limits kKeep256{.keptBytes = 256, .hostResidentBytes = 256};

void writeThree(MemorySystem& memory) {
  memory.copyEngineMoved({Kind::Fill, 0x10000, 128}, kKeep256);
  memory.copyEngineMoved({Kind::Fill, 0x20041, 1}, kKeep256);
  memory.copyEngineMoved({Kind::Fill, 0x30000, 255}, kKeep256);
}

TEST(MemorySystem, TheNextLaunchFindsTheMostRecentMemsetSectorsInTheL2) {
  const TimingConfig timing;
  MemorySystem memory;
  writeThree(memory);
  memory::L2Cache& l2 = memory.forLaunch(timing, false, 0);
  EXPECT_EQ(l2.stats().writeSectors, 0u);  // the memsets' stores are not the launch's
  EXPECT_TRUE(hits(l2, 0x20000, 0x4));
  EXPECT_TRUE(hits(l2, 0x30000, 0xf));
  EXPECT_TRUE(hits(l2, 0x30080, 0xf));   // its last byte unwritten: whole sectors
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

// Host copies keep their most recent hostResidentBytes together, oldest
// dropped first, whatever else was moved between them; device copies and
// fills keep all of theirs (within keptBytes).
TEST(MemorySystem, HostCopiesLeaveOnlyTheirMostRecentBytesAndDeviceCopiesBothSides) {
  const TimingConfig timing;
  MemorySystem memory;
  const CopyEngineLog::Limits limits{.keptBytes = 1 << 20, .hostResidentBytes = 384};
  memory.copyEngineMoved({Kind::FromHost, 0x10000, 256}, limits);  // its first 128 bytes dropped
  memory.copyEngineMoved({Kind::Fill, 0x20000, 512}, limits);      // all kept
  memory.copyEngineMoved({Kind::DeviceCopy, 0x40000, 256, 0x30000}, limits);
  memory.copyEngineMoved({Kind::ToHost, 0x50000, 256}, limits);  // kept whole
  memory::L2Cache& l2 = memory.forLaunch(timing, false, 0);
  EXPECT_FALSE(hits(l2, 0x10000, 0xf));
  EXPECT_TRUE(hits(l2, 0x10080, 0xf));
  for (uint64_t line = 0x20000; line < 0x20200; line += 128) EXPECT_TRUE(hits(l2, line, 0xf)) << line;
  for (uint64_t line : {0x30000, 0x30080, 0x40000, 0x40080, 0x50000, 0x50080})
    EXPECT_TRUE(hits(l2, line, 0xf)) << line;
}

TEST(CopyEngineLog, TrimsTheOldestBytesOfEachLimitAndKeepsTheRestInOrder) {
  CopyEngineLog log;
  const CopyEngineLog::Limits limits{.keptBytes = 1000, .hostResidentBytes = 300};
  log.add({Kind::FromHost, 0x1000, 200}, limits);
  log.add({Kind::Fill, 0x2000, 100}, limits);
  log.add({Kind::ToHost, 0x3000, 200}, limits);  // the first host copy loses 100 bytes
  ASSERT_EQ(log.ranges().size(), 3u);
  EXPECT_EQ(log.ranges()[0].address, 0x1064u);
  EXPECT_EQ(log.ranges()[0].bytes, 100u);
  EXPECT_EQ(log.hostBytes(), 300u);
  log.add({Kind::DeviceCopy, 0x5000, 700, 0x4000}, limits);  // 1100 in all: the oldest 100 go
  ASSERT_EQ(log.ranges().size(), 3u);
  EXPECT_EQ(log.ranges()[0].kind, Kind::Fill);
  EXPECT_EQ(log.bytes(), 1000u);
  EXPECT_EQ(log.hostBytes(), 200u);
  log.add({Kind::DeviceCopy, 0x7000, 950, 0x6000}, limits);  // the fill, the host copy and 50 bytes go
  ASSERT_EQ(log.ranges().size(), 2u);
  EXPECT_EQ(log.ranges()[0].address, 0x5000u + 650);
  EXPECT_EQ(log.ranges()[0].source, 0x4000u + 650);
  EXPECT_EQ(log.hostBytes(), 0u);
  log.clear();
  EXPECT_TRUE(log.ranges().empty());
  EXPECT_EQ(log.bytes(), 0u);
}

}  // namespace
}  // namespace ptxsim::sim::timing
