// Allocation::bufferId, the driver's CU_POINTER_ATTRIBUTE_BUFFER_ID: each
// allocation of a run gets its own, never given again, whatever its kind,
// while graph memory restored at its address keeps the one it had.

#include <gtest/gtest.h>

#include <set>

#include "ptxsim/memory/allocation_table.h"

namespace ptxsim::memory {
namespace {

TEST(AllocationBufferId, EveryAllocationHasItsOwnFromOne) {
  AllocationTable table;
  uint64_t first = table.allocate(100, 256, AllocationKind::Device).bufferId;
  uint64_t second = table.allocate(100, 256, AllocationKind::Managed).bufferId;
  alignas(64) static uint8_t host[64];
  ASSERT_TRUE(table.addHostRange(host, sizeof host, AllocationKind::Host));
  uint64_t third = table.find(reinterpret_cast<uint64_t>(host))->bufferId;
  uint64_t reservation = table.reserve(1 << 16, 1 << 16);
  uint64_t fourth = table.allocateAt(reservation, 4096, AllocationKind::Device).bufferId;
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(std::set<uint64_t>({first, second, third, fourth}).size(), 4u);
}

TEST(AllocationBufferId, AFreedOnesNumberIsNotGivenAgain) {
  AllocationTable table;
  const Allocation& a = table.allocate(64, 256, AllocationKind::Device);
  uint64_t base = a.base;
  uint64_t id = a.bufferId;
  EXPECT_EQ(table.find(base + 10)->bufferId, id);  // an inner pointer names the same buffer
  ASSERT_TRUE(table.release(base).has_value());
  EXPECT_NE(table.allocate(64, 256, AllocationKind::Device).bufferId, id);
}

TEST(AllocationBufferId, RestoredGraphMemoryKeepsItsNumber) {
  AllocationTable table;
  const Allocation& a = table.allocate(64, 256, AllocationKind::Device);
  uint64_t base = a.base;
  uint64_t id = a.bufferId;
  ASSERT_TRUE(table.release(base).has_value());
  ASSERT_TRUE(table.restore(base));
  EXPECT_EQ(table.find(base)->bufferId, id);
}

}  // namespace
}  // namespace ptxsim::memory
