// Coalescing a warp's global access into sectors and lines, against
// hand-derived counts.
#include <gtest/gtest.h>

#include <array>

#include "warp_addresses.h"
#include "ptxsim/memory/coalescer.h"

namespace ptxsim::memory {
namespace {

using test::strided;
constexpr uint32_t kAll = test::kAllLanes;

TEST(Coalescer, ConsecutiveWordsFillOneLine) {
  CoalescedAccess a = coalesce(strided(4, 0x1000), kAll, 4);
  ASSERT_EQ(a.lines.size(), 1u);
  EXPECT_EQ(a.lines[0].address, 0x1000u);
  EXPECT_EQ(a.lines[0].sectorMask, 0xfu);
  EXPECT_EQ(a.sectors, 4u);
}

TEST(Coalescer, MisalignedAndWideAccessesSpanMoreLines) {
  CoalescedAccess shifted = coalesce(strided(4, 0x1004), kAll, 4);  // one word past a line boundary
  EXPECT_EQ(shifted.lines.size(), 2u);
  EXPECT_EQ(shifted.sectors, 5u);
  CoalescedAccess doubles = coalesce(strided(8, 0x2000), kAll, 8);
  EXPECT_EQ(doubles.lines.size(), 2u);
  EXPECT_EQ(doubles.sectors, 8u);
  CoalescedAccess straddle = coalesce(strided(0, 0x201e), 0x1u, 4);  // bytes 0x1e..0x21
  EXPECT_EQ(straddle.sectors, 2u);
  EXPECT_EQ(straddle.lines[0].sectorMask, 0x3u);
}

TEST(Coalescer, ScatteredLanesTakeALineEach) {
  CoalescedAccess a = coalesce(strided(4096), kAll, 4);
  EXPECT_EQ(a.lines.size(), 32u);
  EXPECT_EQ(a.sectors, 32u);
  CoalescedAccess same = coalesce(strided(0, 0x40), kAll, 4);  // broadcast of one word
  EXPECT_EQ(same.lines.size(), 1u);
  EXPECT_EQ(same.lines[0].sectorMask, 0x4u);
  EXPECT_EQ(coalesce(strided(4), 0, 4).sectors, 0u);
}

}  // namespace
}  // namespace ptxsim::memory
