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

// The element type of a PTX type; false for types no tensor-core form takes.
bool elemOf(isa::DataType type, Elem& e);

}  // namespace ptxsim::sim::semantics::mma
