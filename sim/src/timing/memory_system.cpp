#include "memory_system.h"

#include <algorithm>

#include "../align_up.h"

namespace ptxsim::sim::timing {

namespace {

// Where the launch's own data lies for the HBM's mapping: above every
// address a program's memory can have.
constexpr uint64_t kLaunchDataAddress = 0xffff'0000'0000'0000ull;

}  // namespace

void MemorySystem::readLaunchData(uint64_t bytes, const memory::L2Config& l2) {
  for (uint64_t offset = 0; offset < bytes; offset += l2.lineBytes) {
    const auto chunk = static_cast<uint32_t>(std::min<uint64_t>(l2.lineBytes, bytes - offset));
    const uint32_t sectors = (chunk + l2.sectorBytes - 1) / l2.sectorBytes;
    dram_->request(0, {kLaunchDataAddress + offset, (1u << sectors) - 1, chunk, false});
  }
}

memory::L2Cache& MemorySystem::forLaunch(const TimingConfig& timing, bool flush, uint64_t codeBytes) {
  // A new fetch granularity alone (cudaLimitMaxL2FetchGranularity) keeps the lines.
  memory::L2Config sameFetch = timing.l2;
  if (l2_) sameFetch.fetchBytes = l2_->config().fetchBytes;
  if (!l2_ || !(l2_->config() == sameFetch) || !(dram_->config() == timing.dram)) {
    noc_.reset();
    l2_.reset();
    dram_ = std::make_unique<memory::Hbm>(timing.dram);
    l2_ = std::make_unique<memory::L2Cache>(timing.l2, *dram_);
  } else if (flush) {
    // Emptied in place (L2Cache::flush): building a new L2 costs a short
    // kernel more than its own requests. The banks' open rows go too.
    *dram_ = memory::Hbm(timing.dram);
    l2_->flush();
  }
  if (!noc_ || !(noc_->config() == timing.noc)) {
    memory::L2Cache* l2 = l2_.get();
    noc_ = std::make_unique<memory::Interconnect>(
        timing.noc, timing.l2.slices, [l2](uint64_t line) { return l2->sliceOf(line); }, *l2_);
  }
  l2_->setFetchBytes(timing.l2.fetchBytes);
  if (!flush) copies_.replayInto(*l2_);  // else the flush wrote them back
  copies_.clear();
  dram_->startLaunch();
  l2_->startLaunch();
  noc_->startLaunch();
  if (flush) readLaunchData(timing.launchDramReadBytes + alignUp(codeBytes, timing.launchCodeReadBytes), timing.l2);
  return *l2_;
}

}  // namespace ptxsim::sim::timing
