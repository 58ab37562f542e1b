#pragma once

// ptxas's contraction of unrounded multiplies and adds into fused
// multiply-adds, done on the IR so that a whole program computes what the
// GPU computes.
//
// The PTX ISA lets the code generator fuse `mul` and `add`/`sub` that carry
// no rounding modifier (f32, f64, f16, bf16 and their packed forms), and
// ptxas does: nvcc leaves many such pairs in ordinary code beside its own
// `fma.rn`, and a program whose PTX is run with each one rounded separately
// gets other bits than the GPU. The rule below is what ptxas 13.0 was
// measured to do for sm_90 (tests/gpu_truth/fma_contraction: one kernel per
// way of writing the pair, its SASS and its results on an H100/H200).

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

// Rewrites, in place, each add/sub that ptxas fuses with the mul feeding it
// into an `fma.rn` of the mul's operands (a sub becomes an fma with a
// negated operand: Operand::minus on the product's first factor or on the
// addend). The mul stays for any other reader. Returns how many were fused.
// The function's control flow must already be built.
uint32_t contractMultiplyAdds(Function& fn);

}  // namespace ptxsim::isa
