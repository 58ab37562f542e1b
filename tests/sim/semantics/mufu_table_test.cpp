// The packed form of the multi-function unit's tables: every entry comes
// back as stored, whether its block packs into bytes or is kept whole.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "../../../sim/src/semantics/mufu_near_table.h"
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
  std::vector<uint32_t> entries(size_t{1} << 23);
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


TEST(MufuTable, ATableOfAnyLengthEndsInAPartialBlock) {
  // 1000 entries: 31 whole blocks of 32 and a last one of 8, one jump kept whole.
  std::vector<uint32_t> entries(1000);
  for (size_t i = 0; i < entries.size(); ++i) entries[i] = 0x3c00u + static_cast<uint32_t>(i) * 3 + (i >= 990 ? 70000u : 0u);
  PackedTable table = PackedTable::fromDifferences(differencesOf(entries));
  for (uint32_t i = 0; i < entries.size(); ++i) ASSERT_EQ(table[i], entries[i]) << i;
}
TEST(MufuTable, RejectsATableOfTheWrongSize) {
  std::vector<int32_t> differences(1001, 1);
  PackedTable::Builder tooShort(1000);
  tooShort.add(std::span<const int32_t>(differences).first(999));
  EXPECT_THROW(tooShort.finish(), std::runtime_error);
  PackedTable::Builder tooLong(1000);
  EXPECT_THROW(tooLong.add(differences), std::runtime_error);
}

// The embedded tables decode, and hold values read on the H100 (the probe's
// tables: rcp(1) = 1, rcp(1 + 2^-23) = 0x3f7ffffe, sqrt(2) = 0x3fb504f3,
// rsqrt(2) = 0x3f3504f2, lg2(0.5) = 0xbf7ffffe, ex2(0) = 1).
TEST(MufuTable, EmbeddedTablesHoldTheH100sValues) {
  EXPECT_EQ(entry(TableId::Rcp, 0), 0x3f800000u);
  EXPECT_EQ(entry(TableId::Rcp, 1), 0x3f7ffffeu);  // correctly rounded: 0x3f7ffffe too
  EXPECT_EQ(entry(TableId::SqrtE1, 0), 0x3fb504f3u);
  EXPECT_EQ(entry(TableId::RsqrtE1, 0), 0x3f3504f2u);  // one below the correctly rounded 0x3f3504f3
  EXPECT_EQ(entry(TableId::Lg2Em1, 0), 0xbf7ffffeu);
  EXPECT_EQ(entry(TableId::Ex2Pos, 0), 0x3f800000u);
  EXPECT_EQ(entry(TableId::Ex2Neg, 0), 0x3f800000u);
  // The later tables (mufu_explore_probe_gpu.txt, mufu_trig_probe_gpu.txt):
  // sin at 2^-25 and a quarter and an eighth of a turn, tanh.f32(2^-8) and
  // (1), the f64 upper words of rcp(1), rcp(1 + 2^-20), rsqrt(2), and the
  // 16-bit tables at 1 (ex2.f16 at -1; ex2.bf16 of -2.8e-14 is 1).
  EXPECT_EQ(entry(TableId::SinHalf, 0), 0u);
  EXPECT_EQ(entry(TableId::SinHalf, 1), 0x34491200u);
  EXPECT_EQ(entry(TableId::SinHalf, 1u << 23), 0x3f800000u);
  EXPECT_EQ(entry(TableId::SinHalf, 1u << 22), 0x3f3504f2u);
  EXPECT_EQ(entry(TableId::TanhF32, 0), 0x3b800000u);
  EXPECT_EQ(entry(TableId::TanhF32, tanhBinadeOffset(0)), 0x3f42f848u);
  EXPECT_EQ(entry(TableId::Rcp64H, 0), 0x3ff00000u);
  EXPECT_EQ(entry(TableId::Rcp64H, 1), 0x3feffffeu);
  EXPECT_EQ(entry(TableId::Rsqrt64HE1, 0), 0x3fe6a09eu);
  EXPECT_EQ(entry(TableId::TanhF16, 0x3c00), 0x3a17u);
  EXPECT_EQ(entry(TableId::TanhBf16, 0x3f80), 0x3f42u);
  EXPECT_EQ(entry(TableId::Ex2Bf16, 0x3f80), 0x4000u);
  EXPECT_EQ(entry(TableId::Ex2Bf16, 0xa8f9), 0x3f80u);
  EXPECT_EQ(entry(TableId::Ex2F16, 0xbc00), 0x3800u);
}

// Entries near a reference take 2 bits; the others are listed, and every
// one comes back.
uint32_t squareish(uint32_t i) { return i * 3 + 0x1000; }

TEST(MufuTable, NearTablesCodeTheOffsetAndListTheRest) {
  std::vector<uint32_t> entries(NearTable::kEntries);
  for (uint32_t i = 0; i < entries.size(); ++i) {
    uint32_t offset = i % 7 == 0 ? 1u : i % 11 == 0 ? static_cast<uint32_t>(-1) : 0u;
    entries[i] = squareish(i) + offset;
    if (i % 1001 == 0) entries[i] = squareish(i) + 2;        // listed
    if (i % 4093 == 0) entries[i] = 0xdeadbeefu ^ i;         // listed, far off
  }
  NearTable::Builder builder(&squareish);
  std::vector<int32_t> d = differencesOf(entries);
  builder.add(std::span<const int32_t>(d).first(12345));
  builder.add(std::span<const int32_t>(d).subspan(12345));
  NearTable table = builder.finish();
  for (uint32_t i = 0; i < entries.size(); ++i) ASSERT_EQ(table[i], entries[i]) << "entry " << i;
}

}  // namespace
}  // namespace ptxsim::sim::semantics::mufu
