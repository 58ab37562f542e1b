#pragma once

// The half-precision family's pieces, registered by registerHalfSemantics.

#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerHalfArithmetic(SemanticsTable& table);
void registerHalfCompare(SemanticsTable& table);

// set with an f16/bf16/f16x2/bf16x2 destination or source type. The table
// finds set's selector by the destination type, so set.u32.f16x2 reaches
// the Integer class: that selector hands such forms to this one.
bool selectHalfSet(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why);

}  // namespace ptxsim::sim::semantics
