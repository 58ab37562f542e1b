// LateAnswers: which waiters a later real answer moves, and how far.
#include "../../../sim/src/timing/late_answers.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace ptxsim::sim::timing {
namespace {

struct Moved {
  exec::Warp* warp;
  uint64_t from;
  uint64_t to;
};

std::vector<Moved> reviseAll(LateAnswers& late, std::vector<std::pair<uint64_t, uint64_t>>* fills = nullptr) {
  std::vector<Moved> moved;
  late.revise(
      [&](uint64_t ticket, uint64_t answer) {
        if (fills != nullptr) fills->emplace_back(ticket, answer);
      },
      [&](const LateAnswers::Waiter& waiter, uint64_t to) {
        moved.push_back({waiter.warp, waiter.ready, to});
      });
  return moved;
}

TEST(LateAnswers, MovesEachWaiterToItsLatestAnswerPlusItsOffset) {
  auto* warpA = reinterpret_cast<exec::Warp*>(0x10);
  auto* warpB = reinterpret_cast<exec::Warp*>(0x20);
  LateAnswers late;
  const std::array<uint64_t, 2> twoFetches{7, 8};
  const std::array<uint64_t, 1> oneFetch{8};
  late.noteAccess(twoFetches, {warpA, {}, 500, 0});  // a load that waits on fetches 7 and 8
  late.noteAccess(oneFetch, {warpB, {}, 620, 120});  // a texture fetch: 120 cycles after fetch 8
  late.lateAnswer(8, 560);                           // the driver gives answers in its own order
  late.lateAnswer(7, 530);
  std::vector<std::pair<uint64_t, uint64_t>> fills;
  std::vector<Moved> moved = reviseAll(late, &fills);
  // The fills are revised in ticket order.
  EXPECT_EQ(fills, (std::vector<std::pair<uint64_t, uint64_t>>{{7, 530}, {8, 560}}));
  // A: 500 -> 530 (fetch 7) -> 560 (fetch 8); B: 620 stays (560 + 120 = 680 moves it).
  ASSERT_EQ(moved.size(), 3u);
  EXPECT_EQ(moved[0].warp, warpA);
  EXPECT_EQ(moved[0].from, 500u);
  EXPECT_EQ(moved[0].to, 530u);
  EXPECT_EQ(moved[1].warp, warpA);
  EXPECT_EQ(moved[1].from, 530u);
  EXPECT_EQ(moved[1].to, 560u);
  EXPECT_EQ(moved[2].warp, warpB);
  EXPECT_EQ(moved[2].to, 680u);
}

TEST(LateAnswers, AnAnswerNoLaterThanTheWaitersOwnCycleMovesNothing) {
  auto* warp = reinterpret_cast<exec::Warp*>(0x10);
  LateAnswers late;
  const std::array<uint64_t, 1> fetch{3};
  late.noteAccess(fetch, {warp, {}, 900, 0});  // it also waited on something later
  late.lateAnswer(3, 700);
  EXPECT_TRUE(reviseAll(late).empty());
}

TEST(LateAnswers, ForgetsTheWindowOnceRevised) {
  auto* warp = reinterpret_cast<exec::Warp*>(0x10);
  LateAnswers late;
  const std::array<uint64_t, 1> fetch{3};
  late.noteAccess(fetch, {warp, {}, 400, 0});
  EXPECT_TRUE(reviseAll(late).empty());  // no late answer: the access stood
  late.lateAnswer(3, 800);               // a ticket of the next window names no waiter now
  std::vector<std::pair<uint64_t, uint64_t>> fills;
  EXPECT_TRUE(reviseAll(late, &fills).empty());
  EXPECT_EQ(fills.size(), 1u);  // the fill is still revised
  // The late answer is forgotten too: a waiter noted since sees none.
  late.noteAccess(fetch, {warp, {}, 400, 0});
  fills.clear();
  EXPECT_TRUE(reviseAll(late, &fills).empty());
  EXPECT_TRUE(fills.empty());
}

}  // namespace
}  // namespace ptxsim::sim::timing
