// The shared L2 against hand-derived cycles (the small configuration and
// the requests: small_l2.h).
#include "ptxsim/memory/l2_cache.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "ptxsim/memory/hbm.h"
#include "recording_backend.h"
#include "small_hbm.h"
#include "small_l2.h"

namespace ptxsim::memory {
namespace {

using test::RecordingBackend;
using namespace test;  // small(), read(), write(), atomic(), the lines

TEST(L2Cache, NearHitIsFasterThanFarHit) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  ASSERT_EQ(l2.sliceOf(kLine0), 0u);
  ASSERT_EQ(l2.partitionOf(0), 0u);
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 50u + 100u);          // a miss: the fetch lands at 50
  EXPECT_EQ(l2.request(1000, read(kLine0, 0x1, 0)), 1001u + 100u);  // one port cycle, then near
  EXPECT_EQ(l2.request(2000, read(kLine0, 0x1, 1)), 2001u + 130u);  // SM 1 is far from partition 0
  EXPECT_EQ(l2.request(3000, read(kLine0, 0x1, 2)), 3001u + 100u);
  EXPECT_EQ(l2.stats().nearRequests, 3u);
  EXPECT_EQ(l2.stats().farRequests, 1u);
  EXPECT_EQ(l2.stats().sectorHits, 3u);
  EXPECT_EQ(l2.stats().sectorMisses, 1u);
  EXPECT_EQ(l2.stats().partitionSectorHits, (std::vector<uint64_t>{3, 0}));
  EXPECT_DOUBLE_EQ(l2.stats().sectorHitRatePct(), 75.0);
  ASSERT_EQ(backend.sent.size(), 1u);
}

TEST(L2Cache, RequestsToOneSliceQueueOnItsPort) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, read(kLine0, 0xf));
  EXPECT_EQ(l2.request(1000, read(kLine0, 0xf)), 1004u + 100u);  // 4 sectors: 4 cycles
  EXPECT_EQ(l2.request(1000, read(kLine0, 0xf)), 1008u + 100u);  // after the first
  EXPECT_EQ(l2.request(1000, read(kLine1, 0x1, 1)),
            1050u + 100u);  // slice 1's port is free: the fetch decides
}

TEST(L2Cache, MissFetchesOnlyMissingSectorsAndWaitsForOnesInFlight) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  EXPECT_EQ(l2.request(0, read(kLine0, 0x3, 4)), 150u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].at, 0u);
  EXPECT_EQ(backend.sent[0].request.lineAddress, kLine0);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x3u);
  EXPECT_EQ(backend.sent[0].request.bytes, 64u);
  EXPECT_FALSE(backend.sent[0].request.write);
  EXPECT_EQ(backend.sent[0].request.sm, 4u);

  // Sectors 0 and 1 are in flight until 50; 2 and 3 are fetched at 10, land at 60.
  EXPECT_EQ(l2.request(10, read(kLine0, 0xf)), 60u + 100u);
  ASSERT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(backend.sent[1].at, 10u);
  EXPECT_EQ(backend.sent[1].request.sectorMask, 0xcu);
  EXPECT_EQ(backend.sent[1].request.bytes, 64u);

  EXPECT_EQ(l2.request(20, read(kLine0, 0x1)), 50u + 100u);  // waits for the first fetch
  EXPECT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(l2.stats().inFlightSectorHits, 3u);
  EXPECT_EQ(l2.request(500, read(kLine0, 0xf)), 504u + 100u);  // all landed: a plain hit
  EXPECT_EQ(l2.stats().inFlightSectorHits, 3u);
  EXPECT_EQ(l2.stats().readSectors, 11u);
  EXPECT_EQ(l2.stats().sectorMisses, 4u);
}

TEST(L2Cache, AMissFetchesTheWholeFetchBlocksHoldingItsSectorsThatTheLineLacks) {
  RecordingBackend backend(50);
  L2Config config = small();
  config.fetchBytes = 64;  // the H100's default (its probe): sectors in pairs
  L2Cache l2(config, backend);
  // Sector 0 missing: sectors 0 and 1 fetched (the probe's stride 64).
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 50u + 100u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x3u);
  EXPECT_EQ(backend.sent[0].request.bytes, 64u);
  EXPECT_EQ(l2.stats().sectorMisses, 2u);  // both sectors fetched count as misses
  // Its neighbour came with it: waited for (in flight until 50), nothing
  // sent, and counted neither as a hit nor again as a miss (Nsight
  // Compute's histogram_shared: adjacent sectors read at once).
  EXPECT_EQ(l2.request(10, read(kLine0, 0x2)), 50u + 100u);
  EXPECT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(l2.stats().sectorHits, 0u);
  EXPECT_EQ(l2.stats().inFlightSectorHits, 0u);
  EXPECT_EQ(l2.stats().sectorMisses, 2u);
  // Sectors 1 (there) and 2 (missing): only the block 2-3 is fetched.
  l2.request(100, read(kLine0, 0x6));
  ASSERT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(backend.sent[1].request.sectorMask, 0xcu);
  EXPECT_EQ(l2.stats().sectorHits, 1u);
  EXPECT_EQ(l2.stats().sectorMisses, 4u);
  // Sector 3, a neighbour that has landed: a hit (the probe's pair 64).
  EXPECT_EQ(l2.request(1000, read(kLine0, 0x8)), 1001u + 100u);  // its port cycle, then the near latency
  EXPECT_EQ(l2.stats().sectorHits, 2u);
  EXPECT_EQ(l2.stats().sectorMisses, 4u);

  // A whole line (128): one sector asked, four fetched; a stored sector of
  // the line is not fetched over.
  l2.setFetchBytes(128);
  l2.request(1000, write(kLine1, 0x4, 1));
  l2.request(1100, read(kLine1, 0x1, 1));
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_EQ(backend.sent[2].request.sectorMask, 0xbu);
  EXPECT_EQ(backend.sent[2].request.bytes, 96u);
  // A sector (32, the limit's 0 to 32): only what is asked for.
  l2.setFetchBytes(32);
  l2.request(2000, read(kLine3, 0x1));
  ASSERT_EQ(backend.sent.size(), 4u);
  EXPECT_EQ(backend.sent[3].request.sectorMask, 0x1u);
  EXPECT_THROW(l2.setFetchBytes(48), std::invalid_argument);
  EXPECT_EQ(l2.config().fetchBytes, 32u);
}

TEST(L2Cache, TheRequestCoalescerMergesReadsOfSectorsLookedUpJustBefore) {
  L2Config config = small();
  config.coalesceWindowCycles = 3;
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  EXPECT_EQ(l2.request(0, read(kLine0, 0x3)), 150u);  // looked up at 0, fetched: lands at 50
  // Sector 0 again 2 cycles later, from a far SM: merged, back with the first read.
  EXPECT_EQ(l2.request(2, read(kLine0, 0x1, 1)), 150u);
  EXPECT_EQ(l2.stats().readSectors, 2u);
  EXPECT_EQ(l2.stats().coalescedSectors, 1u);
  // Sector 1 merges; sector 2 is looked up (port 2..3) and fetched at 2, landing at 52.
  EXPECT_EQ(l2.request(2, read(kLine0, 0x6)), 152u);
  EXPECT_EQ(l2.stats().readSectors, 3u);
  EXPECT_EQ(l2.stats().coalescedSectors, 2u);
  ASSERT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(backend.sent[1].request.sectorMask, 0x4u);
  // 3 cycles after the first lookup: looked up again, an in-flight hit.
  EXPECT_EQ(l2.request(3, read(kLine0, 0x1)), 150u);
  EXPECT_EQ(l2.stats().readSectors, 4u);
  EXPECT_EQ(l2.stats().coalescedSectors, 2u);
  EXPECT_EQ(l2.stats().inFlightSectorHits, 1u);
  // A write to the line ends the merging: sector 2 (looked up at 2) is looked up again.
  l2.request(4, write(kLine0, 0x8));
  l2.request(4, read(kLine0, 0x4));
  EXPECT_EQ(l2.stats().readSectors, 5u);
  EXPECT_EQ(l2.stats().coalescedSectors, 2u);
}

TEST(L2Cache, MissWaitsForAFreeMshrOfItsSlice) {
  L2Config config = small();
  config.mshrsPerSlice = 1;
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1)), 150u);
  EXPECT_EQ(l2.request(10, read(kLine3, 0x1)), 50u + 50u + 100u);  // slice 0's MSHR is free at 50
  EXPECT_EQ(backend.sent[1].at, 50u);
  EXPECT_EQ(l2.request(10, read(kLine1, 0x1, 1)), 10u + 50u + 100u);  // slice 1 has its own
  EXPECT_EQ(backend.sent[2].at, 10u);
  EXPECT_EQ(l2.stats().mshrStallCycles, 40u);
}

TEST(L2Cache, StoresAllocateTheirSectorsWithoutFetching) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  EXPECT_EQ(l2.request(0, write(kLine0, 0x1)), 1u + 100u);  // acknowledged after the port and the trip
  EXPECT_TRUE(backend.sent.empty());
  EXPECT_EQ(l2.request(10, read(kLine0, 0x1)), 11u + 100u);  // the stored sector hits
  EXPECT_EQ(l2.request(20, read(kLine0, 0x3)), 20u + 50u + 100u);
  ASSERT_EQ(backend.sent.size(), 1u);  // only sector 1, which was never written
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x2u);
  EXPECT_EQ(l2.stats().writeRequests, 1u);
  EXPECT_EQ(l2.stats().writeSectors, 1u);
  EXPECT_EQ(l2.stats().readSectors, 3u);
  // The store's sector counts as a hit (it needs no fetch), as Nsight
  // Compute counts a write's lookup; sector 1 is the one miss.
  EXPECT_EQ(l2.stats().sectorHits, 3u);
  EXPECT_EQ(l2.stats().sectorMisses, 1u);
}

TEST(L2Cache, StoresAndFetchesShareTheSlicesWritePort) {
  // The write port at 2 cycles a request plus half a cycle a sector; the
  // slice's port passes 4 sectors (128 bytes) a cycle, so it never binds.
  L2Config config = small();
  config.sliceBytesPerCycle = 128;
  config.writeRequestCycles = 2;
  config.writeSectorsPerCycle = 2;
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  // Line 0 (slice 0): 2 + 4 x 0.5 = 4 cycles, written at 4, then the trip.
  EXPECT_EQ(l2.request(0, write(kLine0, 0xf)), 4u + 100u);
  // One sector of line 3 (slice 0) waits for it: 4 + 2.5, written in cycle 7.
  EXPECT_EQ(l2.request(0, write(kLine3, 0x1)), 7u + 100u);
  // A fetch on slice 0 takes its slots from 6.5 (sent in cycle 6) ...
  EXPECT_EQ(l2.request(1, read(kLine5, 0x3)), 6u + 50u + 100u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].at, 6u);
  // ... to 6.5 + 3 = 9.5: the next store on slice 0 is written at 9.5 + 2.5.
  EXPECT_EQ(l2.request(2, write(kLine0, 0x2)), 12u + 100u);
  // Slice 1's port is free: line 1's store is written after its 2.5 cycles.
  EXPECT_EQ(l2.request(2, write(kLine1, 0x1)), 5u + 130u);  // far from SM 0
  EXPECT_EQ(l2.stats().writePortWaitCycles, 4u + 5u + 7u);
}

TEST(L2Cache, EvictingADirtyLineWritesItsDirtySectorsBackOnce) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, write(kLine0, 0x5));                           // sectors 0 and 2 dirty; set 0
  l2.request(10, read(kLine3, 0x1));                           // set 0's other way
  EXPECT_EQ(l2.request(100, read(kLine5, 0x1)), 150u + 100u);  // set 0 is full: evicts line 0 (LRU)
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_EQ(backend.sent[1].at, 100u);
  EXPECT_EQ(backend.sent[1].request.lineAddress, kLine0);
  EXPECT_TRUE(backend.sent[1].request.write);
  EXPECT_EQ(backend.sent[1].request.sectorMask, 0x5u);
  EXPECT_EQ(backend.sent[1].request.bytes, 64u);
  EXPECT_EQ(backend.sent[2].request.lineAddress, kLine5);
  EXPECT_FALSE(backend.sent[2].request.write);

  l2.request(200, read(kLine0, 0x1));  // evicts line 3, which is clean
  ASSERT_EQ(backend.sent.size(), 4u);
  EXPECT_FALSE(backend.sent[3].request.write);
  EXPECT_EQ(l2.stats().evictions, 2u);
  EXPECT_EQ(l2.stats().dirtyEvictions, 1u);
  EXPECT_EQ(l2.stats().writeBackSectors, 2u);
}

TEST(L2Cache, UnderFifoAHitDoesNotSaveTheLineAllocatedFirst) {
  for (const ReplacementPolicy* policy : {&kLeastRecentlyUsed, &kFirstInFirstOut}) {
    L2Config config = small();
    config.replacement = policy;
    RecordingBackend backend(50);
    L2Cache l2(config, backend);
    l2.request(0, read(kLine0, 0x1));  // set 0's two ways: line 0, then line 3
    l2.request(10, read(kLine3, 0x1));
    l2.request(100, read(kLine0, 0x1));  // a hit on line 0
    l2.request(200, read(kLine5, 0x1));  // evicts line 3 (LRU) or line 0 (FIFO)
    const uint64_t misses = l2.stats().sectorMisses;
    l2.request(300, read(kLine0, 0x1));
    EXPECT_EQ(l2.stats().sectorMisses, misses + (policy == &kFirstInFirstOut ? 1 : 0)) << policy->name;
  }
}

TEST(L2Cache, ADirtyLineTakesDirtyLineWaysOfItsSetsRoom) {
  // Sets of 4 ways (one a slice); lines 0, 3, 5 and 6 share slice 0's.
  L2Config config = small();
  config.ways = 4;
  config.capacityBytes = 2 * 4 * 128;
  constexpr uint64_t kLine6 = 0x300;
  for (uint32_t dirtyWays : {1u, 2u}) {
    config.dirtyLineWays = dirtyWays;
    RecordingBackend backend(50);
    L2Cache l2(config, backend);
    l2.request(0, write(kLine0, 0x1));    // room 2 (of 4) with dirty lines of 2 ways
    l2.request(100, write(kLine3, 0x1));  // 4: full
    l2.request(200, read(kLine5, 0x1));   // 5: line 0 (the least recent) written back and evicted
    l2.request(300, read(kLine6, 0x1));   // 4 again
    l2.request(400, write(kLine5, 0x1));  // line 5 dirty, 5: line 3 written back and evicted
    std::vector<uint64_t> writtenBack;
    for (const auto& sent : backend.sent)
      if (sent.request.write) writtenBack.push_back(sent.request.lineAddress);
    if (dirtyWays == 1) {
      // Four lines in four ways: nothing leaves.
      EXPECT_TRUE(writtenBack.empty());
      EXPECT_EQ(l2.stats().evictions, 0u);
    } else {
      EXPECT_EQ(writtenBack, (std::vector<uint64_t>{kLine0, kLine3}));
      EXPECT_EQ(l2.stats().evictions, 2u);
      EXPECT_EQ(l2.stats().dirtyEvictions, 2u);
      // The lines kept still hit; the evicted ones miss.
      const uint64_t misses = l2.stats().sectorMisses;
      l2.request(500, read(kLine6, 0x1));
      EXPECT_EQ(l2.stats().sectorMisses, misses);
      l2.request(600, read(kLine0, 0x1));
      EXPECT_EQ(l2.stats().sectorMisses, misses + 1);
    }
  }
}

TEST(L2Cache, ASetBeyondItsShareOfDirtyLinesWritesTheOldestBackAndKeepsIt) {
  // Sets of 4 ways (one a slice); lines 0, 3, 5 and 6 share slice 0's. A
  // share of 0.5 lets 2 of the 4 hold dirty lines (0.5 x 4 plus a fraction
  // below 1, rounded down).
  L2Config config = small();
  config.ways = 4;
  config.capacityBytes = 2 * 4 * 128;
  config.dirtyShare = 0.5;
  constexpr uint64_t kLine6 = 0x300;
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  l2.request(0, write(kLine0, 0x3));
  l2.request(100, write(kLine3, 0x1));
  EXPECT_TRUE(backend.sent.empty());
  l2.request(200, write(kLine5, 0x1));  // a third: line 0, the least recently used, written back
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_TRUE(backend.sent[0].request.write);
  EXPECT_EQ(backend.sent[0].request.lineAddress, kLine0);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x3u);
  EXPECT_EQ(l2.stats().cleanings, 1u);
  EXPECT_EQ(l2.stats().writeBackSectors, 2u);
  EXPECT_EQ(l2.stats().evictions, 0u);
  // Line 0 is still there, clean: its read hits, and a fourth line in the
  // set evicts nothing (4 lines, 4 ways).
  const uint64_t hits = l2.stats().sectorHits;
  l2.request(300, read(kLine0, 0x1));
  EXPECT_EQ(l2.stats().sectorHits, hits + 1);
  l2.request(400, read(kLine6, 0x1));
  EXPECT_EQ(l2.stats().evictions, 0u);
  // Writing line 0 again makes it dirty: line 3 is now the oldest dirty one.
  l2.request(500, write(kLine0, 0x1));
  const auto& last = backend.sent.back().request;
  EXPECT_TRUE(last.write);
  EXPECT_EQ(last.lineAddress, kLine3);
  EXPECT_EQ(l2.stats().cleanings, 2u);
}

TEST(L2Cache, ALineStillFillingIsNotEvicted) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, read(kLine0, 0x1));                         // lands at 50
  l2.request(1, read(kLine3, 0x1));                         // lands at 51
  EXPECT_EQ(l2.request(2, write(kLine5, 0x1)), 3u + 100u);  // nowhere to allocate: written through
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_TRUE(backend.sent[2].request.write);
  EXPECT_EQ(l2.request(3, read(kLine0, 0x1)), 50u + 100u);  // line 0 is still there
  EXPECT_EQ(l2.stats().evictions, 0u);
}

TEST(L2Cache, PortTransfersThatAreNotWholeCyclesAddUp) {
  L2Config config = small();
  config.sliceBytesPerCycle = 80;  // a line in 1.6 cycles
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  l2.request(0, read(kLine0, 0xf));
  // Lines back to back leave the port at 1001.6, 1003.2 and 1004.8, each
  // ready from the cycle it has passed in: 1002, 1004, 1005 (not 1006).
  EXPECT_EQ(l2.request(1000, read(kLine0, 0xf)), 1002u + 100u);
  EXPECT_EQ(l2.request(1000, read(kLine0, 0xf)), 1004u + 100u);
  EXPECT_EQ(l2.request(1000, read(kLine0, 0xf)), 1005u + 100u);
}

TEST(L2Cache, AtomicsToOneWordPassTheirResultsOnInTheirSlice) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, read(kLine0, 0x1));  // line 0 sector 0 present from 50
  // A warp's 32 lanes on word 0: 32 operations 2 cycles apart from 1000
  // (atomics do not pass the port), updated at 1064; the unit is held
  // 31 x 2 + 0.5 cycles.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x1, 32)), 1064u + 100u);
  // The same word: the last result passes on, from 1064.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x1, 32)), 1128u + 100u);
  // Slice 1's unit is free; the missing sector is fetched first (lands at 1050).
  EXPECT_EQ(l2.request(1000, atomicOn(kLine1, 0x1, 1)), 1052u + 130u);
  EXPECT_EQ(l2.request(1001, atomicOn(kLine0, 0x1, 32, 1)), 1192u + 130u);  // far SM
  // A reader gets the word after the last update.
  EXPECT_EQ(l2.request(1010, read(kLine0, 0x1)), 1192u + 100u);
  ASSERT_EQ(backend.sent.size(), 2u);  // the two fetches, nothing else
  EXPECT_EQ(backend.sent[1].request.lineAddress, kLine1);
  EXPECT_FALSE(backend.sent[1].request.write);
  EXPECT_FALSE(backend.sent[1].request.atomic);
  EXPECT_EQ(l2.stats().atomicRequests, 4u);
  EXPECT_EQ(l2.stats().atomicSectors, 4u);
  EXPECT_EQ(l2.stats().atomicUnitBusyCycles, 188u);  // 3 x 62.5 + 0.5
}

TEST(L2Cache, AtomicsToDistinctSectorsPipelineAndKeepFractionalCycles) {
  L2Config config = small();
  config.atomicCyclesPerOp = 1.5;
  RecordingBackend backend(50);
  L2Cache l2(config, backend);
  l2.request(0, read(kLine0, 0xf));
  // Sector 0 starts at 1000 and is updated at 1001.5, rounded up.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x1, 1)), 1002u + 100u);
  // Sector 1 starts half a cycle later: updated at 1002.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x100, 1)), 1002u + 100u);
  // Sectors 2 and 3, all their words: started at 1001 and 1001.5.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0xffff0000u, 1)), 1003u + 100u);
  // A warp's 2 lanes a word over a whole line, long after: 4 sectors each
  // held 1.5 + 0.5 cycles, the last updated at 2006 + 3.
  EXPECT_EQ(l2.request(2000, atomicOn(kLine0, 0xffffffffu, 2)), 2009u + 100u);
}

TEST(L2Cache, AnAtomicToOtherWordsOfASectorJustUpdatedWaitsForTheHazard) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, read(kLine0, 0xf));
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x1, 1)), 1002u + 100u);  // word 0, updated at 1002
  // Word 1 of that sector: 10 cycles after the update, 1012 to 1014.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x2, 1)), 1014u + 100u);
  // Word 1 again: only the words the last update made, whose results pass on.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x2, 1)), 1016u + 100u);
  // Words 0 and 1: word 0 is not among them.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x3, 1)), 1028u + 100u);
  // Sector 1 was not updated, but the unit takes sectors in order: it
  // starts after the last one, at 1026.5.
  EXPECT_EQ(l2.request(1000, atomicOn(kLine0, 0x100, 1)), 1029u + 100u);
  // Without the words (0: not known), nothing passes on.
  EXPECT_EQ(l2.request(1000, atomic(kLine0, 0x1, 1)), 1028u + 10u + 2u + 100u);
  // Long after, the sector is no hazard.
  EXPECT_EQ(l2.request(2000, atomicOn(kLine0, 0x4, 1)), 2002u + 100u);
}

TEST(L2Cache, EvictingAnAtomicallyUpdatedLineWritesItBack) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  l2.request(0, atomic(kLine0, 0x2, 1));
  l2.request(100, read(kLine3, 0x1));
  l2.request(200, read(kLine5, 0x1));  // evicts line 0
  ASSERT_EQ(backend.sent.size(), 4u);
  EXPECT_TRUE(backend.sent[2].request.write);
  EXPECT_EQ(backend.sent[2].request.lineAddress, kLine0);
  EXPECT_EQ(backend.sent[2].request.sectorMask, 0x2u);
}

TEST(L2Cache, SliceHashSpreadsLinesOverSlices) {
  RecordingBackend backend(50);
  L2Cache small2(small(), backend);
  const uint32_t expected[8] = {0, 1, 1, 0, 1, 0, 0, 1};
  for (uint64_t line = 0; line < 8; ++line) EXPECT_EQ(small2.sliceOf(line * 128), expected[line]) << line;

  L2Cache h100(L2Config{}, backend);  // 48 slices, 24 per partition
  EXPECT_EQ(h100.partitionOf(23), 0u);
  EXPECT_EQ(h100.partitionOf(24), 1u);
  for (uint64_t block : {0ull, 5ull, 1000ull}) {
    std::set<uint32_t> slices;
    for (uint64_t line = 0; line < 48; ++line) slices.insert(h100.sliceOf((block * 48 + line) * 128));
    EXPECT_EQ(slices.size(), 48u) << "block " << block;
  }
  for (uint32_t log2Stride = 7; log2Stride <= 34; ++log2Stride) {
    std::set<uint32_t> slices;
    for (uint64_t i = 0; i < 4 * 48; ++i) slices.insert(h100.sliceOf(i << log2Stride));
    EXPECT_EQ(slices.size(), 48u) << "stride 2^" << log2Stride;
  }
}

TEST(L2Cache, DefaultsComposeWithHbmToTheH100Latencies) {
  Hbm hbm;
  L2Cache l2(L2Config{}, hbm);
  // Line 0: slice 0, partition 0, near SMs 0 to 65. A DRAM miss of the
  // 64-byte fetch block: 4 cycles on the channel and a row miss (413), then
  // the near trip; SM 66's copy takes it from the home, the far trip.
  EXPECT_EQ(l2.request(0, read(0x0, 0x1, 0)), 417u + 260u);
  EXPECT_EQ(l2.request(1000, read(0x0, 0x1, 65)), 1001u + 260u);
  EXPECT_EQ(l2.request(2000, read(0x0, 0x1, 66)), 2001u + 290u);
  EXPECT_EQ(l2.stats().fabricSectors, 2u);  // the copy asks for the whole fetch block
  EXPECT_EQ(hbm.stats().readRequests, 1u);
  EXPECT_EQ(hbm.stats().bytesRead, 64u);
  EXPECT_EQ(l2.config().slices * l2.config().sliceBytesPerCycle, 3840u);  // 3651 measured (bw.l2.read)
}

TEST(L2Cache, RejectsImpossibleConfigurations) {
  RecordingBackend backend(50);
  auto messageFor = [&](auto change) -> std::string {
    L2Config config = small();
    change(config);
    try {
      L2Cache l2(config, backend);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string geometry =
      "L2 cache: the capacity must be a positive whole number of sets of `ways` lines";
  EXPECT_EQ(messageFor([](L2Config& c) { c.capacityBytes = 1000; }), geometry);
  EXPECT_EQ(messageFor([](L2Config& c) { c.capacityBytes = 0; }), geometry);
  EXPECT_EQ(messageFor([](L2Config& c) { c.ways = 0; }), geometry);
  EXPECT_EQ(messageFor([](L2Config& c) { c.lineBytes = 100; }), "L2 cache: the line must be whole sectors");
  EXPECT_EQ(messageFor([](L2Config& c) { c.sectorBytes = 0; }), "L2 cache: the line must be whole sectors");
  EXPECT_EQ(messageFor([](L2Config& c) { c.slices = 0; }), "L2 cache: at least one slice is needed");
  EXPECT_EQ(messageFor([](L2Config& c) { c.partitions = 0; }), "L2 cache: at least one partition is needed");
  EXPECT_EQ(messageFor([](L2Config& c) { c.slices = 3; }),
            "L2 cache: the slices must split evenly between the partitions");
  EXPECT_EQ(messageFor([](L2Config& c) { c.sliceBytesPerCycle = 0; }),
            "L2 cache: a slice's port must move at least one byte a cycle");
  EXPECT_EQ(messageFor([](L2Config& c) { c.mshrsPerSlice = 0; }),
            "L2 cache: a slice needs at least one MSHR");
  const std::string fetch = "L2 cache: the fetch granularity must be a power of two from a sector to a line";
  const std::string dirty = "L2 cache: a dirty line must take from 1 way to all the ways of its set";
  EXPECT_EQ(messageFor([](L2Config& c) { c.dirtyLineWays = 0; }), dirty);
  EXPECT_EQ(messageFor([](L2Config& c) { c.dirtyLineWays = c.ways + 1; }), dirty);
  const std::string share = "L2 cache: the share of a set's ways that may hold dirty lines must be from 0 to 1";
  EXPECT_EQ(messageFor([](L2Config& c) { c.dirtyShare = 1.5; }), share);
  EXPECT_EQ(messageFor([](L2Config& c) { c.dirtyShare = -0.1; }), share);
  EXPECT_EQ(messageFor([](L2Config& c) { c.dirtyShare = std::nan(""); }), share);
  EXPECT_EQ(messageFor([](L2Config& c) { c.fetchBytes = 16; }), fetch);
  EXPECT_EQ(messageFor([](L2Config& c) { c.fetchBytes = 96; }), fetch);
  EXPECT_EQ(messageFor([](L2Config& c) { c.fetchBytes = 256; }), fetch);
  EXPECT_EQ(messageFor([](L2Config& c) { c.writeSectorsPerCycle = 0; }),
            "L2 cache: the write port must pass a positive, finite number of sectors a cycle");
  EXPECT_EQ(messageFor([](L2Config& c) { c.writeRequestCycles = -1; }),
            "L2 cache: the write port's cycles per request must be finite and not negative");
  EXPECT_EQ(messageFor([](L2Config& c) { c.atomicCyclesPerOp = 0; }),
            "L2 cache: the atomic unit must take a positive, finite number of cycles per operation");
  EXPECT_EQ(messageFor([](L2Config& c) { c.atomicCyclesPerSector = 0; }),
            "L2 cache: the atomic unit must take a positive, finite number of cycles per sector");
  EXPECT_EQ(messageFor([](L2Config& c) { c.atomicHazardCycles = -1; }),
            "L2 cache: the atomic unit's hazard must be a finite number of cycles, 0 or more");
  EXPECT_EQ(
      messageFor([](L2Config& c) { c.atomicCyclesPerSector = 0.001; }),
      "L2 cache: the atomic unit would remember more than 4096 sectors: its hazard and operation are too "
      "long for its sector");
  EXPECT_EQ(messageFor([](L2Config&) {}), "accepted");
}

TEST(L2Cache, RejectsMalformedRequests) {
  RecordingBackend backend(50);
  L2Cache l2(small(), backend);
  EXPECT_THROW(l2.request(0, read(0x40, 0x1)), std::invalid_argument);  // not line-aligned
  EXPECT_THROW(l2.request(0, read(0x0, 0x10)), std::invalid_argument);  // sector 4 of a 4-sector line
  EXPECT_THROW(l2.request(0, read(0x0, 0x0)), std::invalid_argument);
  EXPECT_THROW(l2.request(0, atomic(0x0, 0x1, 0)), std::invalid_argument);
  EXPECT_TRUE(backend.sent.empty());
}

}  // namespace
}  // namespace ptxsim::memory
