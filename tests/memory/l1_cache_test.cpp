// The sectored L1 against hand-derived cycles: a recording back end answers
// every request 100 cycles after it is sent, the L1 hits in 32 cycles and
// passes 4 sectors a cycle (so a one-sector access at `now` is looked up at
// `now`), unless a test says otherwise.
#include "ptxsim/memory/l1_cache.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "ptxsim/memory/coalescer.h"
#include "recording_backend.h"
#include "warp_addresses.h"

namespace ptxsim::memory {
namespace {

using test::RecordingBackend;
using test::strided;
constexpr uint32_t kAll = test::kAllLanes;

// 32 lanes reading consecutive words: the four sectors of one line.
CoalescedAccess wholeLine(uint64_t line) { return coalesce(strided(4, line), kAll, 4); }
// One lane reading one word: one sector.
CoalescedAccess oneWord(uint64_t address) { return coalesce(strided(0, address), 0x1u, 4); }

TEST(L1Cache, ColdLoadMissesThenHits) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  L1Access miss = l1.load(10, wholeLine(0x1000), backend);
  EXPECT_EQ(miss.readyAt, 110u);
  EXPECT_EQ(miss.sectorMisses, 4u);
  EXPECT_EQ(miss.sectorHits, 0u);
  EXPECT_EQ(miss.lines, 1u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].at, 10u);
  EXPECT_EQ(backend.sent[0].request.lineAddress, 0x1000u);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0xfu);
  EXPECT_EQ(backend.sent[0].request.bytes, 128u);
  EXPECT_FALSE(backend.sent[0].request.write);

  L1Access hit = l1.load(200, wholeLine(0x1000), backend);
  EXPECT_EQ(hit.readyAt, 232u);
  EXPECT_EQ(hit.sectorHits, 4u);
  EXPECT_EQ(hit.sectorMisses, 0u);
  EXPECT_EQ(backend.sent.size(), 1u);
}

TEST(L1Cache, AccessToAnInFlightSectorMergesIntoItsFetch) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  l1.load(10, wholeLine(0x1000), backend);
  L1Access merged = l1.load(20, wholeLine(0x1000), backend);
  EXPECT_EQ(merged.readyAt, 110u);  // the first fetch's arrival, not 20 + 32
  EXPECT_EQ(merged.sectorHits, 4u);
  EXPECT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(l1.stats().inFlightSectorHits, 4u);
  l1.load(300, wholeLine(0x1000), backend);  // arrived by now: a plain hit
  EXPECT_EQ(l1.stats().inFlightSectorHits, 4u);
}

TEST(L1Cache, OnlyTheMissingSectorsAreFetched) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  std::array<uint64_t, 32> lanes{};
  lanes[0] = 0x2000;  // sector 0
  lanes[1] = 0x2040;  // sector 2
  L1Access first = l1.load(0, coalesce(lanes, 0x3u, 4), backend);
  EXPECT_EQ(first.readyAt, 100u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_EQ(backend.sent[0].request.sectorMask, 0x5u);
  EXPECT_EQ(backend.sent[0].request.bytes, 64u);

  L1Access sector1 = l1.load(200, oneWord(0x2020), backend);
  EXPECT_EQ(sector1.sectorMisses, 1u);
  EXPECT_EQ(sector1.readyAt, 300u);
  ASSERT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(backend.sent[1].request.sectorMask, 0x2u);
  EXPECT_EQ(backend.sent[1].request.bytes, 32u);

  L1Access whole = l1.load(400, wholeLine(0x2000), backend);  // sector 3 was never fetched
  EXPECT_EQ(whole.sectorHits, 3u);
  EXPECT_EQ(whole.sectorMisses, 1u);
  EXPECT_EQ(whole.readyAt, 500u);
  ASSERT_EQ(backend.sent.size(), 3u);
  EXPECT_EQ(backend.sent[2].request.sectorMask, 0x8u);
}

TEST(L1Cache, LeastRecentlyUsedLineIsEvicted) {
  L1Config config;
  config.capacityBytes = 2 * 2 * 128;  // 2 sets of 2 ways
  config.ways = 2;
  L1Cache l1(config);
  RecordingBackend backend(100);
  const uint64_t a = 0x000, b = 0x100, c = 0x200;  // lines 0, 2, 4: all in set 0
  l1.load(0, oneWord(a), backend);
  l1.load(1, oneWord(b), backend);
  EXPECT_EQ(l1.load(200, oneWord(a), backend).readyAt, 232u);         // a is now more recent than b
  EXPECT_EQ(l1.load(210, oneWord(0x080), backend).sectorMisses, 1u);  // set 1: leaves set 0 alone
  EXPECT_EQ(l1.load(300, oneWord(c), backend).sectorMisses, 1u);      // evicts b
  EXPECT_EQ(l1.load(500, oneWord(a), backend).readyAt, 532u);
  EXPECT_EQ(l1.load(600, oneWord(b), backend).readyAt, 700u);  // evicts c
  EXPECT_EQ(l1.load(800, oneWord(a), backend).readyAt, 832u);
  EXPECT_EQ(l1.load(900, oneWord(c), backend).sectorMisses, 1u);
  EXPECT_EQ(backend.sent.size(), 6u);
}

TEST(L1Cache, FifoEvictsTheLineAllocatedFirstWhateverItsHits) {
  L1Config config;
  config.capacityBytes = 2 * 2 * 128;  // 2 sets of 2 ways
  config.ways = 2;
  config.replacement = &kFirstInFirstOut;
  L1Cache l1(config);
  RecordingBackend backend(100);
  const uint64_t a = 0x000, b = 0x100, c = 0x200;  // lines 0, 2, 4: all in set 0
  l1.load(0, oneWord(a), backend);
  l1.load(1, oneWord(b), backend);
  EXPECT_EQ(l1.load(200, oneWord(a), backend).readyAt, 232u);     // a hits, but stays the older
  EXPECT_EQ(l1.load(300, oneWord(c), backend).sectorMisses, 1u);  // evicts a, where LRU evicts b
  EXPECT_EQ(l1.load(500, oneWord(b), backend).readyAt, 532u);
  EXPECT_EQ(l1.load(600, oneWord(a), backend).readyAt, 700u);  // evicts b, allocated before c
  EXPECT_EQ(l1.load(800, oneWord(c), backend).readyAt, 832u);
  EXPECT_EQ(backend.sent.size(), 4u);
}

// Five lines read in turn through one set of four ways: LRU and FIFO
// evict each line just before it is read again, so every read misses;
// random replacement keeps some lines, the same ones in every run.
TEST(L1Cache, ACycleOfOneLineMoreThanTheWaysMissesAlwaysUnderLruAndFifoNotUnderRandom) {
  auto hitsOver = [](const ReplacementPolicy& policy) {
    L1Config config;
    config.capacityBytes = 4 * 128;  // one set of 4 ways
    config.ways = 4;
    config.replacement = &policy;
    L1Cache l1(config);
    RecordingBackend backend(100);
    uint32_t hits = 0;
    for (uint64_t round = 0; round < 20; ++round)
      for (uint64_t line = 0; line < 5; ++line)
        hits += l1.load(1000 * (5 * round + line), oneWord(line * 128), backend).sectorHits;
    return hits;
  };
  EXPECT_EQ(hitsOver(kLeastRecentlyUsed), 0u);
  EXPECT_EQ(hitsOver(kFirstInFirstOut), 0u);
  const uint32_t randomHits = hitsOver(kRandom);
  EXPECT_GT(randomHits, 20u);  // of 100 reads; about 3 in 5 for a fair draw
  EXPECT_EQ(hitsOver(kRandom), randomHits);
}

TEST(L1Cache, ALineBeingFilledIsNotEvicted) {
  L1Config config;
  config.capacityBytes = 128;  // one line
  config.ways = 1;
  L1Cache l1(config);
  RecordingBackend backend(100);
  l1.load(0, oneWord(0x0), backend);                             // a: arrives at 100
  EXPECT_EQ(l1.load(10, oneWord(0x80), backend).readyAt, 110u);  // b: fetched, not allocated
  EXPECT_EQ(l1.load(20, oneWord(0x0), backend).readyAt, 100u);   // a is still there, in flight
  EXPECT_EQ(backend.sent.size(), 2u);
  EXPECT_EQ(l1.load(200, oneWord(0x80), backend).readyAt, 300u);  // b again: now evicts a
  EXPECT_EQ(l1.load(400, oneWord(0x80), backend).readyAt, 432u);
  EXPECT_EQ(l1.load(500, oneWord(0x0), backend).sectorMisses, 1u);
}

TEST(L1Cache, MissWaitsForAFreeMshr) {
  L1Config config;
  config.mshrs = 1;
  L1Cache l1(config);
  RecordingBackend backend(100);
  l1.load(0, oneWord(0x0), backend);  // holds the MSHR until 100
  L1Access queued = l1.load(10, oneWord(0x1000), backend);
  EXPECT_EQ(queued.mshrStallCycles, 90u);
  EXPECT_EQ(queued.readyAt, 200u);
  EXPECT_EQ(backend.sent[1].at, 100u);
  L1Access merged = l1.load(20, oneWord(0x0), backend);  // an MSHR hit needs no MSHR
  EXPECT_EQ(merged.readyAt, 100u);
  EXPECT_EQ(merged.mshrStallCycles, 0u);
  EXPECT_EQ(l1.load(250, oneWord(0x2000), backend).mshrStallCycles, 0u);  // free again at 200

  // Two lines in one access: the second waits for the first's fetch.
  L1Access twoLines = l1.load(1000, coalesce(strided(128, 0x10000), 0x3u, 4), backend);
  EXPECT_EQ(twoLines.readyAt, 1200u);
  EXPECT_EQ(twoLines.mshrStallCycles, 100u);
  EXPECT_EQ(l1.stats().mshrStallCycles, 190u);
}

TEST(L1Cache, EachFurtherSectorOfAHitCostsAQuarterCycle) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  CoalescedAccess scattered = coalesce(strided(128), kAll, 4);   // 32 lines, a sector each
  EXPECT_EQ(l1.load(0, scattered, backend).readyAt, 7u + 100u);  // the last line is looked up at 31 / 4
  L1Access hits = l1.load(1000, scattered, backend);
  EXPECT_EQ(hits.readyAt, 1039u);  // the H100's 39.5 for 32 lines against 32 for one
  EXPECT_EQ(hits.lines, 32u);
  EXPECT_EQ(hits.sectorHits, 32u);
  l1.load(2000, wholeLine(0x100000), backend);
  EXPECT_EQ(l1.load(3000, wholeLine(0x100000), backend).readyAt, 3032u);
}

TEST(L1Cache, WarpsShareTheDataStage) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  l1.load(0, wholeLine(0x0), backend);
  EXPECT_EQ(l1.load(1000, wholeLine(0x0), backend).readyAt, 1032u);
  EXPECT_EQ(l1.load(1000, wholeLine(0x0), backend).readyAt, 1033u);  // its sectors pass a cycle later
  EXPECT_EQ(l1.load(1001, wholeLine(0x0), backend).readyAt, 1034u);
  EXPECT_EQ(l1.load(1010, oneWord(0x0), backend).readyAt, 1042u);  // the stage is idle again
}

TEST(L1Cache, StoresAllocateTheirSectorsAndWriteThrough) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  L1Access store = l1.store(0, oneWord(0x5000), backend);
  EXPECT_EQ(store.sectorMisses, 1u);
  EXPECT_EQ(store.readyAt, 100u);                                    // written through all the same
  EXPECT_EQ(l1.store(10, oneWord(0x5004), backend).sectorHits, 1u);  // the sector an earlier store wrote
  L1Access load = l1.load(200, wholeLine(0x5000), backend);
  EXPECT_EQ(load.sectorHits, 1u);  // the stored sector
  EXPECT_EQ(load.sectorMisses, 3u);
  EXPECT_EQ(backend.sent.size(), 3u);
  EXPECT_FALSE(backend.sent[2].request.write);
  EXPECT_EQ(backend.sent[2].request.bytes, 96u);  // only the three missing sectors are fetched
  // st.cg allocates nothing.
  EXPECT_EQ(l1.store(300, oneWord(0x6000), backend, L1Traffic::kGlobal, L1Policy::kBypass).sectorMisses, 1u);
  EXPECT_EQ(l1.load(400, oneWord(0x6000), backend).sectorMisses, 1u);
}

// On the H100 a store to a sector another store wrote fewer than ~150
// cycles before misses; 200 cycles later it hits (l1_store_probe.cu,
// probe/h100/l1_store.ncu.csv). A sector a load brought in hits at once.
TEST(L1Cache, AStoredSectorServesLaterStoresOnlyAfterTheFill) {
  L1Config config;
  config.storeFillCycles = 128;
  L1Cache l1(config);
  RecordingBackend backend(100);
  EXPECT_EQ(l1.store(0, oneWord(0x3000), backend).sectorMisses, 1u);
  EXPECT_EQ(l1.store(100, oneWord(0x3004), backend).sectorMisses, 1u);  // written 100 cycles before
  EXPECT_EQ(l1.store(128, oneWord(0x3008), backend).sectorHits, 1u);    // the first store's fill is done
  EXPECT_EQ(l1.load(300, oneWord(0x4000), backend).sectorMisses, 1u);
  EXPECT_EQ(l1.store(400, oneWord(0x4004), backend).sectorHits, 1u);  // the load's data arrived at 400
  EXPECT_EQ(backend.sent.size(), 5u);                                 // every store still writes through
}

TEST(L1Cache, WithoutStoreAllocationStoresWriteThroughOnly) {
  L1Config config;
  config.storeAllocates = false;  // the GTX 1080's L1 (configs/gtx1080.cfg)
  L1Cache l1(config);
  RecordingBackend backend(100);
  L1Access store = l1.store(0, wholeLine(0x3000), backend);
  EXPECT_EQ(store.readyAt, 100u);
  EXPECT_EQ(store.sectorMisses, 4u);
  ASSERT_EQ(backend.sent.size(), 1u);
  EXPECT_TRUE(backend.sent[0].request.write);
  EXPECT_EQ(backend.sent[0].request.bytes, 128u);
  EXPECT_EQ(l1.load(200, wholeLine(0x3000), backend).sectorMisses, 4u);  // the store left nothing

  L1Access storeHit = l1.store(400, oneWord(0x3000), backend);
  EXPECT_EQ(storeHit.sectorHits, 1u);
  EXPECT_EQ(backend.sent.size(), 3u);  // still written through
  EXPECT_EQ(backend.sent[2].request.bytes, 32u);
  EXPECT_EQ(l1.load(500, wholeLine(0x3000), backend).readyAt, 532u);  // the line stays

  EXPECT_EQ(l1.stats().storeRequests, 2u);
  EXPECT_EQ(l1.stats().storeSectors, 5u);
  EXPECT_EQ(l1.stats().storeSectorHits, 1u);
  EXPECT_EQ(l1.stats().loadSectors, 8u);
  EXPECT_EQ(l1.stats().loadSectorHits, 4u);
  EXPECT_DOUBLE_EQ(l1.stats().sectorHitRatePct(), 100.0 * 5 / 13);
}

TEST(L1Cache, BypassingLoadsNeitherHitNorAllocate) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  EXPECT_EQ(l1.load(0, wholeLine(0x4000), backend, L1Policy::kBypass).readyAt, 100u);
  EXPECT_EQ(l1.load(200, wholeLine(0x4000), backend).readyAt, 300u);  // not allocated by the bypass
  L1Access bypass = l1.load(400, wholeLine(0x4000), backend, L1Policy::kBypass);
  EXPECT_EQ(bypass.readyAt, 500u);  // present, but .cg goes to the back end anyway
  EXPECT_EQ(bypass.sectorMisses, 4u);
  EXPECT_EQ(backend.sent.size(), 3u);
  EXPECT_EQ(l1.load(600, wholeLine(0x4000), backend).readyAt, 632u);
}

TEST(L1Cache, TextureSurfaceAndCopyTrafficShareTheLinesButCountApart) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  // A texture fetch fills the line that a later global load then hits.
  L1Access texture = l1.load(10, wholeLine(0x1000), backend, L1Policy::kAllocate, L1Traffic::kTexture);
  EXPECT_EQ(texture.readyAt, 110u);
  L1Access global = l1.load(200, wholeLine(0x1000), backend);
  EXPECT_EQ(global.readyAt, 232u);
  l1.load(300, oneWord(0x2000), backend, L1Policy::kBypass, L1Traffic::kLdgsts);
  l1.load(400, oneWord(0x1000), backend, L1Policy::kAllocate, L1Traffic::kSurface);
  l1.store(500, oneWord(0x1000), backend, L1Traffic::kSurface);
  const L1Stats& s = l1.stats();
  EXPECT_EQ(s.texture.requests, 1u);
  EXPECT_EQ(s.texture.sectors, 4u);
  EXPECT_EQ(s.texture.sectorHits, 0u);
  EXPECT_EQ(s.loadRequests, 1u);
  EXPECT_EQ(s.loadSectorHits, 4u);
  EXPECT_EQ(s.ldgsts.requests, 1u);
  EXPECT_EQ(s.ldgsts.sectorHits, 0u);
  EXPECT_EQ(s.surfaceLoad.sectorHits, 1u);
  EXPECT_EQ(s.surfaceStore.sectors, 1u);
  EXPECT_EQ(s.storeRequests, 0u);
  // Hits: 4 (global) + 1 (surface load) + 1 (surface store) of 4 + 4 + 1 + 1 + 1 sectors.
  EXPECT_DOUBLE_EQ(s.sectorHitRatePct(), 100.0 * 6 / 11);
}

TEST(L1Cache, RepeatedTextureLookupsCountAsHitsWithoutTraffic) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  // A row of 32 floats: 4 sectors fetched, then looked up once more by a
  // second quad each (8 quads, texture_lookups.h): 4 further hits.
  L1Access fetch = l1.load(10, wholeLine(0x1000), backend, L1Policy::kAllocate, L1Traffic::kTexture);
  l1.countRepeatedTextureLookups(4);
  const L1Stats& s = l1.stats();
  EXPECT_EQ(fetch.sectorMisses, 4u);
  EXPECT_EQ(s.texture.requests, 1u);
  EXPECT_EQ(s.texture.sectors, 8u);
  EXPECT_EQ(s.texture.sectorHits, 4u);
  EXPECT_EQ(s.loadSectors, 0u);
  EXPECT_EQ(backend.sent.size(), 1u);  // one line's fetch, nothing more
  EXPECT_DOUBLE_EQ(s.sectorHitRatePct(), 50.0);
}

TEST(L1Cache, InvalidateDropsEveryLine) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  l1.load(0, wholeLine(0x5000), backend);
  l1.invalidate();
  EXPECT_EQ(l1.load(200, wholeLine(0x5000), backend).readyAt, 300u);
}

// A kept L1 started over behaves as a new one of its new geometry, what it
// held before dropped (the timing model keeps the SMs' L1s from launch to
// launch for their storage only: sim/src/timing/sm_data_caches.h).
TEST(L1Cache, StartedOverItIsANewCache) {
  auto run = [](L1Cache& l1, RecordingBackend& backend, uint64_t start) {
    std::vector<uint64_t> out;
    for (uint64_t i = 0; i < 48; ++i) {
      const uint64_t line = 0x8000 + (i * 7 % 16) * 0x1000;
      L1Access a = i % 3 == 2
                       ? l1.store(start + i * 10, oneWord(line + 32), backend)
                       : l1.load(start + i * 10, i % 2 == 0 ? wholeLine(line) : oneWord(line), backend);
      out.insert(out.end(), {a.readyAt, a.sectorHits, a.sectorMisses, a.mshrStallCycles});
    }
    const L1Stats& stats = l1.stats();
    out.insert(out.end(), {stats.loadSectorHits, stats.storeSectorHits, stats.loadSectors,
                           stats.inFlightSectorHits, backend.sent.size()});
    return out;
  };
  L1Config small;
  small.capacityBytes = 4 * 1024;
  small.storeFillCycles = 15;
  L1Cache kept(L1Config{});
  RecordingBackend before(100);
  run(kept, before, 1000);
  kept.startOver(small);
  RecordingBackend after(100), fresh(100);
  L1Cache made(small);
  EXPECT_EQ(run(kept, after, 0), run(made, fresh, 0));
  // And back to the larger geometry, the smaller's lines dropped too.
  kept.startOver(L1Config{});
  L1Cache large(L1Config{});
  RecordingBackend again(100), freshLarge(100);
  EXPECT_EQ(run(kept, again, 0), run(large, freshLarge, 0));
}

TEST(L1Cache, WithoutCapacityEveryLoadMisses) {
  L1Config config;
  config.capacityBytes = 0;
  L1Cache l1(config);
  RecordingBackend backend(100);
  l1.load(0, wholeLine(0x5000), backend);
  EXPECT_EQ(l1.load(200, wholeLine(0x5000), backend).readyAt, 300u);
}

TEST(L1Cache, EmptyAccessIsReadyAtOnce) {
  L1Cache l1(L1Config{});
  RecordingBackend backend(100);
  EXPECT_EQ(l1.load(7, coalesce(strided(4), 0, 4), backend).readyAt, 7u);
  EXPECT_TRUE(backend.sent.empty());
}

TEST(L1Cache, RejectsImpossibleGeometry) {
  auto with = [](auto change) {
    L1Config config;
    change(config);
    return config;
  };
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.capacityBytes = 1000; })), std::invalid_argument);
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.ways = 0; })), std::invalid_argument);
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.mshrs = 0; })), std::invalid_argument);
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.sectorsPerCycle = 0; })), std::invalid_argument);
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.lineBytes = 100; })), std::invalid_argument);
  EXPECT_THROW(L1Cache(with([](L1Config& c) { c.sectorBytes = 0; })), std::invalid_argument);
}

// A back end whose answers are provisional (as an SM's L2 port): each
// request gets the next ticket.
class TicketingBackend final : public MemoryBackend {
 public:
  explicit TicketingBackend(uint64_t latencyCycles) : latencyCycles_(latencyCycles) {}
  uint64_t request(uint64_t now, const MemoryRequest&) override {
    ++requests_;
    return now + latencyCycles_;
  }
  uint64_t estimateAfter(std::span<const TimedRequest>, uint64_t now, const MemoryRequest&) const override {
    return now + latencyCycles_;
  }
  uint64_t lastTicket() const override { return 100 + requests_ - 1; }

 private:
  uint64_t latencyCycles_;
  uint64_t requests_ = 0;
};

TEST(L1Cache, NamesTheProvisionalAnswersAnAccessDependsOn) {
  L1Cache l1(L1Config{});
  TicketingBackend backend(100);
  l1.load(10, wholeLine(0x1000), backend);
  EXPECT_EQ(l1.lastTickets(), (std::vector<uint64_t>{100}));
  // Another warp hits the sectors in flight: it waits on the same fetch.
  l1.load(20, wholeLine(0x1000), backend);
  EXPECT_EQ(l1.lastTickets(), (std::vector<uint64_t>{100}));
  // A store's write-throughs are answers too.
  l1.store(30, oneWord(0x2000), backend);
  EXPECT_EQ(l1.lastTickets(), (std::vector<uint64_t>{101}));
  // A back end whose answers stand names none.
  RecordingBackend final(100);
  l1.load(40, wholeLine(0x3000), final);
  EXPECT_TRUE(l1.lastTickets().empty());
}

TEST(L1Cache, ALateAnswerMovesTheSectorsItFills) {
  L1Cache l1(L1Config{});
  TicketingBackend backend(100);
  l1.load(10, wholeLine(0x1000), backend);  // ticket 100, said to arrive at 110
  l1.load(12, wholeLine(0x2000), backend);  // ticket 101, at 112
  l1.reviseFill(100, 250);
  l1.settleFills();
  // Hits on the revised line wait for the real answer; the other stands.
  EXPECT_EQ(l1.load(120, wholeLine(0x1000), backend).readyAt, 250u);
  EXPECT_TRUE(l1.lastTickets().empty());  // settled: the fill's answer is final
  EXPECT_EQ(l1.load(300, wholeLine(0x2000), backend).readyAt, 300u + 32u);
}

TEST(L1Cache, ALateAnswerDoesNotMoveALineRefilledSince) {
  L1Config config;
  config.capacityBytes = 128;  // one line
  config.ways = 1;
  L1Cache l1(config);
  TicketingBackend backend(100);
  l1.load(10, wholeLine(0x1000), backend);   // ticket 100
  l1.load(200, wholeLine(0x2000), backend);  // ticket 101 evicts it
  l1.reviseFill(100, 900);
  l1.settleFills();
  EXPECT_EQ(l1.load(400, wholeLine(0x2000), backend).readyAt, 400u + 32u);
}

}  // namespace
}  // namespace ptxsim::memory
