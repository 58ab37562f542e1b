// The timing driver's store overlay (sim/src/exec/store_overlay.h): an SM's
// stores are its own until committed; the commit writes only the bytes
// stored, so two SMs' stores to one sector both land, in commit order where
// they overlap.
#include "../../sim/src/exec/store_overlay.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace ptxsim::sim::exec {
namespace {

constexpr uint64_t kBase = 0x10000;  // one 64 KiB page-store region of our own

uint32_t readWord(const memory::PageStore& pages, uint64_t address) {
  uint32_t value = 0;
  pages.read(address, &value, sizeof value);
  return value;
}

// A store through `overlay` the way ExecContext makes one: memory's bytes
// at the address, the allocation [kBase, kBase + 4096).
void store(StoreOverlay& overlay, memory::PageStore& pages, uint64_t address, uint32_t value) {
  std::vector<uint8_t> memoryBytes(StoreOverlay::kSectorBytes * 2);
  const uint64_t sector = address & ~(StoreOverlay::kSectorBytes - 1);
  pages.read(sector, memoryBytes.data(), StoreOverlay::kSectorBytes);
  uint8_t* at = overlay.store(address, sizeof value, memoryBytes.data() + (address - sector), kBase, kBase + 4096,
                              nullptr);
  std::memcpy(at, &value, sizeof value);
}

TEST(StoreOverlay, OwnStoresAreVisibleOthersOnlyAfterCommit) {
  memory::PageStore pages;
  const uint32_t before = 7;
  pages.write(kBase + 8, &before, sizeof before);
  StoreOverlay sm0, sm1;
  EXPECT_TRUE(sm0.empty());
  store(sm0, pages, kBase + 8, 42);
  // SM 0 reads its own store; memory (what SM 1 reads) still has the old value.
  ASSERT_NE(sm0.find(kBase + 8), nullptr);
  uint32_t seen = 0;
  std::memcpy(&seen, sm0.find(kBase + 8), sizeof seen);
  EXPECT_EQ(seen, 42u);
  EXPECT_EQ(sm1.find(kBase + 8), nullptr);
  EXPECT_EQ(readWord(pages, kBase + 8), 7u);
  // The rest of the sector reads as memory had it.
  const uint32_t neighbour = 9;
  pages.write(kBase + 0x40 + 4, &neighbour, sizeof neighbour);
  store(sm0, pages, kBase + 0x40, 1);
  std::memcpy(&seen, sm0.find(kBase + 0x44), sizeof seen);
  EXPECT_EQ(seen, 9u);
  sm0.commit(pages);
  EXPECT_TRUE(sm0.empty());
  EXPECT_EQ(sm0.find(kBase + 8), nullptr);
  EXPECT_EQ(readWord(pages, kBase + 8), 42u);
  EXPECT_EQ(readWord(pages, kBase + 0x44), 9u);
}

TEST(StoreOverlay, CommitWritesOnlyStoredBytesAndTheLaterCommitWins) {
  memory::PageStore pages;
  StoreOverlay sm0, sm1;
  // One sector: SM 0 stores words 0 and 1, SM 1 words 1 and 2.
  store(sm0, pages, kBase + 0, 10);
  store(sm0, pages, kBase + 4, 11);
  store(sm1, pages, kBase + 4, 21);
  store(sm1, pages, kBase + 8, 22);
  sm0.commit(pages);
  sm1.commit(pages);
  EXPECT_EQ(readWord(pages, kBase + 0), 10u);
  EXPECT_EQ(readWord(pages, kBase + 4), 21u);  // SM 1 committed after SM 0
  EXPECT_EQ(readWord(pages, kBase + 8), 22u);  // SM 0's copy of word 2 (0) was not written back
  EXPECT_EQ(readWord(pages, kBase + 12), 0u);
}

// What the driver does with many host threads: each share of the
// addresses committed for every SM in order, then the overlays cleared.
// Memory must read as if each SM had committed whole, in order.
TEST(StoreOverlay, CommittingByShareGivesTheWholeCommitsBytes) {
  memory::PageStore whole, shared;
  StoreOverlay wholeOverlays[2], sharedOverlays[2];
  for (uint32_t i = 0; i < 64; ++i) {
    // SM 0 every word of 2 KiB, SM 1 every third word over the same bytes.
    for (auto [overlays, pages] : {std::pair{wholeOverlays, &whole}, std::pair{sharedOverlays, &shared}}) {
      store(overlays[0], *pages, kBase + i * 32, 100 + i);
      store(overlays[0], *pages, kBase + i * 32 + 12, 200 + i);
      if (i % 3 == 0) store(overlays[1], *pages, kBase + i * 32 + 12, 300 + i);
    }
  }
  for (StoreOverlay& o : wholeOverlays) o.commit(whole);
  const unsigned shares = 3;
  for (unsigned share = 0; share < shares; ++share)
    for (StoreOverlay& o : sharedOverlays) o.commitShare(shared, share, shares);
  for (StoreOverlay& o : sharedOverlays) {
    o.clear();
    EXPECT_TRUE(o.empty());
    EXPECT_EQ(o.find(kBase), nullptr);
  }
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(readWord(shared, kBase + i * 32), 100 + i);
    ASSERT_EQ(readWord(shared, kBase + i * 32 + 12), i % 3 == 0 ? 300 + i : 200 + i);
    ASSERT_EQ(readWord(shared, kBase + i * 32 + 12), readWord(whole, kBase + i * 32 + 12));
  }
}

TEST(StoreOverlay, PartialSectorsAtAnAllocationEdgeAndManySectors) {
  memory::PageStore pages;
  StoreOverlay overlay;
  // A one-byte store in a 2-byte allocation at a sector's start: only its
  // bytes are copied, only the stored one marked.
  const uint8_t memoryBytes[2] = {0x11, 0x22};
  uint8_t* byte = overlay.store(kBase + 33, 1, memoryBytes + 1, kBase + 32, kBase + 34, nullptr);
  EXPECT_EQ(*byte, 0x22);
  EXPECT_EQ(*overlay.find(kBase + 32), 0x11);
  EXPECT_EQ(*overlay.find(kBase + 34), 0);  // outside the allocation: never read
  *byte = 0xab;
  // Enough sectors to make the table grow several times; pointers handed
  // out before stay valid.
  for (uint32_t i = 0; i < 1000; ++i) store(overlay, pages, kBase + 0x1000 + i * 32, i);
  *byte = 0xcd;
  EXPECT_EQ(overlay.sectors(), 1001u);
  overlay.commit(pages);
  uint8_t bytes[3] = {};
  pages.read(kBase + 32, bytes, 3);
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[1], 0xcd);
  EXPECT_EQ(bytes[2], 0);
  for (uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(readWord(pages, kBase + 0x1000 + i * 32), i);
  // A store crossing a sector is refused loudly.
  EXPECT_THROW(overlay.store(kBase + 28, 8, nullptr, kBase, kBase + 64, nullptr), std::logic_error);
}

}  // namespace
}  // namespace ptxsim::sim::exec
