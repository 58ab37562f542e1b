#pragma once

// How the H100's tensor cores add up floating-point dot products: not a
// chain of IEEE additions. Fasi, Higham, Mikaitis and Pranesh ("Numerical
// behavior of NVIDIA tensor cores", 2021) and Khattak and Mikaitis
// ("Accurate models of NVIDIA tensor cores", 2025) describe the shape:
// exact products, aligned to the largest exponent, truncated, summed
// exactly. The models below were fitted bit for bit to recordings on an
// H100 (docs/lab-notes.md).

#include <cstdint>

#include "mma_elements.h"

namespace ptxsim::sim::semantics::mma {

// A row of A, K elements decoded once per instruction (mma_elements.h
// scaledOf), as arrays of significands and exponents.
struct DotOperand {
  const float* significands;
  const int32_t* exponents;
};
// B: K rows of n columns, row k (the k-th element of every column)
// contiguous, element (k, c) at index k n + c. Every function below
// computes a whole row of D at once, one lane per column, so that the host
// adds K products of n columns in vectors.
struct DotColumns {
  const float* significands;
  const int32_t* exponents;
  unsigned n;  // a multiple of 8, at most kMaxDotColumns
};
inline constexpr unsigned kMaxDotColumns = 256;
inline constexpr unsigned kMaxDotK = 64;

// mma.sync m16n8k32 with fp8 inputs (e4m3/e5m2) and an f32 accumulator,
// as the H100 computes it: c + sum of a[k] * b[k] for k < 32. ptxas makes
// the instruction two f16 tensor-core steps of 16 products each and an f32
// addition, and the model follows that (fitted bit for bit to
// tests/cuda/programs/mma_fp8.expected, 9216 of 9216 results; how it was
// found: docs/lab-notes.md):
// - the products with k mod 4 of 0 or 1 make the first step, those of 2 or
//   3 the second, whose terms also include the first step's result;
// - a step aligns its terms to the largest raw exponent among them (a
//   product's is the sum of its operands' exponents, the smallest normal
//   one's for a subnormal, so its significand lies in [1, 4); a step's
//   result's is its f32 exponent), truncates each toward zero to a multiple
//   of 2^(that exponent - 25), sums them exactly and rounds the sum toward
//   zero to f32;
// - c is added last by an f32 addition rounded to nearest even.
// A NaN operand, infinity times zero, or infinite products of both signs
// give the canonical NaN; other infinite products an infinity.
// The `k` (32, or 16 for m16n8k16) elements of a and of each column of b
// come in step order (fp8StepOrder); d[c] is column c's result, c the f32
// accumulators. m16n8k16 is the same two steps of 8 products (ptxas makes
// it two m16n8k8 HMMA and the FADD: its sm_90 cubin, read by opcode as the
// lab notes describe); that form awaits its recording.
void fp8DotF32(DotOperand a, DotColumns b, unsigned k, const uint32_t* cBits, uint32_t* d);
// mma.sync's fp8 forms with f16 accumulators: ptxas makes them the same two
// f16 tensor-core steps, accumulating in f16 (HMMA .F16, the first with a
// zero accumulator, the second on the first's f16 result), then adds C by
// an f16x2 addition (HADD2) rounded to nearest even. Each step is wgmmaDot
// with f16 inputs' model and an f16 result (as mma.sync's f16 forms).
// Read off the cubin's opcodes only; not yet recorded on the GPU. cBits
// holds f16 accumulators, d gets f16 bits.
void fp8DotF16(DotOperand a, DotColumns b, unsigned k, const uint32_t* cBits, uint32_t* d);
// Where element i of a K-element fp8 operand goes: the first step's K/2
// products (those with i mod 4 of 0 or 1), then the second's.
inline unsigned fp8StepOrder(unsigned i, unsigned k = 32) { return (i / 2) % 2 * (k / 2) + (i / 4) * 2 + i % 2; }

// The tensor core's floating-point dot products for wgmma, wmma and
// mma.sync's f16, bf16 and tf32 forms, fitted bit for bit to the H100
// (tests/cuda/programs/wgmma_forms.expected, every "num" line: f16, bf16,
// tf32 and each fp8 pairing, f32 and f16 accumulators; mma_random and
// wmma_forms). One fused step adds
// the K products and the accumulator:
// - the anchor is the largest raw exponent among the nonzero terms (a
//   product's is the sum of its operands' exponents, a subnormal operand's
//   being its format's smallest normal exponent, so the product's
//   significand lies in [1, 4); the accumulator's is its f32 exponent);
// - each term is truncated toward zero to a multiple of 2^(anchor -
//   alignBits) and the terms are summed exactly;
// - the sum is truncated toward zero to `resultBits` significant bits and
//   to f32, or rounded to nearest f16 for an f16 result.
// fp8 inputs keep far fewer bits (13 below the anchor, and 14 significant
// bits of an f32 result) than the 16- and 32-bit formats (25 and 24).
struct WgmmaDotModel {
  int alignBits = 25;
  unsigned resultBits = 24;
  bool f16Result = false;
};
inline WgmmaDotModel wgmmaDotModel(bool fp8Inputs, bool f16Result) {
  if (!fp8Inputs) return {25, 24, f16Result};
  return {13, f16Result ? 24u : 14u, f16Result};
}

// d[c] = c[c] + sum of a[k] * b[k][c] for k < `k` (at most kMaxDotK)
// under the wgmma model, for every column c of b; c holds the accumulators
// (f32 or f16 values), one a column. The results' bits are f32's or, with
// f16Result, f16's; an f32 NaN is the canonical 0x7fffffff.
void wgmmaDot(const WgmmaDotModel& model, DotOperand a, DotColumns b, unsigned k, DotOperand c, uint32_t* d);

}  // namespace ptxsim::sim::semantics::mma
