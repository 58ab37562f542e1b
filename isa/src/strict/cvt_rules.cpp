// cvt: its operands, and which types take .relu and .satfinite
// (ptxas 13.0, sm_90). ptxas checks .relu against .sat first, then whether
// the pair of types has a conversion with the modifiers written, then the
// operands.

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

using enum DataType;

bool isPair(DataType type) { return type == F16x2 || type == BF16x2 || type == E4M3x2 || type == E5M2x2; }
bool isByte(DataType type) { return type == U8 || type == S8; }
bool isFp8Pair(DataType type) { return type == E4M3x2 || type == E5M2x2; }
bool isSubByteFloatPair(DataType type) {
  return type == E2M3x2 || type == E3M2x2 || type == E2M1x2 || type == UE8M0x2;
}

// The conversions that take .relu or .satfinite: f32 down to the 16-bit
// floats and tf32, f32 or f16x2 down to fp8 pairs, and fp8 pairs up to f16x2.
bool takesReluOrSatfinite(DataType dest, DataType source) {
  if (source == F32)
    return dest == F16 || dest == BF16 || dest == F16x2 || dest == BF16x2 || dest == TF32 || isFp8Pair(dest);
  if (source == F16x2) return isFp8Pair(dest);
  return dest == F16x2 && isFp8Pair(source);
}

// The types of the conversions that are not element to element: a pair or
// tf32 on one side converts only with those partners.
bool specialPairFits(DataType dest, DataType source) {
  if (!isPair(dest) && !isPair(source) && dest != TF32 && source != TF32) return true;
  return takesReluOrSatfinite(dest, source) && !(dest == F16 || dest == BF16);
}

}  // namespace

std::string cvtRefusal(const FormToCheck& form) {
  if (form.spec.opcode != Opcode::Cvt) return {};
  const DataType dest = form.type(0), source = form.type(1);
  // The fp6/fp4/ue8m0 pairs are sm_100's, beyond the recording: left to the rows.
  if (isSubByteFloatPair(dest) || isSubByteFloatPair(source)) return {};
  if (form.has(Mod::Relu) && form.has(Mod::Sat)) return cannotCombine(Mod::Relu, Mod::Sat);
  const bool special = form.has(Mod::Relu) || form.has(Mod::Satfinite);
  if (special ? !takesReluOrSatfinite(dest, source) : !specialPairFits(dest, source))
    return unexpectedTypes("cvt");
  // A pair made from two f32 takes two sources; every other conversion one.
  const uint32_t operands = isPair(dest) && source == F32 ? 3 : 2;
  if (form.operandCount != operands) return argumentsMismatch("cvt");
  if ((dest == BF16 && isByte(source)) || (isByte(dest) && source == BF16)) return argumentsMismatch("cvt");
  return {};
}

}  // namespace ptxsim::isa::strict
