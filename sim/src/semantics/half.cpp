#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerHalfSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
