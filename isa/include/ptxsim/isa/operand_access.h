#pragma once

// Whether an instruction reads or writes each operand, from its table row's
// operand signature (instruction_table.h). A timing model's dependence
// tracking and register-bank model read it; the executor does not need it.

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

enum class OperandAccess : uint8_t {
  None,   // labels, functions, tables: no register is involved
  Read,   // sources, predicates read, the registers inside an address
  Write,  // destinations (d, dv, p; the `%p` of `%r|%p` too)
};

// The access of operand `index` of `inst`. An untyped `x` operand is a
// write in first place (mma's D, wmma.load's fragment, tex's result) and a
// read elsewhere.
OperandAccess operandAccess(const Instruction& inst, unsigned index);

// Whether operand `index` of `inst`, a destination, is read as well: an
// accumulator updated in place (wgmma.mma_async's D, to which the product
// is added when scale-d is true). Its old value is live up to `inst`.
bool destinationIsRead(const Instruction& inst, unsigned index);

}  // namespace ptxsim::isa
