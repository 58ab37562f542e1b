// HBM channels, banks and row buffers against hand-derived cycles. The small
// configuration: 4 channels of 2 banks, 1 KiB rows, 256-byte interleave, 16
// bytes a cycle, row hit 100 and miss 150 cycles. Chunk c (address / 256)
// lies in channel (c % 4 + xorFold(c / 4, 2)) % 4 as local chunk c / 4; local
// row r = local address / 1024 in bank r % 2 as row r / 2.
#include "ptxsim/memory/hbm.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "small_hbm.h"

namespace ptxsim::memory {
namespace {

HbmConfig small() { return test::smallHbm(4); }

MemoryRequest read(uint64_t line, uint32_t bytes) { return {line, 0xf, bytes, false}; }

void expectLocation(const Hbm& hbm, uint64_t address, uint32_t channel, uint32_t bank, uint64_t row) {
  const HbmLocation where = hbm.locate(address);
  EXPECT_EQ(where.channel, channel) << address;
  EXPECT_EQ(where.bank, bank) << address;
  EXPECT_EQ(where.row, row) << address;
}

TEST(Hbm, RowHitIsFasterThanRowMiss) {
  Hbm hbm(small());
  expectLocation(hbm, 0x0, 0, 0, 0);
  expectLocation(hbm, 0x2200, 0, 0, 1);  // chunk 34: (2 + xorFold(8, 2) = 2) % 4; local 8 x 256 = row index 2
  expectLocation(hbm, 0x1300, 0, 1, 0);  // chunk 19: (3 + xorFold(4, 2) = 1) % 4; local 4 x 256 = row index 1
  EXPECT_EQ(hbm.request(0, read(0x0, 128)), 0u + 8u + 150u);           // closed bank: a miss
  EXPECT_EQ(hbm.request(1000, read(0x80, 128)), 1000u + 8u + 100u);    // same row: a hit
  EXPECT_EQ(hbm.request(1500, read(0x1300, 32)), 1500u + 2u + 150u);   // the other bank: opens its own row
  EXPECT_EQ(hbm.request(2000, read(0x2200, 128)), 2000u + 8u + 150u);  // bank 0's other row
  EXPECT_EQ(hbm.request(2500, read(0x1380, 32)), 2500u + 2u + 100u);   // bank 1 kept its row
  EXPECT_EQ(hbm.request(3000, read(0x0, 128)), 3000u + 8u + 150u);     // row 0 was closed by row 1
  EXPECT_EQ(hbm.stats().rowHits, 2u);
  EXPECT_EQ(hbm.stats().rowMisses, 4u);
  EXPECT_EQ(hbm.stats().readRequests, 6u);
  EXPECT_EQ(hbm.stats().bytesRead, 4u * 128u + 2u * 32u);
}

TEST(Hbm, RequestsOnOneChannelQueueBehindEachOther) {
  Hbm hbm(small());
  EXPECT_EQ(hbm.request(0, read(0x0, 128)), 158u);                    // channel 0 busy 0..8
  EXPECT_EQ(hbm.request(0, read(0x80, 128)), 8u + 8u + 100u);         // waits for it, then a row hit
  EXPECT_EQ(hbm.request(2, read(0x100, 32)), 2u + 2u + 150u);         // chunk 1: channel 1 is idle
  EXPECT_EQ(hbm.request(20, {0x0, 0x1, 32, true}), 20u + 2u + 100u);  // writes share the channel
  EXPECT_EQ(hbm.stats().channelBusyCycles, 8u + 8u + 2u + 2u);
  EXPECT_EQ(hbm.stats().writeRequests, 1u);
  EXPECT_EQ(hbm.stats().bytesWritten, 32u);
  EXPECT_EQ(hbm.stats().readRequests, 3u);
}

TEST(Hbm, AReorderingChannelRedrawsEachWaitButKeepsItsBandwidth) {
  // Eight 128-byte reads on channel 0 at cycle 0, each 8 cycles on it: in
  // order, the k-th waits 8k cycles. Reordered at 100%, it waits between 0
  // and 16k, drawn from its line, so a twin answers the same; the channel
  // is still busy 64 cycles, and an idle channel adds no wait to redraw.
  HbmConfig config = small();
  Hbm inOrder(config);
  config.queueReorderPercent = 100;
  Hbm reordered(config), twin(config);
  std::vector<uint64_t> lines;
  for (uint64_t line = 0; lines.size() < 8; line += 128)
    if (inOrder.locate(line).channel == 0) lines.push_back(line);
  std::set<int64_t> shifts;
  for (uint64_t k = 0; k < lines.size(); ++k) {
    const uint64_t expected = inOrder.request(0, read(lines[k], 128));
    const uint64_t done = reordered.request(0, read(lines[k], 128));
    EXPECT_EQ(done, twin.request(0, read(lines[k], 128))) << k;
    const auto shift = static_cast<int64_t>(done) - static_cast<int64_t>(expected);
    EXPECT_LE(std::abs(shift), static_cast<int64_t>(8 * k)) << k;
    shifts.insert(shift);
  }
  EXPECT_GT(shifts.size(), 4u);  // neither in order nor all alike
  EXPECT_EQ(reordered.stats().channelBusyCycles, 64u);
  EXPECT_EQ(reordered.request(1000, read(lines[0], 128)), inOrder.request(1000, read(lines[0], 128)));
  config.queueReorderPercent = 101;
  EXPECT_THROW(Hbm{config}, std::invalid_argument);
}

TEST(Hbm, PowerOfTwoStridesSpreadOverChannels) {
  Hbm hbm(small());
  // A 1 KiB stride is 4 chunks: plain chunk % 4 would send all to channel 0;
  // the fold rotates block i by i.
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(hbm.locate(i * 1024ull).channel, i);

  Hbm h100;  // 80 channels
  for (uint32_t log2Stride = 8; log2Stride <= 32; ++log2Stride) {
    std::set<uint32_t> channels;
    for (uint64_t i = 0; i < 4 * 80; ++i) channels.insert(h100.locate(i << log2Stride).channel);
    EXPECT_EQ(channels.size(), 80u) << "stride 2^" << log2Stride;
  }
}

TEST(Hbm, DefaultsMatchTheH100DramChase) {
  Hbm hbm;
  // One sector: 2 cycles on a 21-byte channel, then the row miss or hit.
  EXPECT_EQ(hbm.request(0, {0x0, 0x1, 32, false}), 2u + 413u);
  EXPECT_EQ(hbm.request(1000, {0x0, 0x1, 32, false}), 1000u + 2u + 401u);
  EXPECT_EQ(hbm.config().channels * hbm.config().bytesPerCyclePerChannel, 1680u);  // 1565 measured (bw.dram.read)
}

TEST(Hbm, RejectsImpossibleConfigurations) {
  auto messageFor = [](auto change) -> std::string {
    HbmConfig config = small();
    change(config);
    try {
      Hbm hbm(config);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.channels = 0; }), "HBM: at least one channel is needed");
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.banksPerChannel = 0; }),
            "HBM: a channel needs at least one bank");
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.rowBytes = 0; }), "HBM: a row must hold at least one byte");
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.interleaveBytes = 0; }),
            "HBM: the channel interleave must be at least one byte");
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.bytesPerCyclePerChannel = 0; }),
            "HBM: a channel must move at least one byte a cycle");
  EXPECT_EQ(messageFor([](HbmConfig& c) { c.rowMissLatencyCycles = 99; }),
            "HBM: a row miss cannot be faster than a row hit");
  EXPECT_EQ(messageFor([](HbmConfig&) {}), "accepted");
}

TEST(Hbm, AViewAnswersAsEstimateAfterItsRequests) {
  Hbm hbm(small());
  hbm.request(0, read(0x000, 128));  // the channels' and banks' state the view starts from
  std::unique_ptr<MemoryBackend::View> view = hbm.makeView();
  std::vector<TimedRequest> before;
  const std::vector<TimedRequest> requests = {{0, read(0x000, 128)},  {0, read(0x100, 64)},
                                              {3, read(0x800, 128)},  {3, read(0x1000, 32)},
                                              {40, read(0x080, 128)}, {41, read(0x2400, 128)}};
  for (const TimedRequest& r : requests) {
    EXPECT_EQ(view->estimateInto(r.now, r.request), hbm.estimateAfter(before, r.now, r.request)) << before.size();
    before.push_back(r);
  }
  ASSERT_EQ(view->requests().size(), requests.size());
  EXPECT_EQ(view->requests()[2].request.lineAddress, 0x800u);
  EXPECT_EQ(hbm.stats().readRequests, 1u);  // a view changes nothing
  // Cleared, it sees the HBM as it is again.
  view->clear();
  EXPECT_TRUE(view->requests().empty());
  EXPECT_EQ(view->estimateInto(0, read(0x000, 128)), hbm.estimate(0, read(0x000, 128)));
}

}  // namespace
}  // namespace ptxsim::memory
