// f32 and f64 instructions: the family's parts register their opcodes
// (float_arith.cpp, float_divide.cpp, float_function.cpp, float_misc.cpp).

#include "float_families.h"

namespace ptxsim::sim::semantics {

void registerFloatSemantics(SemanticsTable& table) {
  registerFloatArithSemantics(table);
  registerFloatDivideSemantics(table);
  registerFloatFunctionSemantics(table);
  registerFloatMiscSemantics(table);
}

}  // namespace ptxsim::sim::semantics
