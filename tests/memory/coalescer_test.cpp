// Coalescing a warp's global access into sectors and lines, against
// hand-derived counts.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "warp_addresses.h"
#include "ptxsim/memory/coalescer.h"

namespace ptxsim::memory {
namespace {

using test::strided;
constexpr uint32_t kAll = test::kAllLanes;

TEST(Coalescer, AListOfTexelsMergesIntoSectorsInListOrder) {
  // A bilinear footprint of 4-byte texels in rows 256 bytes apart, and a
  // second lane's footprint overlapping it by a column.
  std::vector<uint64_t> texels = {0x10fc, 0x1100, 0x11fc, 0x1200, 0x1100, 0x1104, 0x1200, 0x1204};
  CoalescedAccess a = coalesce(texels, 4);
  ASSERT_EQ(a.lines.size(), 4u);
  EXPECT_EQ(a.lines[0].address, 0x1080u);
  EXPECT_EQ(a.lines[0].sectorMask, 0x8u);  // 0x10fc: the line's last sector
  EXPECT_EQ(a.lines[1].address, 0x1100u);
  EXPECT_EQ(a.lines[1].sectorMask, 0x1u);
  EXPECT_EQ(a.lines[2].address, 0x1180u);
  EXPECT_EQ(a.lines[2].sectorMask, 0x8u);
  EXPECT_EQ(a.lines[3].address, 0x1200u);
  EXPECT_EQ(a.lines[3].sectorMask, 0x1u);
  EXPECT_EQ(a.sectors, 4u);
  EXPECT_EQ(coalesce(std::vector<uint64_t>{}, 4).sectors, 0u);
}

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
