// cvt: its types, operands, rounding, .ftz, .sat, .relu and .satfinite
// (ptxas 13.0, sm_90). The checks run in ptxas's order, which decides the
// message when a form breaks several rules: .relu against .sat, the types
// against .relu/.satfinite, the operands, then the modifiers one by one and
// the rounding last. What each pair of types allows is cvt_conversions.cpp's.

#include "cvt_conversions.h"
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
// The 16-bit float destinations that .satfinite clamps (from f32).
bool isHalfDest(DataType type) { return type == F16 || type == BF16 || type == F16x2 || type == BF16x2; }

// The conversions that take .relu: f32 down to the 16-bit floats and tf32,
// f32 or f16x2 down to fp8 pairs, and fp8 pairs up to f16x2.
bool takesRelu(DataType dest, DataType source) {
  if (source == F32)
    return dest == F16 || dest == BF16 || dest == F16x2 || dest == BF16x2 || dest == TF32 || isFp8Pair(dest);
  if (source == F16x2) return isFp8Pair(dest);
  return dest == F16x2 && isFp8Pair(source);
}
// .satfinite: the same, but widening fp8 to f16x2 cannot overflow.
bool takesSatfinite(DataType dest, DataType source) { return takesRelu(dest, source) && !isFp8Pair(source); }

// The types of the conversions that are not element to element: a pair or
// tf32 on one side converts only with those partners.
bool specialPairFits(DataType dest, DataType source) {
  if (!isSpecialConversion(dest, source)) return true;
  return takesRelu(dest, source) && !(dest == F16 || dest == BF16);
}

// The modifiers, once types and operands are right.
std::string modifierRefusal(const FormToCheck& form, DataType dest, DataType source) {
  const Mod integral = form.get(ModGroup::IntRounding);
  const Mod rounding = integral != Mod::None ? integral : form.get(ModGroup::Rounding);
  const bool special = isSpecialConversion(dest, source);
  const bool bf16 = dest == BF16 || source == BF16 || dest == BF16x2;
  const bool relu = form.has(Mod::Relu), ftz = form.has(Mod::Ftz), satfinite = form.has(Mod::Satfinite);
  // .sat clamps to [0, 1]: not for bf16 or the packed and tf32 conversions.
  if (form.has(Mod::Sat) && (special || bf16)) return illegalModifier(Mod::Sat, "cvt");
  if (isFp8Pair(dest) && !satfinite) {
    return "'.satfinite' modifier required for instruction 'cvt' with destination type '" + dotted(dest) + "'";
  }
  if (relu && ftz && (dest == BF16 || dest == BF16x2)) return cannotCombine(Mod::Relu, Mod::Ftz);
  if (dest == TF32 && relu && rounding == Mod::Rna) return cannotCombine(Mod::Relu, Mod::Rna);
  if (dest == TF32 && ftz) return illegalModifier(Mod::Ftz, "cvt");
  if (satfinite && ftz) return cannotCombine(Mod::Satfinite, Mod::Ftz);
  if (ftz && (dest == F16x2 || dest == BF16x2 || (dest == F16 && relu))) return illegalModifier(Mod::Ftz, "cvt");
  if (!special) {
    if (ftz && conversionFtz(dest, source) == FtzVerdict::Illegal) return illegalModifier(Mod::Ftz, "cvt");
    if (ftz && conversionFtz(dest, source) == FtzVerdict::DoesNotApply) {
      return "Modifier '.ftz' does not apply to this type of convert operation";
    }
    if (form.has(Mod::Sat) && isInteger(dest) && isInteger(source) && !integerSatApplies(dest, source)) {
      return illegalModifier(Mod::Sat, "cvt");
    }
  }
  // .satfinite on the 16-bit floats rounds to nearest or toward zero; ptxas
  // names the rounding it cannot take ('' for none), but asks f16x2 for one.
  if (satfinite && isHalfDest(dest) && !kNearestOrZero.has(rounding) && !(dest == F16x2 && rounding == Mod::None)) {
    return "Modifier '.satfinite' cannot be combined with modifier '" +
           (rounding == Mod::None ? std::string() : dotted(rounding)) + "'";
  }
  RoundingRule rule = conversionRounding(dest, source);
  if (relu && !special) rule.allowed = rule.allowed & kNearestOrZero;
  if (rounding == Mod::None) return rule.required ? "Rounding modifier required for instruction 'cvt'" : "";
  if (!rule.allowed.has(rounding)) return illegalRounding("cvt");
  if (dest == TF32 && satfinite && rounding != Mod::Rna && form.targetSm < 100) {
    return "Modifier '.satfinite' on 'cvt.tf32.f32" + dotted(rounding) + "' requires .target sm_100 or higher";
  }
  return {};
}

}  // namespace

std::string cvtRefusal(const FormToCheck& form) {
  if (form.spec.opcode != Opcode::Cvt) return {};
  const DataType dest = form.type(0), source = form.type(1);
  // The fp6/fp4/ue8m0 pairs and .rs are sm_100's, beyond the recording: left to the rows.
  if (isSubByteFloatPair(dest) || isSubByteFloatPair(source) || form.has(Mod::Rs)) return {};
  if (form.has(Mod::Relu) && form.has(Mod::Sat)) return cannotCombine(Mod::Relu, Mod::Sat);
  const bool typesFit = (!form.has(Mod::Relu) || takesRelu(dest, source)) &&
                        (!form.has(Mod::Satfinite) || takesSatfinite(dest, source)) &&
                        specialPairFits(dest, source);
  if (!typesFit) return unexpectedTypes("cvt");
  // A pair made from two f32 takes two sources; every other conversion one.
  const uint32_t operands = isPair(dest) && source == F32 ? 3 : 2;
  if (form.operandCount != operands) return argumentsMismatch("cvt");
  if ((dest == BF16 && isByte(source)) || (isByte(dest) && source == BF16)) return argumentsMismatch("cvt");
  return modifierRefusal(form, dest, source);
}

}  // namespace ptxsim::isa::strict
