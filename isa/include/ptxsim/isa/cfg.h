#pragma once

// Basic blocks, the control-flow graph and immediate post-dominators of a
// function. Each branch's reconvergence point is the first instruction of
// its block's immediate post-dominator (kNone: the function's exit).

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

// Fills fn.blocks, each instruction's block, and each branch's
// reconvergence point. Branch targets must already be resolved.
void buildControlFlow(Function& fn);

}  // namespace ptxsim::isa
