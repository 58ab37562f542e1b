#include "managed_advice.h"

#include <gtest/gtest.h>

namespace ptxsim::cudart {
namespace {

constexpr uint64_t kPage = ManagedAdvice::kPageBytes;
constexpr uint64_t kBase = 0x10000000;

int intOf(const ManagedAdvice& a, cudaMemRangeAttribute attribute, uint64_t address, uint64_t bytes) {
  int value = 12345;
  EXPECT_EQ(a.query(attribute, address, bytes, &value, sizeof value), cudaSuccess);
  return value;
}

TEST(ManagedAdvice, ReadMostlyHoldsOnlyWhereEveryPageHasIt) {
  ManagedAdvice a;
  a.advise(kBase, 4 * kPage, cudaMemAdviseSetReadMostly, {cudaMemLocationTypeHost, 0});
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeReadMostly, kBase, 4 * kPage), 1);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeReadMostly, kBase, 5 * kPage), 0);
  a.advise(kBase + kPage, 1, cudaMemAdviseUnsetReadMostly, {cudaMemLocationTypeHost, 0});  // a whole page
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeReadMostly, kBase, kPage), 1);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeReadMostly, kBase + kPage + 100, 8), 0);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeReadMostly, kBase + 2 * kPage, 2 * kPage), 1);
}

TEST(ManagedAdvice, PreferredLocationInBothForms) {
  ManagedAdvice a;
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocation, kBase, kPage), cudaInvalidDeviceId);
  a.advise(kBase, 2 * kPage, cudaMemAdviseSetPreferredLocation, {cudaMemLocationTypeDevice, 0});
  a.advise(kBase + 2 * kPage, 2 * kPage, cudaMemAdviseSetPreferredLocation, {cudaMemLocationTypeHost, 0});
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocation, kBase, 2 * kPage), 0);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocation, kBase + 2 * kPage, kPage), cudaCpuDeviceId);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocation, kBase, 4 * kPage), cudaInvalidDeviceId);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocationType, kBase, kPage), cudaMemLocationTypeDevice);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocationId, kBase, kPage), 0);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocationType, kBase + 3 * kPage, kPage),
            cudaMemLocationTypeHost);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocationType, kBase, 3 * kPage),
            cudaMemLocationTypeInvalid);
  a.advise(kBase, 4 * kPage, cudaMemAdviseUnsetPreferredLocation, {cudaMemLocationTypeHost, 0});
  EXPECT_EQ(intOf(a, cudaMemRangeAttributePreferredLocation, kBase, 4 * kPage), cudaInvalidDeviceId);
}

TEST(ManagedAdvice, AccessedByListsDevicesSetOverTheWholeRangeThenPads) {
  ManagedAdvice a;
  a.advise(kBase, 4 * kPage, cudaMemAdviseSetAccessedBy, {cudaMemLocationTypeDevice, 0});
  a.advise(kBase, 2 * kPage, cudaMemAdviseSetAccessedBy, {cudaMemLocationTypeHost, 0});
  int list[3];
  ASSERT_EQ(a.query(cudaMemRangeAttributeAccessedBy, kBase, 2 * kPage, list, sizeof list), cudaSuccess);
  EXPECT_EQ(list[0], cudaCpuDeviceId);
  EXPECT_EQ(list[1], 0);
  EXPECT_EQ(list[2], cudaInvalidDeviceId);
  ASSERT_EQ(a.query(cudaMemRangeAttributeAccessedBy, kBase, 4 * kPage, list, sizeof list), cudaSuccess);
  EXPECT_EQ(list[0], 0);
  EXPECT_EQ(list[1], cudaInvalidDeviceId);
  EXPECT_EQ(a.query(cudaMemRangeAttributeAccessedBy, kBase, kPage, list, 6), cudaErrorInvalidValue);
  a.advise(kBase, 4 * kPage, cudaMemAdviseUnsetAccessedBy, {cudaMemLocationTypeDevice, 0});
  ASSERT_EQ(a.query(cudaMemRangeAttributeAccessedBy, kBase + 3 * kPage, kPage, list, sizeof(int)),
            cudaSuccess);
  EXPECT_EQ(list[0], cudaInvalidDeviceId);
}

TEST(ManagedAdvice, LastPrefetchAndForgetting) {
  ManagedAdvice a;
  a.prefetched(kBase, 2 * kPage, {cudaMemLocationTypeDevice, 0});
  a.prefetched(kBase + 2 * kPage, kPage, {cudaMemLocationTypeHostNumaCurrent, 0});
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeLastPrefetchLocation, kBase, 2 * kPage), 0);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeLastPrefetchLocation, kBase + 2 * kPage, 1), cudaCpuDeviceId);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeLastPrefetchLocationType, kBase + 2 * kPage, 1),
            cudaMemLocationTypeHostNuma);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeLastPrefetchLocation, kBase, 3 * kPage), cudaInvalidDeviceId);
  a.forget(kBase, 3 * kPage);
  EXPECT_EQ(intOf(a, cudaMemRangeAttributeLastPrefetchLocationType, kBase, kPage),
            cudaMemLocationTypeInvalid);
}

TEST(ManagedAdvice, RefusesWrongSizesAndUnknownAttributes) {
  ManagedAdvice a;
  int value[2];
  EXPECT_EQ(a.query(cudaMemRangeAttributeReadMostly, kBase, kPage, value, 8), cudaErrorInvalidValue);
  EXPECT_EQ(a.query(static_cast<cudaMemRangeAttribute>(99), kBase, kPage, value, 4), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace ptxsim::cudart
