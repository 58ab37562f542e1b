#pragma once

// The CUDA device runtime functions a kernel calls by name and the
// simulator provides natively: vprintf, malloc, free, __assertfail.

#include "semantics.h"

namespace ptxsim::sim::semantics {

// Runs a built-in for `lanes`, reading arguments from and writing results
// to the caller's .param variables named by `binding`.
void runBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes);

}  // namespace ptxsim::sim::semantics
