#include "warpgroup_mma.h"

#include <algorithm>
#include <cmath>

namespace ptxsim::sim::timing {

bool isWgmma(isa::Opcode op) { return op == isa::Opcode::WgmmaMmaAsync || op == isa::Opcode::WgmmaMmaAsyncSp; }

WgmmaCycles wgmmaTensorCycles(const TensorCoreTiming& tensor, const isa::Instruction& inst) {
  const auto compute = static_cast<uint32_t>(std::ceil(inst.shape.n / tensor.wgmmaColumnsPerCycle));
  const auto overhead = static_cast<uint32_t>(
      tensor.wgmmaOverheadCycles + std::ceil(inst.shape.n / tensor.wgmmaOverheadColumnsPerCycle));
  return {compute, std::max(compute, overhead)};
}

}  // namespace ptxsim::sim::timing
