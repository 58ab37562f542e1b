#include "memory_system.h"

namespace ptxsim::sim::timing {

memory::L2Cache& MemorySystem::forLaunch(const TimingConfig& timing, bool flush) {
  if (flush || !l2_ || !(l2_->config() == timing.l2) || !(dram_->config() == timing.dram)) {
    noc_.reset();
    l2_.reset();
    dram_ = std::make_unique<memory::Hbm>(timing.dram);
    l2_ = std::make_unique<memory::L2Cache>(timing.l2, *dram_);
  }
  if (!noc_ || !(noc_->config() == timing.noc)) {
    memory::L2Cache* l2 = l2_.get();
    noc_ = std::make_unique<memory::Interconnect>(
        timing.noc, timing.l2.slices, [l2](uint64_t line) { return l2->sliceOf(line); }, *l2_);
  }
  dram_->startLaunch();
  l2_->startLaunch();
  noc_->startLaunch();
  return *l2_;
}

}  // namespace ptxsim::sim::timing
