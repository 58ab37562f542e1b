// AllocationTable::restore: graph memory maps an allocation again at the
// address it had, and accesses follow its state (live, freed, live again).

#include <gtest/gtest.h>

#include "ptxsim/memory/allocation_table.h"

namespace ptxsim::memory {
namespace {

TEST(AllocationRestore, FreedRangeBecomesLiveAtTheSameAddress) {
  AllocationTable table;
  uint64_t base = table.allocate(1000, 512, AllocationKind::Device).base;
  ASSERT_TRUE(table.release(base).has_value());
  EXPECT_EQ(table.check(base, 4).status, AccessStatus::Freed);
  EXPECT_EQ(table.liveBytes(), 0u);

  ASSERT_TRUE(table.restore(base));
  EXPECT_EQ(table.check(base + 996, 4).status, AccessStatus::Ok);
  EXPECT_EQ(table.check(base + 998, 4).status, AccessStatus::OutOfBounds);
  EXPECT_EQ(table.liveBytes(), 1000u);

  // Freed again, then restored again: each launch of a graph does this.
  ASSERT_TRUE(table.release(base).has_value());
  EXPECT_EQ(table.check(base, 4).status, AccessStatus::Freed);
  EXPECT_TRUE(table.restore(base));
}

TEST(AllocationRestore, RefusesWhatWasNeverFreed) {
  AllocationTable table;
  uint64_t base = table.allocate(256, 256, AllocationKind::Device).base;
  EXPECT_FALSE(table.restore(base));      // live already
  EXPECT_FALSE(table.restore(base + 8));  // not the start of an allocation
  EXPECT_FALSE(table.restore(0x1234));    // nothing there
  // A fresh allocation never lands on a range kept for restoring.
  ASSERT_TRUE(table.release(base).has_value());
  uint64_t next = table.allocate(256, 256, AllocationKind::Device).base;
  EXPECT_NE(next, base);
  EXPECT_TRUE(table.restore(base));
}

}  // namespace
}  // namespace ptxsim::memory
