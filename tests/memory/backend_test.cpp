// The fixed-latency back end: requests queue on one port of limited
// bandwidth, then take the fixed latency; hand-derived cycles.
#include "ptxsim/memory/backend.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "ptxsim/memory/coalescer.h"
#include "ptxsim/memory/l1_cache.h"
#include "warp_addresses.h"

namespace ptxsim::memory {
namespace {

MemoryRequest read(uint32_t bytes) { return {0, 0xf, bytes, false}; }

TEST(FixedLatencyBackend, BackToBackRequestsQueueOnThePort) {
  FixedLatencyBackend backend(100, 32);
  EXPECT_EQ(backend.request(0, read(128)), 104u);  // 4 cycles on the port, then the latency
  EXPECT_EQ(backend.request(0, read(128)), 108u);  // starts when the first is through, at 4
  EXPECT_EQ(backend.request(50, read(32)), 151u);  // the port is idle again by 50
  EXPECT_EQ(backend.stats().readRequests, 3u);
  EXPECT_EQ(backend.stats().bytesRead, 288u);
  EXPECT_EQ(backend.stats().portBusyCycles, 9u);
  EXPECT_EQ(backend.stats().writeRequests, 0u);
}

TEST(FixedLatencyBackend, PartialCyclesRoundUp) {
  FixedLatencyBackend backend(285, 11);
  EXPECT_EQ(backend.request(0, read(32)), 3u + 285u);         // 32 / 11 -> 3 cycles
  EXPECT_EQ(backend.request(0, read(128)), 3u + 12u + 285u);  // 128 / 11 -> 12 cycles, after the first
}

TEST(FixedLatencyBackend, WritesShareThePortWithReads) {
  FixedLatencyBackend backend(100, 32);
  EXPECT_EQ(backend.request(0, {0, 0xf, 128, true}), 104u);
  EXPECT_EQ(backend.request(0, read(32)), 105u);
  EXPECT_EQ(backend.stats().writeRequests, 1u);
  EXPECT_EQ(backend.stats().bytesWritten, 128u);
  EXPECT_EQ(backend.stats().bytesRead, 32u);
}

TEST(FixedLatencyBackend, RejectsAPortWithoutBandwidth) {
  EXPECT_THROW(FixedLatencyBackend(100, 0), std::invalid_argument);
}

TEST(FixedLatencyBackend, AnUncoalescedMissQueuesOneLineACycle) {
  // 32 lines of one sector: the L1 sends line i at cycle i / 4, but the port
  // moves one 32-byte sector a cycle, so line i leaves at i and the last
  // arrives at 31 + 1 + 100.
  FixedLatencyBackend backend(100, 32);
  L1Cache l1(L1Config{});
  L1Access a = l1.load(0, coalesce(test::strided(128), test::kAllLanes, 4), backend);
  EXPECT_EQ(a.readyAt, 132u);
  EXPECT_EQ(a.sectorMisses, 32u);
  EXPECT_EQ(backend.stats().readRequests, 32u);
  EXPECT_EQ(backend.stats().bytesRead, 32u * 32u);
}

}  // namespace
}  // namespace ptxsim::memory
