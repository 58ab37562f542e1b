#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerAtomicSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
