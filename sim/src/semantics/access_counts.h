#pragma once

// The profiler's load and store instruction counts (Nsight Compute's
// smsp__inst_executed_op_{global,shared}_{ld,st}), shared by every
// instruction that reads or writes memory.

#include <bit>

#include "../exec/exec_context.h"
#include "ptxsim/memory/generic_address.h"

namespace ptxsim::sim::semantics {

inline void countAccess(exec::ExecContext& ctx, AddressSpace space, bool store) {
  if (space == AddressSpace::Generic && ctx.mask != 0) {
    // Classify a generic access by its first lane, as a profiler would
    // attribute the instruction to the space it touched.
    uint64_t first = ctx.report.addresses[static_cast<unsigned>(std::countr_zero(ctx.mask))];
    space = memory::classify(ctx.layout, first) == memory::Window::Shared ? AddressSpace::Shared : AddressSpace::Global;
  }
  if (space == AddressSpace::Global) {
    ++(store ? ctx.stats.globalStoreInstructions : ctx.stats.globalLoadInstructions);
  } else if (space == AddressSpace::Shared) {
    ++(store ? ctx.stats.sharedStoreInstructions : ctx.stats.sharedLoadInstructions);
  }
}

}  // namespace ptxsim::sim::semantics
