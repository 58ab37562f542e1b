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

// What ptxas makes of a multi-function-unit instruction besides its MUFU
// (tests/timing/kernels/probe/mufu_forms_probe.cu, its SASS and chains
// timed on the H100's SM): the SASS instructions it adds, and which
// latency the whole takes from its source to its result.
//  - Scaled: rsqrt, sqrt and lg2.approx.f32 without .ftz scale a denormal
//    input up and the result back (FSETP, @!P FMUL, MUFU, @!P FMUL or
//    FADD: 3 added), rcp.approx.f32 without .ftz both ends of the range
//    (2 FSETP, 2 FSEL, FMUL, MUFU.RCP, FMUL: 6): TimingConfig::
//    mufuScaledLatencyCycles (39 to 41 cycles a step measured, 17 with
//    .ftz);
//  - Reduced: sin and cos.approx.f32 reduce their argument first
//    (FMUL.RZ, MUFU.SIN: 1 added): TimingConfig::mufuReducedLatencyCycles
//    (23).
// ex2.approx.f32 without .ftz is scaled too where ptxas cannot bound its
// input (a chain of them is not: MUFU.EX2 is never below -126), which the
// PTX does not say: taken as plain.
enum class MufuForm : uint8_t { Plain, Scaled, Reduced };
struct SassAround {
  uint8_t addedInstructions = 0;
  MufuForm form = MufuForm::Plain;
};
SassAround sassAround(const isa::Instruction& inst);

}  // namespace ptxsim::sim::timing
