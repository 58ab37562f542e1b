// The address hash that spreads lines over L2 slices and sets and chunks
// over HBM channels, against hand-folded values.
#include "ptxsim/memory/address_hash.h"

#include <gtest/gtest.h>

#include <set>

namespace ptxsim::memory {
namespace {

TEST(AddressHash, XorFoldCombinesGroupsOfBits) {
  EXPECT_EQ(xorFold(0b110110, 2), 0u);  // 10 ^ 01 ^ 11
  EXPECT_EQ(xorFold(0b1011, 3), 2u);    // 011 ^ 001
  EXPECT_EQ(xorFold(12345, 0), 0u);
}

TEST(AddressHash, ConsecutiveChunksRotateWithinABlock) {
  // 4 units: chunk c goes to (c % 4 + c / 4) % 4 while c / 4 < 4.
  EXPECT_EQ(spreadIndex(5, 4), 2u);
  EXPECT_EQ(spreadIndex(11, 4), 1u);
  for (uint64_t block : {0ull, 1ull, 77ull, 1ull << 40}) {
    std::set<uint32_t> units;
    for (uint64_t c = 0; c < 48; ++c) units.insert(spreadIndex(block * 48 + c, 48));
    EXPECT_EQ(units.size(), 48u) << "block " << block;
  }
  EXPECT_EQ(spreadIndex(123456789, 1), 0u);
}

}  // namespace
}  // namespace ptxsim::memory
