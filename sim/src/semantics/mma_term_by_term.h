#pragma once

// The tensor core's adder (mma_numerics.h) written term by term on exact
// doubles, as it was fitted to the H100: the definition the fast integer
// path is held to (tests/sim/semantics/mma_numerics_test.cpp), and the
// path for the dot products the fast one leaves out (a NaN or infinite
// term, a result in f32's subnormal range).

#include <cstdint>

#include "mma_numerics.h"

namespace ptxsim::sim::semantics::mma {

uint32_t wgmmaDotTermByTerm(const WgmmaDotModel& model, DotOperand a, DotOperand b, unsigned n, Scaled c);
// a and b hold their k (64, 32 or 16) elements in step order (fp8StepOrder;
// for mma.sp's m16n8k64, matrix_mma_sparse.cpp's own).
uint32_t fp8DotF32TermByTerm(DotOperand a, DotOperand b, unsigned k, uint32_t cBits);

// The result's bits for the exact sum `value` of the aligned terms (NaN
// and infinities included): truncated to the model's result bits and to
// f32, or rounded to nearest f16.
uint32_t wgmmaResult(const WgmmaDotModel& model, double value);
// A step of the fp8 path rounds its exact sum toward zero to f32.
uint32_t f32TowardZero(double value);

}  // namespace ptxsim::sim::semantics::mma
