#pragma once

// The SMs' L1 data caches and constant caches, kept from launch to launch
// for their storage only: every launch starts them empty, as a launch
// invalidates the L1s on the GPU (they are not coherent), so a launch
// sees exactly what new caches would give it. Building 132 new L1s of up
// to 256 KiB each cost a short kernel's launch milliseconds of clearing
// memory it never used (issue 44); startOver empties a set only when it is
// next looked up.

#include <cstdint>
#include <vector>

#include "ptxsim/memory/l1_cache.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

struct SmDataCache {
  memory::L1Cache l1;
  memory::L1Cache constant;
};

class SmDataCaches {
 public:
  // The caches of `sms` SMs for a launch under `timing` whose L1 gets
  // `l1Bytes` of the unified array (memory/l1_carveout.h), every one as new.
  std::vector<SmDataCache>& forLaunch(const TimingConfig& timing, uint32_t sms, uint32_t l1Bytes);

 private:
  std::vector<SmDataCache> sms_;
};

// The L1 of `capacityBytes` and the constant cache under `timing`.
memory::L1Config l1Config(const TimingConfig& timing, uint32_t capacityBytes);
memory::L1Config constantCacheConfig(const TimingConfig& timing);

}  // namespace ptxsim::sim::timing
