#pragma once

// Which pipeline of a sub-partition a warp instruction issues to.

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

Pipeline pipelineOf(const isa::Instruction& inst);

// Whether ptxas leaves nothing of the instruction to issue: a move between
// registers or of a constant (register allocation and immediate operands
// absorb it), of the block or grid size (constant-bank operands), a cvt
// between integer types of one width, cvta.to.global, or a load of a
// parameter (a constant-bank operand or a register). Its result is ready
// when its source is.
bool vanishesInSass(const isa::Function& fn, const isa::Instruction& inst);

}  // namespace ptxsim::sim::timing
