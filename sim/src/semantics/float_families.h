#pragma once

// The parts of the f32/f64 family, each registering its own opcodes.

#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerFloatArithSemantics(SemanticsTable& table);     // add sub mul fma mad
void registerFloatDivideSemantics(SemanticsTable& table);    // div rcp sqrt rsqrt
void registerFloatFunctionSemantics(SemanticsTable& table);  // sin cos lg2 ex2 tanh
void registerFloatMiscSemantics(SemanticsTable& table);      // abs neg min max copysign testp

}  // namespace ptxsim::sim::semantics
