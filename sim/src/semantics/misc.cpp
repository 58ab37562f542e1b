#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerMiscSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
