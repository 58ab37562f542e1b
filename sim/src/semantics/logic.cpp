#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerLogicSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
