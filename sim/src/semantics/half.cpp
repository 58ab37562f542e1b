// f16, bf16, f16x2 and bf16x2 instructions: arithmetic (half_arith.cpp) and
// comparisons (half_compare.cpp).

#include "half.h"

namespace ptxsim::sim::semantics {

void registerHalfSemantics(SemanticsTable& table) {
  registerHalfArithmetic(table);
  registerHalfCompare(table);
}

}  // namespace ptxsim::sim::semantics
