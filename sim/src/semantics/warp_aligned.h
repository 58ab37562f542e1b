#pragma once

// The warp-wide .sync.aligned matrix instructions (mma, wmma, ldmatrix,
// stmatrix) need every thread of the warp to execute the same instruction:
// each lane's result depends on the others' registers. Under independent
// thread scheduling the executor first gathers the warp's live lanes
// (SyncKind::WarpAligned); a warp of which some lane is absent (exited,
// diverged, predicated off, beyond the CTA's last thread) is an error the
// ISA leaves undefined, reported rather than computed from stale registers.
// A guard false on every lane skips the instruction.

#include <bit>
#include <string>

#include "../exec/exec_context.h"
#include "../hex_text.h"

namespace ptxsim::sim::semantics {

inline bool wholeWarpExecutes(exec::ExecContext& ctx, const char* name) {
  constexpr exec::LaneMask kAll = ~exec::LaneMask{0};
  if (ctx.mask == kAll) return true;
  if (ctx.mask == 0) return false;
  auto first = static_cast<unsigned>(std::countr_zero(ctx.mask));
  ctx.fail(LaunchErrorKind::IllegalInstruction,
           std::string(name) + ".sync.aligned needs all 32 threads of the warp; lanes " + hex32(~ctx.mask) +
               " do not execute it",
           first);
  return false;
}

}  // namespace ptxsim::sim::semantics
