#pragma once

// Lowering of variable and parameter declarations: the state space, type,
// vector width, alignment and array shape, and the initializer's bytes.

#include <string>
#include <vector>

#include "constant_expression.h"
#include "lowering_context.h"

namespace ptxsim::isa::lowering {

struct DeclaredType {
  StateSpace space = StateSpace::Reg;
  DataType type = DataType::None;
  uint8_t vectorWidth = 1;
  uint32_t alignment = 0;  // 0: natural
  StateSpace pointeeSpace = StateSpace::Generic;
  uint32_t pointeeAlignment = 0;
  bool managed = false;
};

DeclaredType lowerDeclaredType(gen::PtxParser::StateSpaceContext* space,
                               const std::vector<gen::PtxParser::DeclModifierContext*>& modifiers,
                               LoweringContext& context);

// Builds a variable from one declarator; array sizes and the initializer
// are evaluated with `resolve`. Returns false after reporting an error.
bool lowerVariable(const DeclaredType& type, gen::PtxParser::DeclaratorContext* declarator,
                   LoweringContext& context, const NameResolver& resolve, Variable& out);

// The parameter count of `%r<100>`, or 0 for a plain name.
uint32_t parameterizedCount(gen::PtxParser::DeclaratorContext* declarator);

Parameter lowerParameter(gen::PtxParser::ParamDeclContext* param, LoweringContext& context);

// Lays parameters out in order, each at its alignment; returns the total.
uint64_t layOutParameters(std::vector<Parameter>& params);

}  // namespace ptxsim::isa::lowering
