#include "warpgroup_mma.h"

#include <algorithm>
#include <cmath>

namespace ptxsim::sim::timing {

bool isWgmma(isa::Opcode op) { return op == isa::Opcode::WgmmaMmaAsync || op == isa::Opcode::WgmmaMmaAsyncSp; }

uint32_t wgmmaTensorCycles(const TensorCoreTiming& tensor, const isa::Instruction& inst) {
  const double cycles = std::ceil(inst.shape.n / tensor.wgmmaColumnsPerCycle);
  return std::max(tensor.wgmmaMinCycles, static_cast<uint32_t>(cycles));
}

}  // namespace ptxsim::sim::timing
