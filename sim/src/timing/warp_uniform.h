#pragma once

// Which PTX registers hold the same value in every lane of a warp, as far
// as ptxas can prove it, and the atomics it therefore aggregates: a 32-bit
// integer atomic add to a provably warp-uniform address whose old value
// is never used becomes one reduction per warp (the lanes' values summed
// in the warp first), where any other atomic costs the L2's atomic unit
// one round per lane sharing a word. The H100 shows both: 0.69 op/cycle
// to one hidden address (32 rounds a request), 0.68 with one lane a warp,
// 21.7 to the parameter's address (tests/timing/calibration/h100/
// bandwidth.out: atomic.one_address, _one_lane, uniform_address).
//
// Conservative: a register is uniform when every definition computes it
// from uniform operands (kernel parameters, constants, %ctaid, %ntid and
// the like, other uniform registers) under a uniform guard, and, when some
// branch of the function is divergent, it has a single definition.

#include <vector>

#include "ptxsim/isa/module.h"

namespace ptxsim::sim::timing {

class WarpUniformity {
 public:
  explicit WarpUniformity(const isa::Function& fn);

  bool uniform(uint32_t reg) const { return reg < uniform_.size() && uniform_[reg]; }
  // Whether ptxas turns `inst` (an atom or red) into one reduction per warp.
  bool aggregatesAtomic(const isa::Instruction& inst) const;

 private:
  bool operandUniform(const isa::Operand& op) const;
  bool computesUniformly(const isa::Instruction& inst) const;

  const isa::Function& fn_;
  std::vector<bool> uniform_;
  std::vector<uint32_t> reads_;  // per register: how many operands read it
};

}  // namespace ptxsim::sim::timing
