#pragma once

// Test support: a small HBM whose cycles are easy to derive by hand:
// `channels` channels of 2 banks, 1 KiB rows, a 256-byte interleave, 16
// bytes a cycle, row hit 100 and miss 150 cycles, each channel served in
// order (the reordering has its own test).

#include <cstdint>

#include "ptxsim/memory/hbm.h"

namespace ptxsim::memory::test {

inline HbmConfig smallHbm(uint32_t channels) {
  HbmConfig config;
  config.channels = channels;
  config.banksPerChannel = 2;
  config.rowBytes = 1024;
  config.interleaveBytes = 256;
  config.rowHitLatencyCycles = 100;
  config.rowMissLatencyCycles = 150;
  config.bytesPerCyclePerChannel = 16;
  config.queueReorderPercent = 0;
  return config;
}

}  // namespace ptxsim::memory::test
