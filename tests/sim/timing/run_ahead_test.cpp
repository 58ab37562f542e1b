// SMs running ahead of the timing driver's windows (sim/src/timing/
// run_ahead.h) on the window pool's tasks: every posted task runs once,
// whoever takes it; what the driver learns ("did the SM stop before cycle
// X") depends on the SMs' cycles alone, not on the host threads; a task
// the driver's thread runs only in part goes on from where it got.
#include "../../../sim/src/timing/run_ahead.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ptxsim::sim::timing {
namespace {

TEST(WindowPoolTasks, EveryPostedTaskRunsOnceBetweenRuns) {
  WindowPool pool(4);
  std::vector<std::atomic<uint32_t>> ran(64);
  std::vector<std::unique_ptr<WindowPool::Task>> tasks;
  for (size_t i = 0; i < ran.size(); ++i) {
    tasks.push_back(std::make_unique<WindowPool::Task>([&ran, i] { ++ran[i]; }));
    pool.post(*tasks.back());
    // Runs go on while tasks are queued or running.
    std::atomic<uint32_t> items = 0;
    pool.run(8, [&](size_t) { ++items; });
    ASSERT_EQ(items.load(), 8u);
  }
  // Those no helper took, the caller takes; then every one is done.
  for (auto& task : tasks) {
    if (pool.claim(*task)) task->runOnce();
    while (!task->done()) std::this_thread::yield();
  }
  for (auto& r : ran) EXPECT_EQ(r.load(), 1u);
  // A task taken cannot be taken again.
  EXPECT_FALSE(pool.claim(*tasks.front()));
}

TEST(WindowPoolTasks, ATaskRunsOnTheCallerWithNoHelperAndKeepsItsException) {
  WindowPool pool(1);
  WindowPool::Task task([] { throw std::runtime_error("task"); });
  EXPECT_FALSE(pool.claim(task));  // not posted
  pool.post(task);
  ASSERT_TRUE(pool.claim(task));
  task.runOnce();
  ASSERT_TRUE(task.done());
  EXPECT_THROW(task.rethrow(), std::runtime_error);
}

// A stand-in SM: it "runs" cycle after cycle and stops before `stopAt`
// (UINT64_MAX: it has nothing left to do after `lastCycle`); it records
// which cycles it ran, so that a part run and its rest can be checked to
// run each cycle once, in order.
struct FakeSm {
  uint64_t stopAt = UINT64_MAX;
  uint64_t lastCycle = UINT64_MAX;
  std::vector<uint64_t> cycles;
  RunAhead::Run runner() {
    return [this](std::atomic<uint64_t>& reached, uint64_t from, uint64_t until) -> uint64_t {
      for (uint64_t cycle = from; cycle < until; ++cycle) {
        reached.store(cycle, std::memory_order_release);
        if (cycle == stopAt) return cycle;
        if (cycle > lastCycle) return UINT64_MAX;
        cycles.push_back(cycle);
      }
      return until;
    };
  }
};

// What a driver learns, window after window of 32 cycles, of SMs that run
// ahead from cycle 100 to at most 1000: the window each rejoins in and the
// cycle it stopped before.
std::vector<std::pair<uint64_t, uint64_t>> rejoins(unsigned threads, std::vector<FakeSm>& sms) {
  WindowPool pool(threads);
  RunAhead ahead(pool, sms.size());
  for (uint32_t s = 0; s < sms.size(); ++s) ahead.start(s, 100, 1000, sms[s].runner());
  EXPECT_EQ(ahead.count(), sms.size());
  std::vector<std::pair<uint64_t, uint64_t>> seen(sms.size(), {0, 0});
  for (uint64_t windowEnd = 128; ahead.count() != 0; windowEnd += 32) {
    for (uint32_t s = 0; s < sms.size(); ++s) {
      if (!ahead.running(s)) continue;
      if (std::optional<uint64_t> stop = ahead.stoppedBefore(s, windowEnd)) seen[s] = {windowEnd, *stop};
    }
  }
  return seen;
}

TEST(RunAhead, TheDriverLearnsTheSameStopsInTheSameWindowsOnOneOrManyThreads) {
  for (unsigned threads : {1u, 2u, 4u}) {
    std::vector<FakeSm> sms(6);
    sms[0].stopAt = 100;     // stops at once
    sms[1].stopAt = 555;     // stops in the window [544, 576)
    sms[2].stopAt = 2000;    // beyond its end: stops at 1000
    sms[3].lastCycle = 300;  // nothing left after cycle 300: rejoins by the window that holds 301
    sms[4].stopAt = 160;     // on a window's start: rejoins in [160, 192)
    sms[5].stopAt = 999;
    std::vector<std::pair<uint64_t, uint64_t>> seen = rejoins(threads, sms);
    EXPECT_EQ(seen[0], (std::pair<uint64_t, uint64_t>{128, 100})) << threads << " threads";
    EXPECT_EQ(seen[1], (std::pair<uint64_t, uint64_t>{576, 555})) << threads << " threads";
    EXPECT_EQ(seen[2], (std::pair<uint64_t, uint64_t>{1024, 1000})) << threads << " threads";
    EXPECT_EQ(seen[3], (std::pair<uint64_t, uint64_t>{320, UINT64_MAX})) << threads << " threads";
    EXPECT_EQ(seen[4], (std::pair<uint64_t, uint64_t>{192, 160})) << threads << " threads";
    EXPECT_EQ(seen[5], (std::pair<uint64_t, uint64_t>{1024, 999})) << threads << " threads";
    // Each ran every cycle from 100 to its stop once, in order, whether
    // one task ran it or the driver's thread ran a part first.
    for (const FakeSm& sm : sms) {
      const uint64_t last = sm.lastCycle == UINT64_MAX ? UINT64_MAX : sm.lastCycle + 1;
      const uint64_t end = std::min<uint64_t>({sm.stopAt, 1000, last});
      ASSERT_EQ(sm.cycles.size(), end - 100) << threads << " threads";
      for (size_t i = 0; i < sm.cycles.size(); ++i) ASSERT_EQ(sm.cycles[i], 100 + i);
    }
  }
}

TEST(RunAhead, StopAllWaitsForEverySmAndWhatItThrewReachesTheDriver) {
  WindowPool pool(3);
  RunAhead ahead(pool, 3);
  std::vector<FakeSm> sms(2);
  sms[0].stopAt = 700;
  ahead.start(0, 0, 5000, sms[0].runner());
  ahead.start(1, 0, 5000, sms[1].runner());
  std::vector<std::optional<uint64_t>> stops = ahead.stopAll();
  EXPECT_EQ(stops[0], std::optional<uint64_t>(700));
  EXPECT_EQ(stops[1], std::optional<uint64_t>(5000));
  EXPECT_FALSE(stops[2].has_value());
  EXPECT_EQ(ahead.count(), 0u);
  ahead.start(2, 0, 10, [](std::atomic<uint64_t>&, uint64_t, uint64_t) -> uint64_t {
    throw std::runtime_error("sm 2");
  });
  EXPECT_THROW(ahead.stoppedBefore(2, UINT64_MAX), std::runtime_error);
}

}  // namespace
}  // namespace ptxsim::sim::timing
