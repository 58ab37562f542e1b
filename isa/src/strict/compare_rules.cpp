// set, setp, slct: which comparisons each source type takes and where
// .ftz applies (ptxas 13.0, sm_90).

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

bool isUnsignedComparison(Mod cmp) {
  return cmp == Mod::CmpLo || cmp == Mod::Ls || cmp == Mod::CmpHi || cmp == Mod::Hs;
}

bool isUnorderedComparison(Mod cmp) {
  switch (cmp) {
    case Mod::Equ:
    case Mod::Neu:
    case Mod::Ltu:
    case Mod::Leu:
    case Mod::Gtu:
    case Mod::Geu:
    case Mod::Num:
    case Mod::Nan: return true;
    default: return false;
  }
}

bool isSigned(DataType type) {
  return type == DataType::S16 || type == DataType::S32 || type == DataType::S64;
}
bool isBits(DataType type) { return type == DataType::B16 || type == DataType::B32 || type == DataType::B64; }
bool isHalf(DataType type) {
  return type == DataType::F16 || type == DataType::F16x2 || type == DataType::BF16 ||
         type == DataType::BF16x2;
}

}  // namespace

// Bit types compare for equality only, signed integers add the orderings,
// unsigned ones the unsigned orderings too, floats the unordered forms.
static bool comparisonFits(Mod cmp, DataType type) {
  if (isBits(type)) return cmp == Mod::Eq || cmp == Mod::Ne;
  if (isSigned(type)) return !isUnsignedComparison(cmp) && !isUnorderedComparison(cmp);
  if (isInteger(type)) return !isUnorderedComparison(cmp);
  return !isUnsignedComparison(cmp);
}

constexpr const char* kComparisonMismatch = "Mismatch between instruction type and comparison qualifier";

std::string compareRefusal(const FormToCheck& form) {
  const Opcode op = form.spec.opcode;
  if (op != Opcode::Set && op != Opcode::Setp && op != Opcode::Slct) return {};
  const std::string_view name = form.spec.mnemonic;
  // The type compared: setp's only one, set's and slct's second.
  const DataType source = form.type(op == Opcode::Setp ? 0 : 1);
  // .ftz flushes a float compared: slct's selector, set/setp's sources.
  if (form.has(Mod::Ftz)) {
    const bool takesFtz = source == DataType::F32 ||
                          (op != Opcode::Slct && (source == DataType::F16 || source == DataType::F16x2));
    if (!takesFtz) return illegalModifier(Mod::Ftz, name);
  }
  if (op == Opcode::Slct) return {};
  // set of a half type writes an integer mask or the same half type.
  const DataType dest = form.type(0);
  if (op == Opcode::Set && isHalf(source) && dest != DataType::U32 && dest != DataType::S32 &&
      dest != source) {
    return unexpectedTypes(name);
  }
  if (!comparisonFits(form.get(ModGroup::Compare), source)) return kComparisonMismatch;
  return {};
}

}  // namespace ptxsim::isa::strict
