#pragma once

// The element types of the tensor-core instructions (mma, wgmma, wmma) and the
// exact value of one element: every input format fits a double.

#include <cstdint>

#include "ptxsim/isa/data_type.h"

namespace ptxsim::sim::semantics::mma {

enum class Elem : uint8_t { F16, BF16, TF32, F32, F64, S8, U8, S32, E4M3, E5M2, B1, S4, U4 };

unsigned bitsOf(Elem e);
inline bool isInteger(Elem e) {
  return e == Elem::S8 || e == Elem::U8 || e == Elem::S32 || e == Elem::S4 || e == Elem::U4;
}
inline bool isFp8(Elem e) { return e == Elem::E4M3 || e == Elem::E5M2; }
// The smallest normal exponent of a floating-point element type (what a
// subnormal's exponent counts as when the tensor core aligns products).
int minNormalExponent(Elem e);

// The exact value of an element's bits. A .tf32 element is an f32 whose
// 13 low mantissa bits the tensor core does not read.
double valueOf(uint64_t bits, Elem e);

// A floating-point element as the tensor core's adder reads it
// (mma_numerics.h): value = significand * 2^exponent, the exponent being
// the raw one (a subnormal's is its format's smallest normal exponent), so
// |significand| < 2 with at most 24 significant bits, exact in a float,
// and the product of two exact in a float too. Decoded once per
// instruction, so that the adder works on integers and floats, never on
// std::ilogb and std::ldexp per product.
// Zero has exponent kZeroExponent, far below any real one, so a product
// with it never sets the alignment. Infinity and NaN have significand 0
// (-0 for negative infinity) and exponent kInfinityExponent or
// kNaNExponent, so that any product with one raises the alignment past
// kSpecialAnchor, sending the dot product to the term-by-term path that
// handles them, while its significand keeps the vector path's
// arithmetic finite.
struct Scaled {
  float significand;
  int32_t exponent;
};
inline constexpr int32_t kZeroExponent = -4096;
inline constexpr int32_t kInfinityExponent = 65536;
inline constexpr int32_t kNaNExponent = 65537;
inline constexpr int32_t kSpecialAnchor = kInfinityExponent / 2;

// The scaled form of an f16, bf16, tf32, f32, e4m3 or e5m2 element's bits.
Scaled scaledOf(uint64_t bits, Elem e);
// scaledOf for `count` elements of one type, the type's dispatch paid once.
void scaleAll(Elem e, const uint32_t* bits, unsigned count, float* significands, int32_t* exponents);
// The values of `count` s8 or u8 elements.
void integersAll(Elem e, const uint32_t* bits, unsigned count, int16_t* values);
// The exact value of a scaled element.
double valueOf(Scaled s);

// The element type of a PTX type; false for types no tensor-core form takes.
bool elemOf(isa::DataType type, Elem& e);

}  // namespace ptxsim::sim::semantics::mma
