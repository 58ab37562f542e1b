// Per-quad sector lookups of a texture fetch against hand-counted sectors.
#include "ptxsim/memory/texture_lookups.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ptxsim::memory {
namespace {

struct Texels {
  std::vector<uint64_t> addresses;
  std::vector<uint8_t> lanes;
  void add(uint64_t address, unsigned lane) {
    addresses.push_back(address);
    lanes.push_back(static_cast<uint8_t>(lane));
  }
};

// One float a lane, lane l at first + 4 l.
Texels row(uint64_t first) {
  Texels t;
  for (unsigned lane = 0; lane < 32; ++lane) t.add(first + 4 * lane, lane);
  return t;
}

TEST(TextureLookups, AnAlignedRowIsOneSectorAQuad) {
  Texels t = row(0x1000);
  EXPECT_EQ(quadSectorLookups(t.addresses, t.lanes, 4), 8u);  // 4 distinct sectors, 8 quads
}

TEST(TextureLookups, AMisalignedLinearRowStraddlesEveryOtherQuad) {
  // Quad q reads bytes 4 + 16 q .. 19 + 16 q: quads 1, 3, 5, 7 cross a 32-byte boundary.
  Texels t = row(0x1004);
  EXPECT_EQ(quadSectorLookups(t.addresses, t.lanes, 4), 12u);
}

TEST(TextureLookups, BlockLinearRowsOfSixteenBytesCostTwoAQuadWhenMisaligned) {
  // In block-linear memory a sector holds 16 bytes of each of 2 rows: byte b
  // of row 0 is in GOB b / 64 (512 bytes each, one GOB tall blocks here) at
  // (b & 15) | ((b >> 4) & 1) << 5 | ((b >> 5) & 1) << 8, so every 16-byte
  // piece of the row is a sector of its own. Quad q reads bytes 16 q ..
  // 16 q + 15 (one piece) aligned, 16 q + 4 .. 16 q + 19 (two) shifted by a float.
  auto blockLinear = [](uint64_t b) {
    const uint64_t g = b % 64;
    return b / 64 * 512 + ((g & 15) | (((g >> 4) & 1) << 5) | (((g >> 5) & 1) << 8));
  };
  Texels aligned, shifted;
  for (unsigned lane = 0; lane < 32; ++lane) {
    aligned.add(blockLinear(4 * lane), lane);
    shifted.add(blockLinear(4 + 4 * lane), lane);
  }
  EXPECT_EQ(quadSectorLookups(aligned.addresses, aligned.lanes, 4), 8u);
  EXPECT_EQ(quadSectorLookups(shifted.addresses, shifted.lanes, 4), 16u);
}

TEST(TextureLookups, FilteredTexelsOfAQuadShareSectors) {
  // Lanes 0-3 each read a 2x2 footprint inside one 32-byte sector: 1 lookup.
  // Lane 4 alone reads two texels in two sectors: 2 lookups.
  Texels t;
  for (unsigned lane = 0; lane < 4; ++lane) {
    t.add(0x2000 + 4 * lane, lane);
    t.add(0x2004 + 4 * lane, lane);
  }
  t.add(0x3000, 4);
  t.add(0x3020, 4);
  EXPECT_EQ(quadSectorLookups(t.addresses, t.lanes, 4), 3u);
}

TEST(TextureLookups, TexelsStraddlingSectorsCountBoth) {
  Texels t;
  t.add(0x101c, 0);  // 8 bytes: 0x101c..0x1023, sectors 0x80 and 0x81
  EXPECT_EQ(quadSectorLookups(t.addresses, t.lanes, 8), 2u);
  EXPECT_EQ(quadSectorLookups({}, {}, 4), 0u);
}

TEST(TextureLookups, QuadsAreSetsOfFourLanesNotOfFourTexels) {
  // Lanes 3 and 4 read the same sector but are in different quads.
  Texels t;
  t.add(0x4000, 3);
  t.add(0x4004, 4);
  EXPECT_EQ(quadSectorLookups(t.addresses, t.lanes, 4), 2u);
}

}  // namespace
}  // namespace ptxsim::memory
