#include "ptxsim/memory/hbm.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ptxsim/memory/address_hash.h"

namespace ptxsim::memory {

namespace {

// `inOrderWait` scaled by a factor drawn from `key` (a fixed hash, so runs
// repeat), uniform in 1 +- percent / 100; no wait stays none.
uint64_t reorderedWait(uint64_t inOrderWait, uint64_t key, uint32_t percent) {
  if (percent == 0 || inOrderWait == 0) return inOrderWait;
  const uint64_t z = mix64(key + 0x9e3779b97f4a7c15ull);  // a well-mixed draw per key
  constexpr uint64_t kOne = 1 << 16;     // the draw's unit
  const uint64_t draw = z % (2 * kOne);  // 0 to 2, in 1 / kOne
  const uint64_t factor = ((100 - uint64_t{percent}) * kOne + percent * draw) / 100;
  return inOrderWait * factor / kOne;
}

}  // namespace

void checkHbmConfig(const HbmConfig& config) {
  auto fail = [](const char* why) { throw std::invalid_argument(std::string("HBM: ") + why); };
  if (config.channels == 0) fail("at least one channel is needed");
  if (config.banksPerChannel == 0) fail("a channel needs at least one bank");
  if (config.rowBytes == 0) fail("a row must hold at least one byte");
  if (config.interleaveBytes == 0) fail("the channel interleave must be at least one byte");
  if (config.bytesPerCyclePerChannel == 0) fail("a channel must move at least one byte a cycle");
  if (config.rowMissLatencyCycles < config.rowHitLatencyCycles)
    fail("a row miss cannot be faster than a row hit");
  if (config.queueReorderPercent > 100) fail("the queue's reordering is at most 100 percent");
}

Hbm::Hbm(const HbmConfig& config) : config_(config) {
  checkHbmConfig(config);
  channelFreeAt_.assign(config.channels, 0);
  openRow_.assign(uint64_t{config.channels} * config.banksPerChannel, kNoOpenRow);
}

HbmLocation Hbm::locate(uint64_t address) const {
  const uint64_t chunk = address / config_.interleaveBytes;
  const uint64_t local =
      chunk / config_.channels * config_.interleaveBytes + address % config_.interleaveBytes;
  const uint64_t rowIndex = local / config_.rowBytes;
  return {spreadIndex(chunk, config_.channels), static_cast<uint32_t>(rowIndex % config_.banksPerChannel),
          rowIndex / config_.banksPerChannel};
}

void Hbm::startLaunch() {
  std::fill(channelFreeAt_.begin(), channelFreeAt_.end(), 0);
  stats_ = {};
}

Hbm::Service Hbm::serve(uint64_t now, const MemoryRequest& request, uint64_t channelFreeAt, uint64_t openRow,
                       const HbmLocation& where) const {
  Service s;
  s.transferCycles =
      (uint64_t{request.bytes} + config_.bytesPerCyclePerChannel - 1) / config_.bytesPerCyclePerChannel;
  const uint64_t start = std::max(now, channelFreeAt);
  s.freeAt = start + s.transferCycles;
  s.rowHit = openRow == where.row;
  s.done = now + reorderedWait(start - now, request.lineAddress, config_.queueReorderPercent) +
           s.transferCycles + (s.rowHit ? config_.rowHitLatencyCycles : config_.rowMissLatencyCycles);
  return s;
}

uint64_t Hbm::request(uint64_t now, const MemoryRequest& request) {
  const HbmLocation where = locate(request.lineAddress);
  uint64_t& freeAt = channelFreeAt_[where.channel];
  uint64_t& openRow = openRow_[uint64_t{where.channel} * config_.banksPerChannel + where.bank];
  const Service s = serve(now, request, freeAt, openRow, where);
  freeAt = s.freeAt;
  openRow = where.row;
  stats_.channelBusyCycles += s.transferCycles;
  if (s.rowHit)
    ++stats_.rowHits;
  else
    ++stats_.rowMisses;
  countTraffic(request, stats_);
  return s.done;
}

uint64_t Hbm::estimateAfter(std::span<const TimedRequest> before, uint64_t now, const MemoryRequest& request) const {
  // Only the earlier requests to the same channel move its free cycle, and
  // only those to the same bank its open row.
  const HbmLocation where = locate(request.lineAddress);
  uint64_t freeAt = channelFreeAt_[where.channel];
  uint64_t openRow = openRow_[uint64_t{where.channel} * config_.banksPerChannel + where.bank];
  for (const TimedRequest& earlier : before) {
    const HbmLocation at = locate(earlier.request.lineAddress);
    if (at.channel != where.channel) continue;
    freeAt = serve(earlier.now, earlier.request, freeAt, openRow, at).freeAt;
    if (at.bank == where.bank) openRow = at.row;
  }
  return serve(now, request, freeAt, openRow, where).done;
}

class Hbm::ChannelView final : public MemoryBackend::View {
 public:
  explicit ChannelView(const Hbm& hbm) : hbm_(hbm) {}
  uint64_t estimateInto(uint64_t now, const MemoryRequest& request) override {
    const HbmLocation where = hbm_.locate(request.lineAddress);
    const uint64_t bank = uint64_t{where.channel} * hbm_.config_.banksPerChannel + where.bank;
    uint64_t& freeAt = entry(channels_, where.channel, hbm_.channelFreeAt_[where.channel]);
    uint64_t& openRow = entry(rows_, bank, hbm_.openRow_[bank]);
    const Service s = hbm_.serve(now, request, freeAt, openRow, where);
    freeAt = s.freeAt;
    openRow = where.row;
    requests_.push_back({now, request});
    return s.done;
  }
  void clear() override {
    View::clear();
    channels_.clear();
    rows_.clear();
  }

 private:
  // The view's value for `key`, copied from `current` when first used: a
  // few keys a view, so a list.
  static uint64_t& entry(std::vector<std::pair<uint64_t, uint64_t>>& list, uint64_t key, uint64_t current) {
    for (auto& [k, value] : list)
      if (k == key) return value;
    return list.emplace_back(key, current).second;
  }

  const Hbm& hbm_;
  std::vector<std::pair<uint64_t, uint64_t>> channels_;  // (channel, free cycle)
  std::vector<std::pair<uint64_t, uint64_t>> rows_;      // (channel x banks + bank, open row)
};

std::unique_ptr<MemoryBackend::View> Hbm::makeView() const { return std::make_unique<ChannelView>(*this); }

}  // namespace ptxsim::memory
