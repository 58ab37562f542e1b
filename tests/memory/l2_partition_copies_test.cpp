// The L2's partition copies (L2Config::partitionCopies) against hand-derived
// cycles and counts: an SM's read of a line homed in the other partition
// looks up its own partition's copy first and the home only for what the
// copy lacks (small_l2.h: line 0 is homed in partition 0, near SMs 0 and 2,
// far for SMs 1 and 3; sets of 2 ways).
#include <gtest/gtest.h>

#include "recording_backend.h"
#include "small_l2.h"

namespace ptxsim::memory::test {
namespace {

L2Config withCopies() {
  L2Config config = small();
  config.partitionCopies = true;
  return config;
}

TEST(L2PartitionCopies, AFarReadFillsItsPartitionsCopyWhichServesItsPartitionsNextReads) {
  RecordingBackend backend(50);
  L2Cache l2(withCopies(), backend);
  // SM 1: the copy misses, the home misses, DRAM at 0 (the write port free),
  // back at 50, then the far trip.
  EXPECT_EQ(l2.request(0, read(kLine0, 0x1, 1)), 50u + 130u);
  EXPECT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(l2.stats().sectorMisses, 1u);
  EXPECT_EQ(l2.stats().fabricSectors, 1u);
  EXPECT_EQ(l2.stats().fabricSectorHits, 0u);
  EXPECT_EQ(l2.stats().fabricSectorMisses, 1u);
  // SM 3, the same partition: its copy hits, the home is not asked.
  EXPECT_EQ(l2.request(500, read(kLine0, 0x1, 3)), 501u + 130u);
  EXPECT_EQ(l2.stats().sectorHits, 1u);
  EXPECT_EQ(l2.stats().fabricSectors, 1u);
  // SM 0, the home's partition: the home hits.
  EXPECT_EQ(l2.request(600, read(kLine0, 0x1, 0)), 601u + 100u);
  EXPECT_EQ(l2.stats().sectorHits, 2u);
  // A sector the home has and the copy lacks: the SMs' lookup misses, the
  // fabric's hits, nothing goes to DRAM.
  l2.request(700, read(kLine0, 0x2, 0));
  EXPECT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(l2.request(1000, read(kLine0, 0x2, 1)), 1001u + 130u);
  EXPECT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(l2.stats().sectorHits, 2u);
  EXPECT_EQ(l2.stats().fabricSectors, 2u);
  EXPECT_EQ(l2.stats().fabricSectorHits, 1u);
  EXPECT_EQ(l2.stats().fabricSectorMisses, 1u);
}

TEST(L2PartitionCopies, AStoreRemovesItsSectorsFromTheOtherPartitionsCopies) {
  RecordingBackend backend(50);
  L2Cache l2(withCopies(), backend);
  l2.request(0, read(kLine0, 0x3, 1));    // the copy holds sectors 0 and 1
  l2.request(500, write(kLine0, 0x1, 0));  // the home's partition writes sector 0
  const uint64_t hits = l2.stats().sectorHits;
  // Sector 1 is still the copy's; sector 0 comes from the home again.
  l2.request(1000, read(kLine0, 0x3, 1));
  EXPECT_EQ(l2.stats().sectorHits, hits + 1);
  EXPECT_EQ(l2.stats().fabricSectorHits, 1u);  // sector 0, from the home
  EXPECT_EQ(backend.sent.size(), 1u);
}

TEST(L2PartitionCopies, FarStoresAndAtomicsAreFabricLookupsToo) {
  RecordingBackend backend(50);
  L2Cache l2(withCopies(), backend);
  l2.request(0, write(kLine0, 0x3, 1));  // far: two sectors, hits as every store's
  EXPECT_EQ(l2.stats().fabricSectors, 2u);
  EXPECT_EQ(l2.stats().fabricSectorHits, 2u);
  l2.request(100, write(kLine0, 0x4, 0));  // near: none
  EXPECT_EQ(l2.stats().fabricSectors, 2u);
  l2.request(200, atomic(kLine0, 0x1, 1, 3));  // far, sector 0 there: a hit
  EXPECT_EQ(l2.stats().fabricSectors, 3u);
  EXPECT_EQ(l2.stats().fabricSectorHits, 3u);
}

TEST(L2PartitionCopies, AFarStoreKeepsItsSectorsInItsPartitionsCopy) {
  RecordingBackend backend(50);
  L2Cache l2(withCopies(), backend);
  // SM 1 (far from line 0's home) stores sector 0: written at the home (a
  // fabric lookup, a hit as every store's), its copy holds it too.
  l2.request(0, write(kLine0, 0x1, 1));
  EXPECT_EQ(l2.stats().fabricSectors, 1u);
  // SM 3, the same partition, reads it from the copy: a hit, the home not
  // asked, nothing fetched.
  const uint64_t hits = l2.stats().sectorHits;
  l2.request(500, read(kLine0, 0x1, 3));
  EXPECT_EQ(l2.stats().sectorHits, hits + 1);
  EXPECT_EQ(l2.stats().fabricSectors, 1u);
  EXPECT_TRUE(backend.sent.empty());
  // The copy takes the set's other way: line 3 (set 0) then evicts the
  // least recently used of the two, the home's dirty line 0, written back.
  l2.request(600, read(kLine3, 0x1, 0));
  EXPECT_EQ(l2.stats().evictions, 1u);
  EXPECT_EQ(l2.stats().dirtyEvictions, 1u);
}

TEST(L2PartitionCopies, ACopyTakesAWayOfTheHomesSet) {
  // Line 0's home and SM 1's copy fill set 0's two ways; line 3 (set 0)
  // then takes the least recently used, the copy, so SM 1's next read of
  // line 0 misses and its new copy takes line 3's way (not its own home's),
  // the home answering (a fabric hit). Without copies the set keeps both
  // lines and the read hits.
  for (bool copies : {true, false}) {
    RecordingBackend backend(50);
    L2Config config = small();
    config.partitionCopies = copies;
    L2Cache l2(config, backend);
    l2.request(0, read(kLine0, 0x1, 1));
    l2.request(500, read(kLine3, 0x1, 0));
    const uint64_t hits = l2.stats().sectorHits;
    l2.request(1000, read(kLine0, 0x1, 1));
    EXPECT_EQ(l2.stats().sectorHits, hits + (copies ? 0u : 1u)) << copies;
    EXPECT_EQ(l2.stats().evictions, copies ? 2u : 0u) << copies;
    EXPECT_EQ(l2.stats().fabricSectorHits, 1u) << copies;  // without copies, every far read asks the home
    EXPECT_EQ(backend.sent.size(), 2u) << copies;  // lines 0 and 3 fetched once each
  }
}

}  // namespace
}  // namespace ptxsim::memory::test
