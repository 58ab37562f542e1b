#pragma once

// HBM behind the L2: channels with banks and row buffers, analytic like the
// rest of the timing model (a call gets the cycle the request leaves the L2
// and returns the cycle it is done; nothing is ticked).
//
// Address mapping: the address is cut into interleaveBytes chunks; a chunk's
// channel is spreadIndex(chunk, channels) (address_hash.h: consecutive
// chunks rotate over the channels, higher bits XOR-folded in so that
// power-of-two strides spread too). Within its channel the chunk is local
// chunk chunk / channels; the channel's local bytes are cut into rowBytes
// rows dealt round-robin to the banks: row index r = local address /
// rowBytes lies in bank r % banksPerChannel as that bank's row
// r / banksPerChannel. A request (one L2 line) is placed by its line
// address, so interleaveBytes should be at least the L2's line.
//
// Each channel is a port moving bytesPerCyclePerChannel a cycle (SM cycles),
// reads and writes alike, serving requests in call order: a request starts
// at max(now, the channel's free cycle), holds it ceil(bytes / width) cycles,
// and is done rowHitLatencyCycles after its transfer ends when its bank has
// its row open, rowMissLatencyCycles (activate and precharge included)
// otherwise; the bank then has that row open. Bank busy times and refresh
// are not modelled: the H100's page-local and page-stride chases differ by
// only 11 cycles, so its controller hides most of a row miss.
//
// A channel's controller does not serve its queue in arrival order (it
// favours open rows and idle banks), so requests that met the same backlog
// come back at different times. The channel's free cycle still advances in
// call order (its bandwidth is unchanged), but a request's wait for it is
// scaled by a factor drawn from its line address (a fixed hash, so the same
// run gives the same cycles), uniform in 1 +- queueReorderPercent / 100; an
// idle channel adds no wait, so unloaded latency is unchanged. Why: on the
// H100, transpose_naive's loads issued in the same few cycles come back
// 884 to 2036 cycles later (10th to 90th percentile) in no order of warp,
// so a block's 8 warps get their rows a median 1017 cycles apart
// (tests/timing/kernels/probe/store_spread_probe.cu); served in order, the
// model's come back a median 74 cycles apart, reordered 208 (most of the
// model's wait is in ports that stay in order: README).
//
// Defaults: the H100 SXM at its 1980 MHz SM clock (tests/timing/calibration/
// h100/summary.txt). Latencies: a DRAM chase from the SM takes 679.4 cycles
// in one page (latency.dram.page_local) and 690.7 a new page each time
// (page_stride); an L2 chase takes 276.1 (latency.l2.chase), which the L2's
// miss path adds, and a sector's 2 cycles on the channel, leaving 401 and
// 413. Bandwidth: 80 channels is an estimate (5 HBM3 stacks of 16 channels);
// 16 bytes a cycle each gives 1280 bytes a cycle, against the measured read
// bandwidth of 1236 (bw.dram.read; copy reaches 1435). Banks, row size and
// interleave are HBM3-like estimates, not measured.

#include <cstdint>
#include <vector>

#include "ptxsim/memory/backend.h"

namespace ptxsim::memory {

struct HbmConfig {
  uint32_t channels = 80;
  uint32_t banksPerChannel = 32;  // two pseudo-channels of 16 banks
  uint32_t rowBytes = 1024;       // a pseudo-channel's page
  uint32_t interleaveBytes = 256;
  uint32_t rowHitLatencyCycles = 401;
  uint32_t rowMissLatencyCycles = 413;
  uint32_t bytesPerCyclePerChannel = 21;
  // How far a request's wait for its busy channel is redrawn, in percent: 0
  // serves each channel strictly in call order; p draws the wait uniformly
  // from (1 - p/100) to (1 + p/100) times the in-order one (see above).
  uint32_t queueReorderPercent = 100;

  bool operator==(const HbmConfig&) const = default;
};

struct HbmStats {
  uint64_t readRequests = 0;
  uint64_t writeRequests = 0;
  uint64_t bytesRead = 0;     // dram__bytes_read.sum
  uint64_t bytesWritten = 0;  // dram__bytes_write.sum
  uint64_t rowHits = 0;
  uint64_t rowMisses = 0;
  uint64_t channelBusyCycles = 0;  // summed over channels
};

// Where an address lies in the HBM.
struct HbmLocation {
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint64_t row = 0;
};

// Throws std::invalid_argument for a configuration Hbm cannot be built
// with (its constructor's list), without building it.
void checkHbmConfig(const HbmConfig& config);

class Hbm final : public MemoryBackend {
 public:
  // Throws std::invalid_argument for zero channels, banks, row or interleave
  // bytes or channel width, or a row miss faster than a row hit.
  explicit Hbm(const HbmConfig& config = HbmConfig{});

  uint64_t request(uint64_t now, const MemoryRequest& request) override;
  uint64_t estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                         const MemoryRequest& request) const override;
  // A view that keeps the free cycles and open rows its requests left in
  // the channels and banks they used: a request costs the same however
  // many came before it.
  std::unique_ptr<View> makeView() const override;
  // A new launch: its clock starts at 0, so every channel is free; the
  // statistics restart; the banks' open rows stay.
  void startLaunch();

  HbmLocation locate(uint64_t address) const;

  const HbmStats& stats() const { return stats_; }
  const HbmConfig& config() const { return config_; }

 private:
  static constexpr uint64_t kNoOpenRow = ~uint64_t{0};
  // What a request does to its channel and bank: request() and
  // estimateAfter() share this.
  struct Service {
    uint64_t freeAt = 0;  // the channel's, after the transfer
    uint64_t transferCycles = 0;
    bool rowHit = false;
    uint64_t done = 0;
  };
  Service serve(uint64_t now, const MemoryRequest& request, uint64_t channelFreeAt, uint64_t openRow,
                const HbmLocation& where) const;

  class ChannelView;

  HbmConfig config_;
  std::vector<uint64_t> channelFreeAt_;
  std::vector<uint64_t> openRow_;  // channel-major, per bank
  HbmStats stats_;
};

}  // namespace ptxsim::memory
