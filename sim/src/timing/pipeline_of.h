#pragma once

// Which pipeline of a sub-partition a warp instruction issues to.

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

Pipeline pipelineOf(const isa::Instruction& inst);

}  // namespace ptxsim::sim::timing
