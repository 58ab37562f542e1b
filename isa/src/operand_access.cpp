#include "ptxsim/isa/operand_access.h"

#include "operand_signature.h"

namespace ptxsim::isa {

OperandAccess operandAccess(const Instruction& inst, unsigned index) {
  using lowering::OperandRole;
  if (inst.spec == nullptr) return OperandAccess::Read;
  const lowering::Signature& sig = lowering::signatureOf(*inst.spec);
  OperandRole role = index < sig.tokens.size() ? sig.tokens[index].role : OperandRole::Any;
  switch (role) {
    case OperandRole::Destination:
    case OperandRole::PredicateDestination: return OperandAccess::Write;
    case OperandRole::Label:
    case OperandRole::Function:
    case OperandRole::Table: return OperandAccess::None;
    case OperandRole::Any: return index == 0 ? OperandAccess::Write : OperandAccess::Read;
    default: return OperandAccess::Read;
  }
}

bool destinationIsRead(const Instruction& inst, unsigned index) {
  return index == 0 && (inst.opcode == Opcode::WgmmaMmaAsync || inst.opcode == Opcode::WgmmaMmaAsyncSp);
}

}  // namespace ptxsim::isa
