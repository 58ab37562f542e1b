#pragma once

// Every counter of a launch's statistics, and what identifies the launch
// (not the wall time or host thread count, which legitimately differ
// between runs): what tests compare to prove two runs did the same work.

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/sim/kernel_stats.h"

namespace ptxsim::test {

inline std::vector<uint64_t> counters(const sim::KernelStats& s) {
  std::vector<uint64_t> c = {s.grid.x,
                             s.grid.y,
                             s.grid.z,
                             s.block.x,
                             s.block.y,
                             s.block.z,
                             s.dynamicSharedBytes,
                             s.staticSharedBytes,
                             s.registersPerThread,
                             s.warpInstructions,
                             s.threadInstructions,
                             s.threadInstructionsPredOn,
                             s.globalLoadInstructions,
                             s.globalStoreInstructions,
                             s.sharedLoadInstructions,
                             s.sharedStoreInstructions,
                             s.atomicInstructions,
                             s.branchInstructions,
                             s.divergentBranches,
                             s.barriers,
                             s.warpSyncHazards};
  c.insert(c.end(), s.profileTriggers.begin(), s.profileTriggers.end());
  return c;
}

// The statistics as JSON, every figure but the host's own (the wall time
// and the host thread count): two runs of the same work on different
// numbers of host threads give the same text.
inline std::string figuresJson(sim::KernelStats stats) {
  stats.simulationSeconds = 0;
  stats.hostThreads = 0;
  return stats.toJson();
}

}  // namespace ptxsim::test
