#pragma once

// How a tensor core adds up a floating-point dot product, as a model with
// parameters: mma's f16/bf16/tf32 forms are not a chain of IEEE additions.
//
// Fasi, Higham, Mikaitis and Pranesh ("Numerical behavior of NVIDIA tensor
// cores", PeerJ CS 2021) found on V100/T4/A100: the products are exact; the
// products of one block and the accumulator are aligned to the largest
// exponent among them, the bits below a fixed width truncated (round toward
// zero); the aligned terms are summed exactly and the sum is normalised
// with truncation. Khattak and Mikaitis ("Accurate models of NVIDIA tensor
// cores", 2025) extend this to H100 with more alignment bits and wider
// blocks. The H100 values below are our reading of that work and are TO BE
// CONFIRMED on the H100 (tests/cuda/programs/mma_numerics.cu tells the
// candidate models apart).

#include <cstdint>

#include "small_float.h"

namespace ptxsim::sim::semantics::mma {

struct DotModel {
  // Products summed in one fused step with the running accumulator; a
  // longer dot product is a chain of blocks, the accumulator rounded to
  // f32 between them.
  unsigned blockSize = 16;
  // Bits kept below the f32 significand (24 bits) of the largest term when
  // the terms are aligned.
  unsigned extraAlignBits = 2;
  sf::Round alignRound = sf::Round::Zero;      // Zero or Nearest
  sf::Round normaliseRound = sf::Round::Zero;  // how the block's sum becomes an f32
};

// The H100's model for products of `inputBits`-wide inputs (16: f16/bf16,
// 32: tf32), fitted to the H100 (tests/cuda/programs/mma_numerics).
DotModel h100DotModel(unsigned inputBits);

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
// give the canonical NaN; other infinite products an infinity. a[k], b[k]
// are the fp8 values held exactly in doubles; `aMinExponent` and
// `bMinExponent` their format's smallest normal exponent (-6 for e4m3, -14
// for e5m2).
uint32_t fp8DotF32(const double* a, const double* b, int aMinExponent, int bMinExponent, uint32_t cBits);

// wgmma's floating-point dot products, fitted bit for bit to the H100
// (tests/cuda/programs/wgmma_forms.expected, every "num" line: f16, bf16,
// tf32 and each fp8 pairing, f32 and f16 accumulators). One fused step adds
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
WgmmaDotModel wgmmaDotModel(bool fp8Inputs, bool f16Result);

// One operand of a dot product: its elements' exact values and raw
// exponents (rawExponent()).
struct DotOperand {
  const double* values;
  const int* exponents;
};
// A value's exponent as the tensor core aligns it: a subnormal's is its
// format's smallest normal exponent (`minExponent`).
int rawExponent(double v, int minExponent);

// c + sum of a[i] * b[i] for i < n under the wgmma model; `cBits` is the
// accumulator as f32. The result's bits are f32's or, with f16Result,
// f16's; an f32 NaN is the canonical 0x7fffffff.
uint32_t wgmmaDot(const WgmmaDotModel& model, DotOperand a, DotOperand b, unsigned n, uint32_t cBits);

// c + sum of a[i] * b[i] for i < n as the model adds them; every a[i],
// b[i] and c is a value of its format held exactly in a double. Returns
// the f32 result's bits; NaN is the canonical 0x7fffffff.
uint32_t dotF32(const DotModel& model, const double* a, const double* b, unsigned n, double c);

}  // namespace ptxsim::sim::semantics::mma
