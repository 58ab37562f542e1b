#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerConvertSemantics(SemanticsTable& table) { (void)table; }

}  // namespace ptxsim::sim::semantics
