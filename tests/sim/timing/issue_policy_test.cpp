// The warp-scheduler policies, cycle by cycle, against hand-derived
// choices.
#include <gtest/gtest.h>

#include <vector>

#include "../../../sim/src/timing/schedulers/issue_policy.h"

namespace ptxsim::sim::timing {
namespace {

// `count` warps in slots 0.., age = slot, all ready.
std::vector<WarpCandidate> warps(uint32_t count) {
  std::vector<WarpCandidate> w(count);
  for (uint32_t i = 0; i < count; ++i) w[i] = {i, i, true, false};
  return w;
}

// The slots `policy` issues in `cycles` cycles over unchanging warps.
std::vector<uint32_t> run(IssuePolicy& policy, const std::vector<WarpCandidate>& w, int cycles) {
  std::vector<uint32_t> slots;
  for (int c = 0; c < cycles; ++c) {
    int i = policy.choose(w);
    slots.push_back(i < 0 ? 99 : w[static_cast<size_t>(i)].slot);
  }
  return slots;
}

using Slots = std::vector<uint32_t>;

TEST(IssuePolicy, LooseRoundRobinTakesTurnsAndSkipsWarpsThatCannotIssue) {
  auto policy = makeIssuePolicy("lrr");
  auto w = warps(4);
  EXPECT_EQ(run(*policy, w, 6), Slots({0, 1, 2, 3, 0, 1}));
  w[2].ready = false;
  EXPECT_EQ(run(*policy, w, 4), Slots({3, 0, 1, 3}));
  for (auto& c : w) c.ready = false;
  EXPECT_EQ(run(*policy, w, 1), Slots({99}));
}

TEST(IssuePolicy, GreedyThenOldestStaysWithItsWarpUntilItStalls) {
  auto policy = makeIssuePolicy("gto");
  auto w = warps(4);
  w[0].age = 10;  // slot 1 is the oldest
  EXPECT_EQ(run(*policy, w, 3), Slots({1, 1, 1}));
  w[1].ready = false;
  EXPECT_EQ(run(*policy, w, 2), Slots({2, 2}));  // the oldest ready: slot 2 (age 2)
  w[1].ready = true;
  EXPECT_EQ(run(*policy, w, 2), Slots({2, 2}));  // greedy: slot 2 keeps issuing
  w[2].ready = false;
  EXPECT_EQ(run(*policy, w, 1), Slots({1}));
}

TEST(IssuePolicy, OldestFirstAlwaysTakesTheOldestReadyWarp) {
  auto policy = makeIssuePolicy("oldest-first");
  auto w = warps(3);
  w[0].age = 5;
  w[1].age = 3;
  w[2].age = 9;
  EXPECT_EQ(run(*policy, w, 2), Slots({1, 1}));
  w[1].ready = false;
  EXPECT_EQ(run(*policy, w, 1), Slots({0}));
}

TEST(IssuePolicy, TwoLevelRotatesInItsActiveSetAndSwapsOutWarpsWaitingOnMemory) {
  auto policy = makeIssuePolicy("two-level");
  auto w = warps(10);
  // Eight active warps (slots 0..7) take turns; 8 and 9 wait their turn.
  EXPECT_EQ(run(*policy, w, 9), Slots({0, 1, 2, 3, 4, 5, 6, 7, 0}));
  // Slot 2 waits on memory: it leaves the active set and slot 8 joins at its end.
  w[2].waitingOnMemory = true;
  w[2].ready = false;
  EXPECT_EQ(run(*policy, w, 9), Slots({1, 3, 4, 5, 6, 7, 8, 0, 1}));
  // Its load returned: it waits in the pending set behind 9 until a place frees.
  w[2].waitingOnMemory = false;
  w[2].ready = true;
  policy->retire(5);  // slot 5 exited
  w.erase(w.begin() + 5);
  EXPECT_EQ(run(*policy, w, 8), Slots({3, 4, 6, 7, 8, 9, 0, 1}));
}

TEST(IssuePolicy, TheRegistryNamesEveryPolicy) {
  EXPECT_EQ(issuePolicyNames(), "lrr, gto, oldest-first, two-level");
  for (const IssuePolicyInfo& info : issuePolicies()) EXPECT_NE(makeIssuePolicy(info.name), nullptr) << info.name;
  EXPECT_EQ(makeIssuePolicy("fifo"), nullptr);
}

}  // namespace
}  // namespace ptxsim::sim::timing
