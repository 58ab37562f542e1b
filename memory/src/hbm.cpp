#include "ptxsim/memory/hbm.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ptxsim/memory/address_hash.h"

namespace ptxsim::memory {

void checkHbmConfig(const HbmConfig& config) {
  auto fail = [](const char* why) { throw std::invalid_argument(std::string("HBM: ") + why); };
  if (config.channels == 0) fail("at least one channel is needed");
  if (config.banksPerChannel == 0) fail("a channel needs at least one bank");
  if (config.rowBytes == 0) fail("a row must hold at least one byte");
  if (config.interleaveBytes == 0) fail("the channel interleave must be at least one byte");
  if (config.bytesPerCyclePerChannel == 0) fail("a channel must move at least one byte a cycle");
  if (config.rowMissLatencyCycles < config.rowHitLatencyCycles)
    fail("a row miss cannot be faster than a row hit");
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

uint64_t Hbm::request(uint64_t now, const MemoryRequest& request) {
  const HbmLocation where = locate(request.lineAddress);
  uint64_t& freeAt = channelFreeAt_[where.channel];
  const uint64_t start = std::max(now, freeAt);
  const uint64_t transferCycles =
      (uint64_t{request.bytes} + config_.bytesPerCyclePerChannel - 1) / config_.bytesPerCyclePerChannel;
  freeAt = start + transferCycles;
  stats_.channelBusyCycles += transferCycles;

  uint64_t& openRow = openRow_[uint64_t{where.channel} * config_.banksPerChannel + where.bank];
  const bool rowHit = openRow == where.row;
  openRow = where.row;
  if (rowHit)
    ++stats_.rowHits;
  else
    ++stats_.rowMisses;

  countTraffic(request, stats_);
  return freeAt + (rowHit ? config_.rowHitLatencyCycles : config_.rowMissLatencyCycles);
}

}  // namespace ptxsim::memory
