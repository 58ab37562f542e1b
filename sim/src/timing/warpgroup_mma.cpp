#include "warpgroup_mma.h"

#include <algorithm>
#include <cmath>

namespace ptxsim::sim::timing {

bool isWgmma(isa::Opcode op) { return op == isa::Opcode::WgmmaMmaAsync || op == isa::Opcode::WgmmaMmaAsyncSp; }

uint32_t wgmmaTensorCycles(const TensorCoreTiming& tensor, const isa::Instruction& inst) {
  const double cycles = std::ceil(inst.shape.n / tensor.wgmmaColumnsPerCycle);
  return std::max(tensor.wgmmaMinCycles, static_cast<uint32_t>(cycles));
}

uint64_t trackWgmmaGroups(WgmmaGroups& groups, isa::Opcode op, uint64_t waitCount, uint64_t now) {
  if (op == isa::Opcode::WgmmaCommitGroup) {
    // An empty group is complete at once (its cycle 0 waits for nothing).
    groups.committed.push_back(groups.open);
    groups.open = 0;
    return now;
  }
  if (op != isa::Opcode::WgmmaWaitGroup) return now;
  uint64_t done = now;
  const size_t waited = groups.committed.size() > waitCount ? groups.committed.size() - waitCount : 0;
  for (size_t g = 0; g < waited; ++g) done = std::max(done, groups.committed[g]);
  groups.committed.erase(groups.committed.begin(), groups.committed.begin() + static_cast<std::ptrdiff_t>(waited));
  return done;
}

}  // namespace ptxsim::sim::timing
