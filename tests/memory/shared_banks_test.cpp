// Shared-memory wavefronts per warp access, against hand-derived counts
// (and the H100's: an n-way conflict costs n passes, a broadcast none).
#include <gtest/gtest.h>

#include <array>

#include "warp_addresses.h"
#include "ptxsim/memory/shared_banks.h"

namespace ptxsim::memory {
namespace {

using test::strided;
constexpr uint32_t kAll = test::kAllLanes;

TEST(SharedBanks, AnNWayConflictTakesNPasses) {
  for (uint32_t ways : {1u, 2u, 4u, 8u, 16u, 32u}) {
    // Stride of `ways` words: each bank holds `ways` distinct words.
    EXPECT_EQ(sharedWavefronts(strided(4 * ways), kAll, 4), ways) << ways << "-way";
  }
  // Stride 3 words is odd: every lane in its own bank.
  EXPECT_EQ(sharedWavefronts(strided(12), kAll, 4), 1u);
}

TEST(SharedBanks, LanesReadingOneWordShareIt) {
  EXPECT_EQ(sharedWavefronts(strided(0, 64), kAll, 4), 1u);  // broadcast
  // Pairs of lanes on one word, 16 words in 16 banks.
  std::array<uint64_t, 32> pairs{};
  for (uint32_t i = 0; i < 32; ++i) pairs[i] = (i / 2) * 4;
  EXPECT_EQ(sharedWavefronts(pairs, kAll, 4), 1u);
  // Bytes of one word count as the word.
  EXPECT_EQ(sharedWavefronts(strided(1), kAll, 1), 1u);
}

TEST(SharedBanks, OnlyActiveLanesCount) {
  EXPECT_EQ(sharedWavefronts(strided(128), 0x1u, 4), 1u);
  EXPECT_EQ(sharedWavefronts(strided(128), 0x000000ffu, 4), 8u);
  EXPECT_EQ(sharedWavefronts(strided(128), 0, 4), 0u);
}

TEST(SharedBanks, WideAccessesAreServedByPartsOfTheWarp) {
  EXPECT_EQ(sharedWavefronts(strided(8), kAll, 8), 2u);    // half-warps, conflict-free
  EXPECT_EQ(sharedWavefronts(strided(16), kAll, 16), 4u);  // quarter-warps, conflict-free
  EXPECT_EQ(sharedWavefronts(strided(16), kAll, 8), 4u);   // 8 bytes at a 16-byte stride: 2-way per half-warp
  EXPECT_EQ(sharedWavefronts(strided(0), kAll, 16), 4u);   // one 16-byte broadcast per quarter-warp
  EXPECT_EQ(sharedWavefronts(strided(8), 0x0000ffffu, 8), 1u);  // one half-warp only
}

TEST(SharedBanks, OtherGeometries) {
  SharedBankGeometry sixteen{16, 4};
  EXPECT_EQ(sharedWavefronts(strided(4), kAll, 4, sixteen), 2u);  // 32 words over 16 banks
}

}  // namespace
}  // namespace ptxsim::memory
