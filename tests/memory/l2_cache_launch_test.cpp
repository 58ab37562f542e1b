// The shared L2 across launches (lines kept, clocks restarted, a flush)
// and applied window by window on host threads, against hand-derived
// cycles (the small configuration: small_l2.h).
#include <gtest/gtest.h>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/l2_cache.h"
#include "recording_backend.h"
#include "small_hbm.h"
#include "small_l2.h"

namespace ptxsim::memory {
namespace {

using test::RecordingBackend;
using namespace test;  // small(), read(), write(), the lines

TEST(L2Cache, ANewLaunchFindsTheLinesTheLastOneLeftAndAFreshClock) {
  RecordingBackend backend(5000);
  L2Cache l2(small(), backend);
  // Launch 1: line 0's fill lands at 5000; sector 1 of line 1 is written.
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 5000u + 100u);
  l2.request(1, write(kLine1, 0x2));
  l2.startLaunch();
  // Launch 2, its clock at 0: line 0 is there and has arrived (one port
  // cycle, then near), with no fetch; the statistics start again.
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 1u + 100u);
  EXPECT_EQ(l2.stats().sectorHits, 1u);
  EXPECT_EQ(l2.stats().sectorMisses, 0u);
  EXPECT_EQ(l2.stats().inFlightSectorHits, 0u);
  EXPECT_EQ(backend.sent.size(), 1u);  // the first launch's fetch; the write allocated without one
  // The dirty sector stayed: the written line answers a read of it at once.
  EXPECT_EQ(l2.request(10, read(kLine1, 0x2, 1)), 11u + 100u);
}

TEST(L2Cache, AFlushEmptiesTheCacheWithoutWritingBack) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, read(kLine0, 0x1));
  l2.request(1, write(kLine1, 0x2));
  ASSERT_EQ(backend.sent.size(), 1u);
  l2.flush();
  l2.startLaunch();
  // Both lines are gone: misses that fetch (the dirty sector is dropped,
  // not written back), and every way is free, so nothing is evicted.
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 50u + 100u);
  EXPECT_EQ(l2.request(0, read(kLine1, 0x2, 1)), 50u + 100u);
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_FALSE(backend.sent[1].request.write);
  EXPECT_FALSE(backend.sent[2].request.write);
  EXPECT_EQ(l2.stats().sectorMisses, 2u);
  EXPECT_EQ(l2.stats().evictions, 0u);
}

TEST(L2Cache, AMemsetsStoresBetweenLaunchesLeaveTheirSectorsDirtyForTheNextLaunch) {
  RecordingBackend backend(5000);
  L2Cache l2(small(), backend);
  // Launch 1: lines 0 and 3 fill set 0's two ways; their fills land at 5000.
  l2.request(0, read(kLine0, 0x1));
  l2.request(0, read(kLine3, 0x1));
  // The memset after it: line 5 takes line 0's way (the least recently
  // used), although launch 1's clock had its fill land at 5000: the copies
  // start a clock of their own, at which every fill has landed.
  l2.copyEngineStore(kLine5, 0x6);
  ASSERT_EQ(backend.sent.size(), 2u);  // no fetch: the written sectors are whole
  l2.startLaunch();
  EXPECT_EQ(l2.stats().writeSectors, 0u);  // the memset's are not the launch's
  // Launch 2: sectors 1 and 2 of line 5 hit (near SM 0), sector 0 misses.
  EXPECT_EQ(l2.request(0, read(kLine5, 0x6)), 2u + 100u);
  EXPECT_EQ(l2.stats().sectorHits, 2u);
  l2.request(10, read(kLine5, 0x1));
  EXPECT_EQ(l2.stats().sectorMisses, 1u);
  // Line 0 is gone; fetching it again evicts line 3 (clean), and line
  // 5's dirty sectors are written back when it leaves in turn (each read
  // once the fills before it have landed).
  l2.request(6000, read(kLine0, 0x1));
  l2.request(12000, read(kLine3, 0x1));
  const auto& last = backend.sent[backend.sent.size() - 2].request;
  EXPECT_TRUE(last.write);
  EXPECT_EQ(last.lineAddress, kLine5);
  EXPECT_EQ(last.sectorMask, 0x6u);
  EXPECT_EQ(l2.stats().dirtyEvictions, 1u);
}

// A host copy's lines come in clean (the GPU writes them to DRAM too): its
// line, and a dirty line it overwrites, leave without a write-back; a copy's
// source keeps the sectors that were dirty dirty.
TEST(L2Cache, CopyEngineFillsAllocateCleanLinesThatLeaveWithoutAWriteBack) {
  RecordingBackend backend(5000);
  L2Cache l2(small(), backend);
  l2.copyEngineStore(kLine0, 0x3);                                // a memset's, dirty
  l2.copyEngineFill(kLine0, 0x1, L2Cache::CopiedData::Replaced);  // sector 0 clean again
  l2.copyEngineFill(kLine3, 0xf, L2Cache::CopiedData::Read);      // set 0 full
  ASSERT_TRUE(backend.sent.empty());                              // no fetch: the data came with the copies
  l2.startLaunch();
  EXPECT_EQ(l2.request(0, read(kLine3, 0xf)), 4u + 100u);  // hits: 4 sectors through the port
  EXPECT_EQ(l2.stats().sectorHits, 4u);
  // Line 5 evicts line 0 (least recently used): only its sector 1 is dirty.
  l2.request(10, read(kLine5, 0x1));
  ASSERT_EQ(backend.sent.size(), 2u);
  EXPECT_TRUE(backend.sent[0].request.write);
  EXPECT_EQ(backend.sent[0].request.lineAddress, kLine0);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x2u);
  // Line 0 again evicts line 3, clean: no write-back.
  l2.request(6000, read(kLine0, 0x1));
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_FALSE(backend.sent[2].request.write);
  EXPECT_EQ(l2.stats().dirtyEvictions, 1u);
}

TEST(L2Cache, ACopysSourceKeepsItsDirtySectorsDirty) {
  RecordingBackend backend(5000);
  L2Cache l2(small(), backend);
  l2.copyEngineStore(kLine0, 0x1);
  l2.copyEngineFill(kLine0, 0xf, L2Cache::CopiedData::Read);
  l2.copyEngineFill(kLine3, 0xf, L2Cache::CopiedData::Read);
  l2.copyEngineFill(kLine5, 0xf, L2Cache::CopiedData::Read);  // evicts line 0
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_TRUE(backend.sent[0].request.write);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x1u);
}

// An HBM of one channel behind the small L2: slice 0's and slice 1's
// misses meet there.
HbmConfig oneChannel() { return test::smallHbm(1); }

TEST(L2CacheWindow, ASliceSeesTheDramAsAtTheWindowsStartPlusItsOwnRequests) {
  Hbm hbm(oneChannel());
  L2Cache l2(small(), hbm);
  // Lines 0 and 1 lie in slices 0 and 1 and in row 0 of bank 0. Each slice
  // finds the channel idle: its sector's 2 cycles, a row miss (150), the
  // near latency (100). Served in order, line 1 would wait 2 cycles and hit
  // the open row.
  EXPECT_EQ(l2.requestInWindow(0, read(kLine0, 0x1, 0)), 252u);
  EXPECT_EQ(l2.requestInWindow(0, read(kLine1, 0x1, 1)), 252u);
  // A slice's second miss waits for its own first: line 3 (slice 0, row 0
  // of bank 0 too) is sent at 1 (the write port's slot), finds the channel
  // busy to 2 and the row open: 1 + 1 + 2 + 100, then 100.
  EXPECT_EQ(l2.requestInWindow(0, read(kLine3, 0x1, 0)), 204u);
  EXPECT_EQ(hbm.stats().readRequests, 0u);  // logged, not yet applied
  l2.finishWindow();
  // Applied in (cycle, slice) order: line 0 and line 1 at 0, line 3 at 1.
  EXPECT_EQ(hbm.stats().readRequests, 3u);
  EXPECT_EQ(hbm.stats().rowMisses, 1u);
  EXPECT_EQ(hbm.stats().rowHits, 2u);
  EXPECT_EQ(hbm.stats().channelBusyCycles, 6u);
  EXPECT_EQ(l2.stats().readRequests, 3u);
  EXPECT_EQ(l2.stats().sectorMisses, 3u);
  EXPECT_EQ(l2.stats().nearRequests, 3u);
  EXPECT_EQ(l2.stats().partitionSectorHits, (std::vector<uint64_t>{0, 0}));
  // The next window sees the channel as the three left it, busy to 6:
  // line 2 (slice 1, row 0 of bank 0), sent at 3, waits 3, then its 2
  // cycles, a row hit and the near latency.
  EXPECT_EQ(l2.requestInWindow(3, read(kLine0 + 0x100, 0x1, 1)), 3u + 3u + 2u + 100u + 100u);
}

TEST(L2CacheWindow, AWindowsStatisticsAddUpToTheSerialOnes) {
  // With a back end that has no state, a window answers as request() does.
  RecordingBackend serialBackend(50), windowBackend(50);
  L2Cache serial(small(), serialBackend), windowed(small(), windowBackend);
  const std::vector<MemoryRequest> requests = {read(kLine0, 0x3, 0), write(kLine1, 0x1, 1),
                                               read(kLine0, 0xc, 2), atomic(kLine3, 0x1, 2, 0),
                                               read(kLine5, 0xf, 1)};
  for (const MemoryRequest& r : requests) EXPECT_EQ(windowed.requestInWindow(5, r), serial.request(5, r));
  windowed.finishWindow();
  EXPECT_EQ(windowBackend.sent.size(), serialBackend.sent.size());
  const L2Stats& a = serial.stats();
  const L2Stats& b = windowed.stats();
  EXPECT_EQ(b.readRequests, a.readRequests);
  EXPECT_EQ(b.writeRequests, a.writeRequests);
  EXPECT_EQ(b.atomicRequests, a.atomicRequests);
  EXPECT_EQ(b.sectorHits, a.sectorHits);
  EXPECT_EQ(b.sectorMisses, a.sectorMisses);
  EXPECT_EQ(b.evictions, a.evictions);
  EXPECT_EQ(b.atomicUnitBusyCycles, a.atomicUnitBusyCycles);
  EXPECT_EQ(b.partitionSectorHits, a.partitionSectorHits);
}

}  // namespace
}  // namespace ptxsim::memory
