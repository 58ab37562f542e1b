// L2Cache::estimateAfter / estimateInto and Hbm::estimateAfter (backend.h) against
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
        r.atomicWords = static_cast<uint32_t>(random()) & 0x01010101u;  // the hazard and results passed on
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
    // The sequences reach the paths that matter (each seed evicts dirty lines).
    EXPECT_GT(evictions, 0u);
    EXPECT_GT(l2.stats().mshrStallCycles, 0u);
    EXPECT_GT(l2.stats().inFlightSectorHits, 0u);
    EXPECT_EQ(l2.stats().sectorHits, twin.stats().sectorHits);
    EXPECT_EQ(hbm.stats().bytesWritten, twinHbm.stats().bytesWritten);
  }
}

// A shadow is a requester's private view (the timing driver's SMs in a
// window): from the same start, each estimate into it answers what an L2
// that really served the requests, in the same order, answers, while the
// L2 itself and its back end stay as they were. Then, cleared, it answers
// from the L2 as it is again.
// Both ways of writing dirty lines back: evicting them (dirty lines taking
// two ways, no limit on them), and cleaning them (half the ways at most).
TEST(Estimate, L2ShadowAnswersAsIfItsRequestsHadBeenServed) {
  for (auto [seed, dirtyShare] : {std::pair{6u, 1.0}, std::pair{7u, 1.0}, std::pair{6u, 0.5}}) {
    const std::vector<TimedRequest> requests = randomRequests(seed, 400);
    L2Config config = smallL2();
    config.dirtyShare = dirtyShare;
    config.dirtyLineWays = dirtyShare == 1.0 ? 2 : 1;
    Hbm hbm(smallHbm());
    L2Cache l2(config, hbm);
    Hbm servedHbm(smallHbm());
    L2Cache served(config, servedHbm);
    // Both start from the first half applied, so that the shadow copies
    // lines, dirty sectors and busy MSHRs, not an empty L2.
    const size_t half = requests.size() / 2;
    for (size_t i = 0; i < half; ++i) {
      l2.request(requests[i].now, requests[i].request);
      served.request(requests[i].now, requests[i].request);
    }
    const L2Stats statsBefore = l2.stats();
    const HbmStats hbmBefore = hbm.stats();
    L2Cache::Shadow shadow;
    uint64_t lastServed = 0;
    for (size_t i = half; i < requests.size(); ++i) {
      lastServed = served.request(requests[i].now, requests[i].request);
      EXPECT_EQ(l2.estimateInto(shadow, requests[i].now, requests[i].request), lastServed)
          << "seed " << seed << ", request " << i;
    }
    EXPECT_EQ(l2.stats().readSectors + l2.stats().writeSectors + l2.stats().atomicSectors,
              statsBefore.readSectors + statsBefore.writeSectors + statsBefore.atomicSectors);
    EXPECT_EQ(hbm.stats().bytesRead + hbm.stats().bytesWritten, hbmBefore.bytesRead + hbmBefore.bytesWritten);
    if (dirtyShare == 1.0)
      EXPECT_GT(served.stats().dirtyEvictions, statsBefore.dirtyEvictions);
    else
      EXPECT_GT(served.stats().cleanings, statsBefore.cleanings);
    EXPECT_GT(served.stats().mshrStallCycles, statsBefore.mshrStallCycles);
    // estimateAfter is the same, from a shadow of its own.
    const std::span<const TimedRequest> tail = std::span(requests).subspan(half);
    EXPECT_EQ(l2.estimateAfter(tail.first(tail.size() - 1), tail.back().now, tail.back().request), lastServed);
    // Cleared, the shadow answers from the L2 as it is: as estimate() does.
    shadow.clear();
    const TimedRequest& next = requests[half];
    EXPECT_EQ(l2.estimateInto(shadow, next.now, next.request), l2.estimate(next.now, next.request));
  }
}

}  // namespace
}  // namespace ptxsim::memory
