// L2Cache::estimateAfter and Hbm::estimateAfter (backend.h) against
// request(): on the same state an estimate answers what the request then
// does, and changes nothing — neither the statistics nor what later
// requests find. The sequences are random but seeded, over geometries small
// enough that they evict dirty lines, queue on ports, channels and MSHRs,
// and wait for fetches in flight.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/l2_cache.h"

namespace ptxsim::memory {
namespace {

HbmConfig smallHbm() {
  HbmConfig config;
  config.channels = 2;
  config.banksPerChannel = 2;
  config.rowBytes = 256;
  config.interleaveBytes = 128;
  config.rowHitLatencyCycles = 100;
  config.rowMissLatencyCycles = 150;
  config.bytesPerCyclePerChannel = 16;
  return config;
}

L2Config smallL2() {
  L2Config config;
  config.capacityBytes = 4 * 2 * 128;  // 4 sets of 2 ways
  config.ways = 2;
  config.slices = 2;
  config.partitions = 2;
  config.nearLatencyCycles = 100;
  config.farLatencyCycles = 130;
  config.sliceBytesPerCycle = 16;
  config.mshrsPerSlice = 2;
  config.atomicCyclesPerOp = 1.5;
  return config;
}

// Requests over 24 lines (3 times the L2's), every kind, from 4 SMs, at
// slowly rising cycles so that fills are often still in flight.
std::vector<TimedRequest> randomRequests(uint32_t seed, size_t count) {
  std::mt19937 random(seed);
  std::vector<TimedRequest> out;
  uint64_t now = 0;
  for (size_t i = 0; i < count; ++i) {
    now += random() % 20;
    MemoryRequest r;
    r.lineAddress = (random() % 24) * 128;
    r.sectorMask = 1 + random() % 15;
    r.bytes = 32u * static_cast<uint32_t>(std::popcount(r.sectorMask));
    r.sm = random() % 4;
    switch (random() % 4) {
      case 0: r.write = true; break;
      case 1:
        r.atomic = true;
        r.opsPerWord = 1 + random() % 4;
        break;
      default: break;
    }
    out.push_back({now, r});
  }
  return out;
}

TEST(Estimate, HbmAnswersWhatTheRequestThenDoesAndChangesNothing) {
  Hbm hbm(smallHbm());
  for (const TimedRequest& t : randomRequests(1, 400)) {
    const uint64_t requestsBefore = hbm.stats().readRequests + hbm.stats().writeRequests;
    const uint64_t estimate = hbm.estimate(t.now, t.request);
    EXPECT_EQ(hbm.estimate(t.now, t.request), estimate);  // the first changed nothing it reads
    EXPECT_EQ(hbm.stats().readRequests + hbm.stats().writeRequests, requestsBefore);
    EXPECT_EQ(hbm.request(t.now, t.request), estimate) << "at " << t.now;
  }
}

TEST(Estimate, HbmAfterEarlierRequestsAnswersWhatTheyLeave) {
  const std::vector<TimedRequest> requests = randomRequests(2, 300);
  Hbm applied(smallHbm());
  Hbm untouched(smallHbm());
  for (size_t i = 0; i < requests.size(); ++i) {
    // `untouched` has seen none of requests[0, i): it must still answer
    // what `applied`, which has, answers.
    const uint64_t estimate =
        untouched.estimateAfter(std::span(requests).first(i), requests[i].now, requests[i].request);
    EXPECT_EQ(applied.request(requests[i].now, requests[i].request), estimate) << "request " << i;
  }
  EXPECT_EQ(untouched.stats().readRequests + untouched.stats().writeRequests, 0u);
}

TEST(Estimate, L2AnswersWhatTheRequestThenDoesAndChangesNothing) {
  for (uint32_t seed : {3u, 4u, 5u}) {
    Hbm hbm(smallHbm());
    L2Cache l2(smallL2(), hbm);
    Hbm twinHbm(smallHbm());  // sees only the requests, never an estimate
    L2Cache twin(smallL2(), twinHbm);
    uint64_t evictions = 0;
    for (const TimedRequest& t : randomRequests(seed, 500)) {
      const L2Stats before = l2.stats();
      const uint64_t estimate = l2.estimate(t.now, t.request);
      EXPECT_EQ(l2.stats().readSectors + l2.stats().writeSectors + l2.stats().atomicSectors,
                before.readSectors + before.writeSectors + before.atomicSectors);
      EXPECT_EQ(hbm.stats().readRequests + hbm.stats().writeRequests,
                twinHbm.stats().readRequests + twinHbm.stats().writeRequests);
      EXPECT_EQ(l2.request(t.now, t.request), estimate) << "seed " << seed << " at " << t.now;
      EXPECT_EQ(twin.request(t.now, t.request), estimate) << "seed " << seed << " at " << t.now;
      evictions = l2.stats().dirtyEvictions;
    }
    // The sequences reach the paths that matter.
    EXPECT_GT(evictions, 10u);
    EXPECT_GT(l2.stats().mshrStallCycles, 0u);
    EXPECT_GT(l2.stats().inFlightSectorHits, 0u);
    EXPECT_EQ(l2.stats().sectorHits, twin.stats().sectorHits);
    EXPECT_EQ(hbm.stats().bytesWritten, twinHbm.stats().bytesWritten);
  }
}

}  // namespace
}  // namespace ptxsim::memory
