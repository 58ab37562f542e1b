// The replacement policies' registry and their ranks, against hand-derived
// orders; the caches' use of them is in l1_cache_test.cpp and
// l2_cache_test.cpp.
#include "ptxsim/memory/replacement_policy.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ptxsim::memory {
namespace {

TEST(ReplacementPolicy, EveryPolicyIsFoundByItsOwnName) {
  std::set<std::string_view> names;
  for (const ReplacementPolicy* policy : replacementPolicies()) {
    EXPECT_TRUE(names.insert(policy->name).second) << policy->name << " twice";
    EXPECT_EQ(findReplacementPolicy(policy->name), policy);
    EXPECT_FALSE(policy->description.empty()) << policy->name;
    EXPECT_NE(replacementPolicyNames().find(policy->name), std::string::npos);
  }
  EXPECT_EQ(findReplacementPolicy("lru"), &kLeastRecentlyUsed);
  EXPECT_EQ(findReplacementPolicy("fifo"), &kFirstInFirstOut);
  EXPECT_EQ(findReplacementPolicy("random"), &kRandom);
  EXPECT_EQ(findReplacementPolicy("plru"), nullptr);
  EXPECT_EQ(findReplacementPolicy(""), nullptr);
}

TEST(ReplacementPolicy, LruRanksEveryUseAtTheClockFifoOnlyTheFirst) {
  const RankContext at7{.tick = 7, .line = 0x80};
  EXPECT_EQ(kLeastRecentlyUsed.inserted(at7), 7u);
  EXPECT_EQ(kLeastRecentlyUsed.reused(at7, 3), 7u);
  EXPECT_EQ(kFirstInFirstOut.inserted(at7), 7u);
  EXPECT_EQ(kFirstInFirstOut.reused(at7, 3), 3u);
}

TEST(ReplacementPolicy, RandomDrawsANonZeroRankOnceAndKeepsIt) {
  std::set<uint64_t> ranks;
  for (uint64_t tick = 1; tick <= 64; ++tick) {
    const RankContext context{.tick = tick, .line = 0x1000};
    const uint64_t rank = kRandom.inserted(context);
    EXPECT_NE(rank, 0u);  // 0 marks a line just allocated
    EXPECT_EQ(kRandom.inserted(context), rank);
    EXPECT_EQ(kRandom.reused(context, rank), rank);
    ranks.insert(rank);
  }
  EXPECT_EQ(ranks.size(), 64u);
}

}  // namespace
}  // namespace ptxsim::memory
