// The instruction caches (sim/src/timing/instruction_fetch.h) alone, cycle
// by cycle against hand-derived arrivals: a line from the L2 passes the
// L2's port (45 cycles) and then the L1's (18); the line after it is
// fetched with it; lines in the L0 cost nothing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../../../sim/src/timing/instruction_fetch.h"

namespace ptxsim::sim::timing {
namespace {

// L0: 1 KiB (8 lines, 2 ways); L1: 4 KiB (32 lines); 16-byte
// instructions, 8 to a line.
InstructionFetchTiming smallCaches() {
  InstructionFetchTiming t;
  t.l0Bytes = 1024;
  t.l0Ways = 2;
  t.l1Bytes = 4096;
  t.l1Ways = 4;
  t.l1CyclesPerLine = 18;
  t.l2CyclesPerLine = 45;
  return t;
}

constexpr uint64_t kLine = 128;

TEST(InstructionFetch, AColdLineComesOverBothPortsAndBringsTheNextOne) {
  InstructionFetch fetch(smallCaches());
  // Line 0: the L2's port 0..45, the L1's 45..63.
  EXPECT_EQ(fetch.lineReadyAt(0, 0), 63u);
  // Line 1 was fetched with it: the L2's port 45..90, the L1's 90..108.
  EXPECT_EQ(fetch.lineReadyAt(kLine + 16, 70), 108u);
  EXPECT_EQ(fetch.stats().l1Misses, 3u);  // lines 0, 1 and 2 (fetched with line 1)
}

TEST(InstructionFetch, StraightLineCodeStreamsAtTheSlowerPortsRate) {
  InstructionFetch fetch(smallCaches());
  // A warp that issues a line's 8 instructions in 8 cycles waits for each
  // line: from the L2 they come 45 cycles apart.
  uint64_t now = 0, previous = 0;
  for (uint64_t line = 0; line < 6; ++line) {
    uint64_t ready = fetch.lineReadyAt(line * kLine, now);
    if (line >= 2) EXPECT_EQ(ready - previous, 45u) << "line " << line;
    previous = ready;
    now = ready + 8;
  }
}

TEST(InstructionFetch, CodeInTheL0CostsNothingTheSecondTime) {
  InstructionFetch fetch(smallCaches());
  uint64_t now = 0;
  for (uint64_t line = 0; line < 4; ++line) now = fetch.lineReadyAt(line * kLine, now) + 8;
  uint64_t missesBefore = fetch.stats().l0Misses;
  for (uint64_t line = 0; line < 4; ++line) {
    EXPECT_LE(fetch.lineReadyAt(line * kLine, now), now);
    now += 8;
  }
  EXPECT_EQ(fetch.stats().l0Misses, missesBefore);
}

TEST(InstructionFetch, CodeBiggerThanTheL0ComesFromTheL1EveryLine) {
  InstructionFetch fetch(smallCaches());
  // 16 lines: twice the L0, half the L1. The first pass brings them into
  // the L1; on the second every line misses the L0 (LRU over a loop bigger
  // than the cache) and comes over the L1's port, 18 cycles apart.
  uint64_t now = 0;
  for (uint64_t line = 0; line < 16; ++line) now = fetch.lineReadyAt(line * kLine, now) + 8;
  uint64_t l1MissesBefore = fetch.stats().l1Misses;
  uint64_t previous = 0;
  for (uint64_t line = 0; line < 16; ++line) {
    uint64_t ready = fetch.lineReadyAt(line * kLine, now);
    if (line >= 2) EXPECT_EQ(ready - previous, 18u) << "line " << line;
    previous = ready;
    now = std::max(now, ready) + 8;
  }
  // The L1 had them all (line 16 too, fetched with line 15 the first time).
  EXPECT_EQ(fetch.stats().l1Misses, l1MissesBefore);
}

TEST(InstructionFetch, ALineEvictedFromTheL0ComesBackFromTheL1) {
  InstructionFetch fetch(smallCaches());
  EXPECT_EQ(fetch.lineReadyAt(0, 0), 63u);  // line 1 follows, in the L0 at 108
  // Lines 4 and 8 share line 0's set of 2 ways; line 0 is the least recently used.
  fetch.lineReadyAt(4 * kLine, 200);
  fetch.lineReadyAt(8 * kLine, 400);
  uint64_t l1Misses = fetch.stats().l1Misses;
  // Line 0 again: the L1 has it and its port is free: 18 cycles.
  EXPECT_EQ(fetch.lineReadyAt(0, 1000), 1018u);
  EXPECT_EQ(fetch.stats().l1Misses, l1Misses);
}

TEST(InstructionFetch, ANewLaunchFindsTheLinesTheLastOneLeft) {
  InstructionCaches caches;
  TimingConfig timing;
  timing.fetch = smallCaches();
  std::vector<InstructionFetch>& first = caches.forLaunch(timing, 2);
  EXPECT_EQ(first[1].lineReadyAt(0, 0), 63u);
  std::vector<InstructionFetch>& second = caches.forLaunch(timing, 2);
  // Its clock restarts at 0 and the line is there.
  EXPECT_EQ(second[1].lineReadyAt(0, 0), 0u);
  EXPECT_EQ(second[0].lineReadyAt(0, 0), 63u);  // another SM's caches never had it
}

// The clock restart settles the lines inserted since the last one, and
// all of them when more were inserted than the caches hold.
TEST(InstructionFetch, ANewLaunchFindsEveryLineSettledAfterManyFills) {
  InstructionLineCache cache(1024, 2, kLine);  // 8 entries
  for (uint64_t round = 0; round < 2; ++round) {
    const uint64_t lines = round == 0 ? 3 : 40;  // fewer, then more inserts than entries
    for (uint64_t line = 0; line < lines; ++line) cache.insert(line, 500 + line);
    cache.settle();
    uint64_t arrival = 1;
    for (uint64_t line = lines - 3; line < lines; ++line) {
      ASSERT_TRUE(cache.find(line, arrival));
      EXPECT_EQ(arrival, 0u);
    }
  }
}

TEST(InstructionFetch, ModulesAreNumberedInTheOrderTheyFirstLaunch) {
  InstructionCaches caches;
  isa::Module a, b;
  EXPECT_EQ(caches.moduleNumber(&b), 0u);
  EXPECT_EQ(caches.moduleNumber(&a), 1u);
  EXPECT_EQ(caches.moduleNumber(&b), 0u);
}

TEST(InstructionFetch, ACacheWithoutAWholeSetIsRefused) {
  EXPECT_THROW(InstructionLineCache(100, 4, 128), std::invalid_argument);
  EXPECT_THROW(InstructionLineCache(1024, 0, 128), std::invalid_argument);
}

}  // namespace
}  // namespace ptxsim::sim::timing
