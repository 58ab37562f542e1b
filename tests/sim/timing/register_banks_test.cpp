// Register-bank conflicts (sim/src/timing/register_banks.h) against counts
// worked by hand: sources in one bank are read one a cycle; the reuse cache
// and a register read twice take no extra read.
#include <gtest/gtest.h>

#include "../../../sim/src/timing/register_banks.h"

namespace ptxsim::sim::timing {
namespace {

// Sources (register, bank) by slot; kNoRegister for an empty slot.
OperandSources sources(std::initializer_list<std::pair<uint32_t, uint8_t>> slots) {
  OperandSources s;
  size_t i = 0;
  for (auto [reg, bank] : slots) {
    s.reg[i] = reg;
    s.bank[i] = bank;
    ++i;
  }
  return s;
}

const OperandSources kNothingBefore;

TEST(RegisterBanks, SourcesInDifferentBanksReadTogether) {
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {2, 2}, {3, 3}}), kNothingBefore), 0u);
}

TEST(RegisterBanks, EachExtraReadOfABankCostsACycle) {
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {5, 1}, {2, 2}}), kNothingBefore), 1u);
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {5, 1}, {9, 1}}), kNothingBefore), 2u);
}

TEST(RegisterBanks, TheReuseCacheServesASourceInTheSameSlot) {
  OperandSources previous = sources({{7, 3}, {5, 1}, {9, 1}});
  // Slots B and C as before: only slot A reads a bank.
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {5, 1}, {9, 1}}), previous), 0u);
  // The same registers in other slots are not in the reuse cache.
  EXPECT_EQ(bankConflictCycles(sources({{5, 1}, {9, 1}, {1, 1}}), previous), 2u);
}

TEST(RegisterBanks, ARegisterReadInTwoSlotsIsReadOnce) {
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {1, 1}, {5, 1}}), kNothingBefore), 1u);
  EXPECT_EQ(bankConflictCycles(sources({{1, 1}, {1, 1}}), kNothingBefore), 0u);
}

}  // namespace
}  // namespace ptxsim::sim::timing
