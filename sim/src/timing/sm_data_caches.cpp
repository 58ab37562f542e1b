#include "sm_data_caches.h"

namespace ptxsim::sim::timing {

memory::L1Config l1Config(const TimingConfig& timing, uint32_t capacityBytes) {
  memory::L1Config c;
  c.capacityBytes = capacityBytes;
  c.ways = timing.l1.ways;
  c.lineBytes = timing.l1.lineBytes;
  c.sectorBytes = timing.l1.sectorBytes;
  c.hitLatencyCycles = timing.l1.hitLatencyCycles;
  c.sectorsPerCycle = timing.l1.sectorsPerCycle;
  c.mshrs = timing.l1.mshrs;
  c.storeAllocates = timing.l1.storeAllocates;
  c.storeFillCycles = timing.l1.storeFillCycles;
  c.replacement = timing.l1.replacement;
  return c;
}

// One sector per line, a line per cycle.
memory::L1Config constantCacheConfig(const TimingConfig& timing) {
  memory::L1Config c;
  c.capacityBytes = timing.constant.capacityBytes;
  c.ways = timing.constant.ways;
  c.lineBytes = timing.constant.lineBytes;
  c.sectorBytes = timing.constant.lineBytes;
  c.hitLatencyCycles = timing.constant.hitLatencyCycles;
  c.sectorsPerCycle = 1;
  return c;
}

std::vector<SmDataCache>& SmDataCaches::forLaunch(const TimingConfig& timing, uint32_t sms,
                                                  uint32_t l1Bytes) {
  const memory::L1Config l1 = l1Config(timing, l1Bytes);
  const memory::L1Config constant = constantCacheConfig(timing);
  for (SmDataCache& sm : sms_) {
    sm.l1.startOver(l1);
    sm.constant.startOver(constant);
  }
  if (sms_.size() > sms) sms_.erase(sms_.begin() + sms, sms_.end());
  while (sms_.size() < sms) sms_.push_back({memory::L1Cache(l1), memory::L1Cache(constant)});
  return sms_;
}

}  // namespace ptxsim::sim::timing
