#pragma once

// Which instructions an SM can run ahead of the others through
// (timing_driver.cpp, "Running ahead"): those whose effects and timing
// involve nothing beyond the SM. Registers, the CTA's own shared memory
// and parameters, CTA barriers, warp collectives, branches and the
// arithmetic units stay on it; global, local (behind the L1, so the L2),
// constant (read from device memory), texture and cluster accesses,
// fences, mbarriers, calls, returns and exits do not, nor anything not
// named here (so a new opcode is safe until it is looked at).

#include "../exec/prepared.h"

namespace ptxsim::sim::timing {

bool staysOnSm(const exec::PreparedInstruction& pi);

}  // namespace ptxsim::sim::timing
