#include "memory_system.h"

namespace ptxsim::sim::timing {

memory::L2Cache& MemorySystem::forLaunch(const TimingConfig& timing, bool flush) {
  if (flush || !l2_ || !(l2_->config() == timing.l2) || !(dram_->config() == timing.dram)) {
    l2_.reset();
    dram_ = std::make_unique<memory::Hbm>(timing.dram);
    l2_ = std::make_unique<memory::L2Cache>(timing.l2, *dram_);
  }
  dram_->startLaunch();
  l2_->startLaunch();
  return *l2_;
}

}  // namespace ptxsim::sim::timing
