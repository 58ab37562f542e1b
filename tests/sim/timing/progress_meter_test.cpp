// The progress lines of long timed launches (sim/src/timing/progress_meter.h)
// on a hand-driven clock: none before the interval has passed, the wall
// clock read only once per kEventsPerCheck events, the line's numbers.
#include "../../../sim/src/timing/progress_meter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ptxsim::sim::timing {
namespace {

using namespace std::chrono_literals;
using Time = std::chrono::steady_clock::time_point;

struct FakeClock {
  Time now{};
  int reads = 0;
  ProgressMeter::Clock function() {
    return [this] {
      ++reads;
      return now;
    };
  }
};

// Events until due() says yes, at most `limit`; how many it took.
uint64_t eventsUntilDue(ProgressMeter& meter, uint64_t limit) {
  for (uint64_t i = 1; i <= limit; ++i) {
    if (meter.due()) return i;
  }
  return 0;
}

constexpr char kMangled[] = "_Z9vectorAddPKfS0_Pfi";

TEST(ProgressMeter, ALongLaunchPrintsALineEveryIntervalAndAtItsEnd) {
  FakeClock clock;
  std::ostringstream out;
  ProgressMeter meter(kMangled, Progress::Auto, out, clock.function(), 2s);
  int readsAtStart = clock.reads;
  // Before 2 s nothing is due, and the clock is read once per check.
  clock.now += 1500ms;
  EXPECT_EQ(eventsUntilDue(meter, 3 * ProgressMeter::kEventsPerCheck), 0u);
  EXPECT_EQ(clock.reads - readsAtStart, 3);
  // 2.5 s in: due at the next check.
  clock.now += 1s;
  EXPECT_EQ(eventsUntilDue(meter, 2 * ProgressMeter::kEventsPerCheck), ProgressMeter::kEventsPerCheck);
  // 30.75 M thread instructions in 2.5 s: 12.3 M a second.
  meter.report({1'230'000, 45'600'000, 30'750'000});
  EXPECT_EQ(out.str(),
            "ptxsim: kernel vectorAdd: 1.23 M cycles, 45.6 M warp instructions, 12.3 M thread-instructions/s\n");
  // The next one 2 s after that line.
  clock.now += 1900ms;
  EXPECT_EQ(eventsUntilDue(meter, 2 * ProgressMeter::kEventsPerCheck), 0u);
  clock.now += 100ms;
  EXPECT_EQ(eventsUntilDue(meter, 2 * ProgressMeter::kEventsPerCheck), ProgressMeter::kEventsPerCheck);
  out.str("");
  // At the end (5 s in), the final line.
  clock.now += 500ms;
  meter.finish({4'000'000, 100'000'000, 50'000'000});
  EXPECT_EQ(out.str(),
            "ptxsim: kernel vectorAdd: 4.00 M cycles, 100.0 M warp instructions, 10.0 M thread-instructions/s\n");
}

TEST(ProgressMeter, AShortLaunchPrintsNothingUnlessAsked) {
  FakeClock clock;
  std::ostringstream quiet;
  ProgressMeter automatic(kMangled, Progress::Auto, quiet, clock.function(), 2s);
  clock.now += 1s;
  EXPECT_EQ(eventsUntilDue(automatic, 10 * ProgressMeter::kEventsPerCheck), 0u);
  automatic.finish({1000, 10, 320});
  EXPECT_EQ(quiet.str(), "");

  std::ostringstream asked;
  ProgressMeter on(kMangled, Progress::On, asked, clock.function(), 2s);
  clock.now += 500ms;
  on.finish({2'000'000, 3'000'000, 1'000'000});
  EXPECT_EQ(asked.str(),
            "ptxsim: kernel vectorAdd: 2.00 M cycles, 3.0 M warp instructions, 2.0 M thread-instructions/s\n");
}

TEST(ProgressMeter, OffNeverReadsTheClock) {
  FakeClock clock;
  std::ostringstream out;
  ProgressMeter meter(kMangled, Progress::Off, out, clock.function(), 2s);
  clock.now += 1h;
  EXPECT_EQ(eventsUntilDue(meter, 100 * ProgressMeter::kEventsPerCheck), 0u);
  meter.finish({1, 1, 1});
  EXPECT_EQ(clock.reads, 0);
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace ptxsim::sim::timing
