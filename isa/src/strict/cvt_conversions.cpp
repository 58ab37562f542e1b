#include "cvt_conversions.h"

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

using enum DataType;

bool isPair(DataType type) { return type == F16x2 || type == BF16x2 || type == E4M3x2 || type == E5M2x2; }
bool isFp8Pair(DataType type) { return type == E4M3x2 || type == E5M2x2; }
bool isSigned(DataType type) { return type == S8 || type == S16 || type == S32 || type == S64; }

}  // namespace

bool isSpecialConversion(DataType dest, DataType source) {
  return isPair(dest) || isPair(source) || dest == TF32 || source == TF32;
}

RoundingRule conversionRounding(DataType dest, DataType source) {
  if (isSpecialConversion(dest, source)) {
    // f32 to tf32 also rounds to nearest, ties away; the fp8 pairs round to nearest only.
    if (dest == TF32) return {{Mod::Rn, Mod::Rz, Mod::Rna}, true};
    if (isFp8Pair(dest) || isFp8Pair(source)) return {{Mod::Rn}, true};
    return {kNearestOrZero, true};
  }
  const bool destInt = isInteger(dest), sourceInt = isInteger(source);
  if (destInt && sourceInt) return {};
  if (destInt) return {kIntegerRoundings, true};
  if (sourceInt) return {kIeeeRoundings, true};
  // Float to the same float rounds to an integral value, if asked.
  if (dest == source) return {kIntegerRoundings, false};
  // bf16 to anything, and f16 to bf16, may round but need not (ptxas's verdicts).
  if (source == BF16 || (dest == BF16 && source == F16)) return {kIeeeRoundings, false};
  if (typeBits(dest) > typeBits(source)) return {};  // widening is exact
  return {kIeeeRoundings, true};
}

FtzVerdict conversionFtz(DataType dest, DataType source) {
  if (dest == F32 || source == F32) return FtzVerdict::Takes;
  if (isInteger(dest) && isInteger(source)) return FtzVerdict::Illegal;
  if (dest == BF16 || source == BF16) return FtzVerdict::Illegal;
  return FtzVerdict::DoesNotApply;
}

bool integerSatApplies(DataType dest, DataType source) {
  const uint32_t destBits = typeBits(dest), sourceBits = typeBits(source);
  // An unsigned source fits a wider destination, or an unsigned one as wide;
  // a signed source fits a signed destination at least as wide.
  const bool fits = isSigned(source) ? isSigned(dest) && destBits >= sourceBits
                                     : destBits > sourceBits || (!isSigned(dest) && destBits == sourceBits);
  return !fits;
}

}  // namespace ptxsim::isa::strict
