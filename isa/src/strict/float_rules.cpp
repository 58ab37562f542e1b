// Floating-point arithmetic: the rounding each type takes, .satfinite,
// fma's half-precision modifiers, the precision words of div/rcp/sqrt and
// the multi-function instructions, min/max's sign modifiers and third
// source (ptxas 13.0, sm_90). Checks run in ptxas's order.

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

bool isHalf(DataType type) {
  return type == DataType::F16 || type == DataType::F16x2 || type == DataType::BF16 ||
         type == DataType::BF16x2;
}
bool isBf16(DataType type) { return type == DataType::BF16 || type == DataType::BF16x2; }

constexpr const char* kRoundingOrApprox =
    "Rounding modifier or '.approx' modifier required for instruction '";

std::string roundingRequired(std::string_view name) {
  return "Rounding modifier required for instruction '" + std::string(name) + "'";
}

// add, sub, mul, mad, fma on floats: half types round to nearest only;
// f32/f64 take the four IEEE directions, not .rna; mad and fma need one.
std::string arithmetic(const FormToCheck& form) {
  const std::string_view name = form.spec.mnemonic;
  const DataType type = form.type(0);
  const Mod rounding = form.get(ModGroup::Rounding);
  const bool fused = form.spec.opcode == Opcode::Fma || form.spec.opcode == Opcode::Mad;
  if (form.has(Mod::Satfinite)) return illegalModifier(Mod::Satfinite, name);
  if (form.has(Mod::Relu) && form.has(Mod::Sat)) return cannotCombine(Mod::Relu, Mod::Sat);
  const Mod boundary = form.get(ModGroup::Boundary);
  if (boundary == Mod::Oob && form.has(Mod::Ftz)) return cannotCombine(Mod::Ftz, Mod::Oob);
  if (fused && rounding == Mod::None) return roundingRequired(name);
  // fma.bf16 rounds every way but .rna, like f32.
  const bool nearestOnly = isHalf(type) && !(form.spec.opcode == Opcode::Fma && isBf16(type));
  if (rounding == Mod::Rna || (nearestOnly && rounding != Mod::None && rounding != Mod::Rn)) {
    return illegalRounding(name);
  }
  if (boundary != Mod::None && boundary != Mod::Oob) return "Illegal modifier 'Clamp' for instruction 'fma'";
  return {};
}

// div, rcp, sqrt: a rounding direction (IEEE) or .approx; .full is div's.
// ptxas ignores .acc::f16/.acc::f32 here.
std::string roundedOrApprox(const FormToCheck& form) {
  const std::string_view name = form.spec.mnemonic;
  const Opcode op = form.spec.opcode;
  const DataType type = form.type(0);
  const Mod precision = form.get(ModGroup::Precision);
  const Mod rounding = form.get(ModGroup::Rounding);
  if (precision == Mod::Full && op != Opcode::Div) return unknownModifier(Mod::Full);
  if (type == DataType::F64 && op != Opcode::Rcp) {
    if (precision == Mod::Approx) return illegalModifier(Mod::Approx, name);
    if (form.has(Mod::Ftz)) return illegalModifier(Mod::Ftz, name);
    if (rounding == Mod::None) return roundingRequired(name);
    if (rounding == Mod::Rna) return illegalRounding(name);
    return {};
  }
  if (precision == Mod::Full)
    return rounding != Mod::None ? illegalRounding(std::string(name) + ".full") : "";
  if (precision == Mod::Approx) {
    // An IEEE direction beside .approx is refused first; .rna only after
    // rcp.approx.f64's .ftz.
    if (rounding != Mod::None && rounding != Mod::Rna) return kRoundingOrApprox + std::string(name) + "'";
    if (type == DataType::F64 && !form.has(Mod::Ftz)) {
      return "'.ftz' modifier required for instruction '" + std::string(name) + ".approx.f64'";
    }
    if (rounding == Mod::Rna) return illegalRounding(name);
    return {};
  }
  if (rounding == Mod::None || rounding == Mod::Rna) return kRoundingOrApprox + std::string(name) + "'";
  return {};
}

// rsqrt, sin, cos, lg2, ex2, tanh: .approx only.
std::string approxOnly(const FormToCheck& form) {
  const std::string_view name = form.spec.mnemonic;
  const DataType type = form.type(0);
  const Mod precision = form.get(ModGroup::Precision);
  if (precision == Mod::Full) return unknownModifier(Mod::Full);
  if (precision != Mod::Approx) {
    if (type == DataType::F16 || type == DataType::F16x2) return kRoundingOrApprox + std::string(name) + "'";
    return ".approx modifier required for instruction '" + std::string(name) + "'";
  }
  if (form.spec.opcode == Opcode::Ex2 && isBf16(type) && !form.has(Mod::Ftz)) {
    return ".ftz modifier required for instruction 'ex2" + dotted(type) + "'";
  }
  if (form.spec.opcode == Opcode::Ex2 && isHalf(type) && !isBf16(type) && form.has(Mod::Ftz)) {
    return illegalModifier(Mod::Ftz, name);
  }
  return {};
}

// min/max: a third source is sm_100's, and f32's alone; .abs goes with .xorsign.
std::string minMax(const FormToCheck& form) {
  const std::string_view name = form.spec.mnemonic;
  if (form.operandCount > 3) {
    if (form.type(0) != DataType::F32) return argumentsMismatch(name);
    if (form.targetSm < 100) {
      return "Feature '" + std::string(name) +
             ".f32 with 3 input operands' requires .target sm_100 or higher";
    }
  }
  if (form.has(Mod::AbsMod) && !form.has(Mod::Xorsign)) return "Modifier '.abs' requires modifier '.xorsign'";
  if (form.has(Mod::Xorsign) && !form.has(Mod::AbsMod)) return "Modifier '.xorsign' requires modifier '.abs'";
  return {};
}

}  // namespace

std::string floatRefusal(const FormToCheck& form) {
  switch (form.spec.opcode) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Fma: return isFloat(form.type(0)) ? arithmetic(form) : std::string();
    case Opcode::Div: return isFloat(form.type(0)) ? roundedOrApprox(form) : std::string();
    case Opcode::Rcp:
    case Opcode::Sqrt: return roundedOrApprox(form);
    case Opcode::Rsqrt:
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Lg2:
    case Opcode::Ex2:
    case Opcode::Tanh: return approxOnly(form);
    case Opcode::Min:
    case Opcode::Max: return minMax(form);
    default: return {};
  }
}

}  // namespace ptxsim::isa::strict
