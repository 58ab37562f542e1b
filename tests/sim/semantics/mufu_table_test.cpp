// The packed form of the multi-function unit's tables: every entry comes
// back as stored, whether its block packs into bytes or is kept whole.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../../../sim/src/semantics/mufu_table.h"

namespace ptxsim::sim::semantics::mufu {
namespace {

std::vector<int32_t> differencesOf(const std::vector<uint32_t>& entries) {
  std::vector<int32_t> d(entries.size());
  uint32_t previous = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    d[i] = static_cast<int32_t>(entries[i] - previous);
    previous = entries[i];
  }
  return d;
}

TEST(MufuTable, EveryEntryComesBackPackedOrWhole) {
  // Rising by 0..2 (packs), falling (packs from the block's minimum),
  // jumps of thousands (kept whole), and wrap-around of the bit pattern.
  std::vector<uint32_t> entries(PackedTable::kEntries);
  uint64_t state = 12345;
  uint32_t value = 0x3f800000u;
  for (size_t i = 0; i < entries.size(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = static_cast<uint32_t>(state >> 33);
    if (i < (1u << 20)) value += r % 3;
    else if (i < (2u << 20)) value -= r % 2;
    else if (i < (3u << 20)) value += (i % 97 == 0) ? 5000 : 1;
    else value = r;  // anything
    entries[i] = value;
  }
  PackedTable table = PackedTable::fromDifferences(differencesOf(entries));
  for (uint32_t i = 0; i < entries.size(); ++i) ASSERT_EQ(table[i], entries[i]) << "entry " << i;
}

TEST(MufuTable, RejectsATableOfTheWrongSize) {
  std::vector<int32_t> tooShort(1000, 1);
  EXPECT_THROW(PackedTable::fromDifferences(tooShort), std::runtime_error);
}

// The embedded tables decode, and hold values read on the H100 (the probe's
// tables: rcp(1) = 1, rcp(1 + 2^-23) = 0x3f7ffffe, sqrt(2) = 0x3fb504f3,
// rsqrt(2) = 0x3f3504f2, lg2(0.5) = 0xbf7ffffe, ex2(0) = 1).
TEST(MufuTable, EmbeddedTablesHoldTheH100sValues) {
  EXPECT_EQ(table(TableId::Rcp)[0], 0x3f800000u);
  EXPECT_EQ(table(TableId::Rcp)[1], 0x3f7ffffeu);
  EXPECT_EQ(table(TableId::SqrtE1)[0], 0x3fb504f3u);
  EXPECT_EQ(table(TableId::RsqrtE1)[0], 0x3f3504f2u);
  EXPECT_EQ(table(TableId::Lg2Em1)[0], 0xbf7ffffeu);
  EXPECT_EQ(table(TableId::Ex2Pos)[0], 0x3f800000u);
  EXPECT_EQ(table(TableId::Ex2Neg)[0], 0x3f800000u);
  EXPECT_EQ(&table(TableId::Rcp), &table(TableId::Rcp)) << "decoded once";
}

}  // namespace
}  // namespace ptxsim::sim::semantics::mufu
