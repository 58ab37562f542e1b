#pragma once

// The N of cp.async.wait_group and wgmma.wait_group (the most recent
// groups the wait leaves in flight), which the timing model reads from
// pi.aux: an immediate, the instruction's first operand.

#include <string>

#include "semantics.h"

namespace ptxsim::sim::semantics {

inline bool selectWaitGroupCount(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc,
                                 std::string& why) {
  const isa::Operand& n = sc.function.operands[inst.firstOperand];
  if (n.kind != isa::OperandKind::Immediate || n.value < 0) {
    why = std::string(isa::mnemonicOf(inst.opcode)) + "'s N must be a non-negative integer constant";
    return false;
  }
  pi.aux = static_cast<uint64_t>(n.value);
  return true;
}

}  // namespace ptxsim::sim::semantics
