#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerWarpCollectiveSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
