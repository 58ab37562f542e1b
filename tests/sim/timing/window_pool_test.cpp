// The host threads of the timing driver's windows (sim/src/timing/
// window_pool.h): every item of every run is done exactly once, the run
// returns only after all are, and an item's exception reaches the caller.
#include "../../../sim/src/timing/window_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace ptxsim::sim::timing {
namespace {

TEST(WindowPool, EveryItemOnceInEveryRun) {
  WindowPool pool(4);
  EXPECT_EQ(pool.threads(), 4u);
  std::vector<std::atomic<uint32_t>> done(200);
  // Many short runs back to back, of sizes around the thread count: a
  // helper late for one run must take nothing of the next.
  for (uint32_t run = 0; run < 2000; ++run) {
    const size_t count = run % 13;
    for (auto& d : done) d = 0;
    pool.run(count, [&](size_t i) { ++done[i]; });
    for (size_t i = 0; i < done.size(); ++i) ASSERT_EQ(done[i].load(), i < count ? 1u : 0u) << "run " << run;
  }
  // A run long enough for the helpers to have gone to sleep before it.
  for (auto& d : done) d = 0;
  pool.run(done.size(), [&](size_t i) { ++done[i]; });
  for (auto& d : done) ASSERT_EQ(d.load(), 1u);
}

TEST(WindowPool, AThreadLateFromARunTakesNothingOfTheNextWhoseStripesGrew) {
  // Each helper's stripe swings between one item and many from run to run,
  // as the driver's stripes follow the SMs that hold CTAs. A helper still
  // reading the last run's full claim when the next run's bounds appear
  // must not win an item of the new run (it would run twice, and the
  // caller, counting one item too many, would wait for ever). The window
  // is a few nanoseconds wide: many short runs give it chances.
  WindowPool pool(4);
  std::vector<std::atomic<uint32_t>> done(40);
  const std::vector<size_t> layouts[2] = {{0, 1, 2, 3, 40}, {0, 37, 38, 39, 40}};
  for (int run = 0; run < 20000; ++run) {
    for (auto& d : done) d.store(0, std::memory_order_relaxed);
    pool.run(
        done.size(), [&](size_t i) { done[i].fetch_add(1, std::memory_order_relaxed); }, layouts[run % 2]);
    for (size_t i = 0; i < done.size(); ++i) ASSERT_EQ(done[i].load(), 1u) << "run " << run << " item " << i;
  }
}

TEST(WindowPool, AnItemsExceptionReachesTheCallerAfterTheRun) {
  WindowPool pool(3);
  std::atomic<uint32_t> finished = 0;
  EXPECT_THROW(pool.run(50,
                        [&](size_t i) {
                          if (i == 7) throw std::runtime_error("item 7");
                          ++finished;
                        }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 49u);
  // The pool still works.
  pool.run(10, [&](size_t) { ++finished; });
  EXPECT_EQ(finished.load(), 59u);
}

TEST(WindowPool, StripesTheCallerGivesCoverEveryItemOnce) {
  WindowPool pool(4);
  std::vector<std::atomic<uint32_t>> done(40);
  // Uneven stripes, one empty: the threads left idle take the others' items.
  const std::vector<size_t> starts{0, 30, 30, 35, 40};
  for (int run = 0; run < 200; ++run) {
    for (auto& d : done) d = 0;
    pool.run(
        done.size(), [&](size_t i) { ++done[i]; }, starts);
    for (auto& d : done) ASSERT_EQ(d.load(), 1u) << "run " << run;
  }
  const std::vector<size_t> tooFew{0, 40};
  EXPECT_THROW(pool.run(
                   done.size(), [](size_t) {}, tooFew),
               std::invalid_argument);
  const std::vector<size_t> unsorted{0, 30, 20, 35, 40};
  EXPECT_THROW(pool.run(
                   done.size(), [](size_t) {}, unsorted),
               std::invalid_argument);
}

}  // namespace
}  // namespace ptxsim::sim::timing
