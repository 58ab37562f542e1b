// The crossbar against hand-derived cycles. The small configuration: SM
// ports of 32 bytes a cycle, slice ports of 16, 2 slices (line address /
// 128 even: slice 0, odd: slice 1); a recording back end answers 50 cycles
// after a request reaches it.
#include "ptxsim/memory/interconnect.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "recording_backend.h"

namespace ptxsim::memory {
namespace {

using test::RecordingBackend;

InterconnectConfig small() {
  InterconnectConfig config;
  config.smBytesPerCycle = 32;
  config.sliceBytesPerCycle = 16;
  return config;
}

uint32_t sliceOfLine(uint64_t lineAddress) { return static_cast<uint32_t>((lineAddress / 128) % 2); }

MemoryRequest read(uint64_t line, uint32_t bytes, uint32_t sm) {
  MemoryRequest r{line, 1, bytes, false};
  r.sm = sm;
  return r;
}

TEST(Interconnect, AnUncontendedRequestIsNotDelayed) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  EXPECT_EQ(noc.request(10, read(0, 128, 0)), 60u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].at, 10u);
  EXPECT_EQ(backend.sent[0].request.sm, 0u);
  EXPECT_EQ(noc.stats().smPortWaitCycles, 0u);
  EXPECT_EQ(noc.stats().slicePortWaitCycles, 0u);
}

TEST(Interconnect, RequestsOfOneSmQueueBehindEachOtherAtItsPort) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  // 64 bytes hold SM 0's port 2 cycles (10, 11) and slice 0's 4 (10..13).
  EXPECT_EQ(noc.request(10, read(0, 64, 0)), 60u);
  // To slice 1: waits only for the SM's port, free at 12.
  EXPECT_EQ(noc.request(10, read(128, 32, 0)), 62u);
  // Another SM to slice 1: its own port is free, slice 1's is busy at 12.
  EXPECT_EQ(noc.request(12, read(384, 32, 1)), 64u);
  EXPECT_EQ(noc.stats().smPortWaitCycles, 2u);
  EXPECT_EQ(noc.stats().slicePortWaitCycles, 2u);
  EXPECT_EQ(noc.stats().requests, 3u);
  EXPECT_EQ(noc.stats().bytes, 128u);
}

TEST(Interconnect, AStoresDataMovesThroughItsSmsPortAtTheStoreRate) {
  InterconnectConfig config = small();
  config.smStoreBytesPerCycle = 8;
  RecordingBackend backend(50);
  Interconnect noc(config, 2, sliceOfLine, backend);
  MemoryRequest store = read(0, 32, 0);
  store.write = true;
  // 32 bytes at 8 a cycle hold SM 0's port 4 cycles (10..13) ...
  EXPECT_EQ(noc.request(10, store), 60u);
  // ... so its read to slice 1 is sent at 14; an atomic's bytes go at the read rate.
  EXPECT_EQ(noc.request(10, read(128, 32, 0)), 64u);
  MemoryRequest atomic = read(128, 64, 0);
  atomic.atomic = true;
  atomic.write = true;
  EXPECT_EQ(noc.request(15, atomic), 66u);            // slice 1 busy 14..15; port 15, 16
  EXPECT_EQ(noc.request(15, read(256, 32, 0)), 67u);  // SM 0's port free at 17
  InterconnectConfig noStores = small();
  noStores.smStoreBytesPerCycle = 0;
  EXPECT_THROW(checkInterconnectConfig(noStores), std::invalid_argument);
}

TEST(Interconnect, RequestsOfManySmsQueueAtTheSlicesPort) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  // Four SMs send 32 bytes to slice 0 at cycle 0: its port takes each 2 cycles.
  for (uint32_t sm = 0; sm < 4; ++sm) EXPECT_EQ(noc.request(0, read(256, 32, sm)), 50u + 2 * sm) << sm;
  EXPECT_EQ(noc.stats().smPortWaitCycles, 0u);
  EXPECT_EQ(noc.stats().slicePortWaitCycles, 0u + 2 + 4 + 6);
}

TEST(Interconnect, AnSmsPortSendsARequestACycleASlicesTakesSeveral) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  // 8 bytes hold SM 0's 32-byte port a whole cycle: one request a cycle.
  EXPECT_EQ(noc.request(0, read(0, 8, 0)), 50u);
  EXPECT_EQ(noc.request(0, read(128, 8, 0)), 51u);
  // They hold slice 0's 16-byte port half a cycle each: SM 0's (0 to 0.5)
  // and two from SMs 1 and 2 at 0 (0.5 to 1, then 1 to 1.5) start in
  // cycles 0, 0 and 1; SM 3's at 1 starts at 1.5, in cycle 1.
  EXPECT_EQ(noc.request(0, read(256, 8, 1)), 50u);
  EXPECT_EQ(noc.request(0, read(512, 8, 2)), 51u);
  EXPECT_EQ(noc.request(1, read(768, 8, 3)), 51u);
  EXPECT_EQ(noc.stats().smPortWaitCycles, 1u);
  EXPECT_EQ(noc.stats().slicePortWaitCycles, 1u);
}

TEST(Interconnect, StartLaunchFreesThePortsAndRestartsTheStatistics) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  noc.request(100, read(0, 128, 0));
  noc.startLaunch();
  EXPECT_EQ(noc.stats().requests, 0u);
  EXPECT_EQ(noc.request(0, read(0, 128, 0)), 50u);
}

TEST(Interconnect, RejectsPortsThatMoveNothingAndSlicesOutOfRange) {
  RecordingBackend backend(50);
  InterconnectConfig noSm = small();
  noSm.smBytesPerCycle = 0;
  EXPECT_THROW(checkInterconnectConfig(noSm), std::invalid_argument);
  InterconnectConfig noSlice = small();
  noSlice.sliceBytesPerCycle = 0;
  EXPECT_THROW(Interconnect(noSlice, 2, sliceOfLine, backend), std::invalid_argument);
  EXPECT_THROW(Interconnect(small(), 0, sliceOfLine, backend), std::invalid_argument);
  Interconnect noc(small(), 1, sliceOfLine, backend);
  EXPECT_THROW(noc.request(0, read(128, 32, 0)), std::out_of_range);
}

// The windows' estimates (timing_driver.cpp): arrivalInto sees the
// crossbar as it is plus the shadow's own requests and changes nothing.
TEST(InterconnectEstimate, AShadowSeesItsOwnRequestsAndThePortsAsTheyAre) {
  RecordingBackend backend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  // SM 1 holds slice 0's port 10..17 (128 bytes at 16 a cycle).
  noc.request(10, read(0, 128, 1));
  Interconnect::Shadow shadow;
  // SM 0: its port is free; slice 0's is busy until 18.
  EXPECT_EQ(noc.arrivalInto(shadow, 10, read(256, 64, 0)), 18u);
  // Its second request waits for its own port (free at 12) and for its own
  // first request at slice 0 (free at 22).
  EXPECT_EQ(noc.arrivalInto(shadow, 10, read(512, 32, 0)), 22u);
  // To slice 1: its own port, taken until 13 by the two requests.
  EXPECT_EQ(noc.arrivalInto(shadow, 10, read(128, 32, 0)), 13u);
  // Nothing changed: another shadow, and the crossbar, see none of it.
  Interconnect::Shadow other;
  EXPECT_EQ(noc.arrivalInto(other, 10, read(256, 64, 0)), 18u);
  EXPECT_EQ(noc.stats().requests, 1u);
  EXPECT_EQ(backend.sent.size(), 1u);
  shadow.clear();
  EXPECT_EQ(noc.arrivalInto(shadow, 10, read(128, 32, 0)), 10u);
}

TEST(InterconnectEstimate, EstimatesMatchAServedTwin) {
  RecordingBackend backend(50), twinBackend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend);
  Interconnect twin(small(), 2, sliceOfLine, twinBackend);
  const MemoryRequest first = read(0, 128, 1);
  noc.request(5, first);
  twin.request(5, first);
  // One SM's requests: the shadow's arrival plus the back end's 50, and
  // estimateAfter, equal what the twin answers when served.
  std::vector<TimedRequest> mine = {{6, read(0, 64, 0)}, {6, read(128, 96, 0)}, {9, read(384, 32, 0)}};
  Interconnect::Shadow shadow;
  for (size_t i = 0; i < mine.size(); ++i) {
    const uint64_t served = twin.request(mine[i].now, mine[i].request);
    EXPECT_EQ(noc.arrivalInto(shadow, mine[i].now, mine[i].request) + 50, served) << i;
    EXPECT_EQ(noc.estimateAfter(std::span(mine).first(i), mine[i].now, mine[i].request), served) << i;
  }
  EXPECT_EQ(noc.stats().requests, 1u);
}

TEST(Interconnect, InjectThenEjectIsARequestsCrossing) {
  // The timing driver's two steps (SMs' ports, then slices' ports) against
  // request() on a twin, for requests of two SMs to two slices.
  RecordingBackend backend(50), twinBackend(50);
  Interconnect noc(small(), 2, sliceOfLine, backend), twin(small(), 2, sliceOfLine, twinBackend);
  noc.addSms(2);
  InterconnectStats counts;
  const std::vector<MemoryRequest> requests = {read(0, 64, 0), read(128, 32, 0), read(384, 32, 1), read(256, 128, 1)};
  for (const MemoryRequest& r : requests) {
    const uint64_t ejected = noc.eject(noc.inject(10, r, counts), r, counts);
    EXPECT_EQ(ejected + 50, twin.request(10, r));
  }
  noc.addCounts(counts);
  EXPECT_EQ(noc.stats().requests, twin.stats().requests);
  EXPECT_EQ(noc.stats().bytes, twin.stats().bytes);
  EXPECT_EQ(noc.stats().smPortWaitCycles, twin.stats().smPortWaitCycles);
  EXPECT_EQ(noc.stats().slicePortWaitCycles, twin.stats().slicePortWaitCycles);
  EXPECT_TRUE(backend.sent.empty());  // the back end is the caller's to ask
}

}  // namespace
}  // namespace ptxsim::memory
