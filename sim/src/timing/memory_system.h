#pragma once

// The memory beyond the SMs: the crossbar (memory/interconnect.h) in front
// of the L2 (memory/l2_cache.h) over the HBM (memory/hbm.h), kept from one
// timed launch to the next as the GPU keeps its L2's lines: a kernel finds
// in the L2 what the launch before it left there.

#include <memory>

#include "copy_engine_log.h"
#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/interconnect.h"
#include "ptxsim/memory/l2_cache.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

class MemorySystem {
 public:
  // The L2 for a launch under `timing`, made anew (empty) when its geometry
  // or the DRAM's changed, emptied when `flush` (the crossbar made anew
  // when its own geometry changed); clocks and statistics restart. An
  // emptied L2 first reads the launch's own data and its `codeBytes` of
  // code from the HBM.
  // The copy engines' lines since the last launch (copyEngineMoved) go
  // into the L2 first (CopyEngineLog::replayInto), unless `flush`.
  memory::L2Cache& forLaunch(const TimingConfig& timing, bool flush, uint64_t codeBytes);
  // A copy engine moved `range` through the L2 (cudaMemset, cudaMemcpy):
  // kept for the next launch within `limits` (CopyEngineLog).
  void copyEngineMoved(const CopyEngineRange& range, const CopyEngineLog::Limits& limits) {
    copies_.add(range, limits);
  }
  const memory::Interconnect& interconnect() const { return *noc_; }
  // Where the driver's windows apply the SMs' requests, in steps
  // (Interconnect::inject and eject, L2Cache::requestInWindow).
  memory::Interconnect& crossbar() { return *noc_; }
  memory::L2Cache& l2() { return *l2_; }
  const memory::Hbm& dram() const { return *dram_; }
  // Brings the L2's state for `lineAddress` into the host's caches ahead of
  // a request for it (L2Cache::prefetchSet); changes nothing.
  void prefetch(uint64_t lineAddress) const { l2_->prefetchSet(lineAddress); }

 private:
  // A launch that starts with empty caches reads its own data (parameters
  // and constant bank: launch.dram_read_bytes; its code) from the HBM
  // first, in the L2's lines.
  void readLaunchData(uint64_t bytes, const memory::L2Config& l2);

  CopyEngineLog copies_;

  std::unique_ptr<memory::Hbm> dram_;
  std::unique_ptr<memory::L2Cache> l2_;
  std::unique_ptr<memory::Interconnect> noc_;
};

}  // namespace ptxsim::sim::timing
