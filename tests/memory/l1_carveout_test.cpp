// L1 capacity beside the smallest shared-memory carveout that fits, against
// the sm_90 option list.
#include "ptxsim/memory/l1_carveout.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

namespace ptxsim::memory {
namespace {

constexpr uint32_t kKiB = 1024;

TEST(L1Carveout, SmallestFittingSm90Carveout) {
  EXPECT_EQ(l1CapacityBytes(0), 256 * kKiB);
  EXPECT_EQ(l1CapacityBytes(1), 248 * kKiB);
  EXPECT_EQ(l1CapacityBytes(8 * kKiB), 248 * kKiB);
  EXPECT_EQ(l1CapacityBytes(8 * kKiB + 1), 240 * kKiB);
  EXPECT_EQ(l1CapacityBytes(100 * kKiB), 156 * kKiB);
  EXPECT_EQ(l1CapacityBytes(100 * kKiB + 1), 124 * kKiB);
  EXPECT_EQ(l1CapacityBytes(228 * kKiB), 28 * kKiB);
  EXPECT_EQ(sharedCarveoutBytes(65 * kKiB), 100 * kKiB);
}

TEST(L1Carveout, MoreSharedMemoryThanAnyCarveoutIsAnError) {
  EXPECT_THROW(l1CapacityBytes(228 * kKiB + 1), std::invalid_argument);
}

TEST(L1Carveout, OtherArraysAndOptionLists) {
  constexpr std::array<uint32_t, 3> kOptions{48, 16, 32};  // order does not matter
  EXPECT_EQ(l1CapacityBytes(20 * kKiB, 64 * kKiB, kOptions), 32 * kKiB);
  EXPECT_THROW(l1CapacityBytes(40 * kKiB, 32 * kKiB, kOptions), std::invalid_argument);
}

}  // namespace
}  // namespace ptxsim::memory
