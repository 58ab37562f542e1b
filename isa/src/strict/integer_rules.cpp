// Integer add/sub/mad/mul and their kin: where .sat, .cc and .wide apply,
// and shf's direction (ptxas 13.0, sm_90).

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

bool is64(DataType type) { return type == DataType::U64 || type == DataType::S64; }
bool is16(DataType type) { return type == DataType::U16 || type == DataType::S16; }

// "mad.lo": ptxas names mad by its multiply mode.
std::string withMode(const FormToCheck& form) {
  const Mod mode = form.get(ModGroup::MulMode);
  return std::string(form.spec.mnemonic) + (mode == Mod::None ? "" : dotted(mode));
}

// add, sub, mad: .sat is for .s32 alone, .cc for 32 and 64 bits, not both.
std::string carryAndSaturation(const FormToCheck& form) {
  const std::string name = withMode(form);
  const DataType type = form.type(0);
  if (form.has(Mod::Satfinite)) return illegalModifier(Mod::Satfinite, name);
  const Mod mode = form.get(ModGroup::MulMode);
  if (mode == Mod::Wide) {
    if (is64(type)) return unexpectedTypes(name);
    if (form.has(Mod::Sat)) return illegalModifier(Mod::Sat, name);
    if (form.has(Mod::Cc)) return illegalModifier(Mod::Cc, name);
    return {};
  }
  if (mode == Mod::MulLo && form.has(Mod::Sat)) return illegalModifier(Mod::Sat, name);
  if (form.has(Mod::Sat) && type != DataType::S32) {
    return "Modifier '.sat' does not apply to '" + dotted(type) + "' type";
  }
  if (form.has(Mod::Cc) && is16(type)) return "Modifier '.cc' applies only to " + name + " integer types";
  if (form.has(Mod::Cc) && form.has(Mod::Sat)) return cannotCombine(Mod::Cc, Mod::Sat);
  return {};
}

}  // namespace

std::string integerRefusal(const FormToCheck& form) {
  const Opcode op = form.spec.opcode;
  switch (op) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mad: return isInteger(form.type(0)) ? carryAndSaturation(form) : std::string();
    case Opcode::Mul:
      if (form.has(Mod::Wide) && is64(form.type(0))) return unexpectedTypes(withMode(form));
      return {};
    case Opcode::Mad24:
      // mad24 has no .wide; its .sat is mad24.hi.s32's alone.
      if (form.has(Mod::Wide)) return unknownModifier(Mod::Wide);
      if (form.has(Mod::Satfinite)) return illegalModifier(Mod::Satfinite, withMode(form));
      if (form.has(Mod::Sat) && form.has(Mod::MulLo)) return illegalModifier(Mod::Sat, withMode(form));
      if (form.has(Mod::Sat) && form.type(0) != DataType::S32) {
        return "Modifier '.sat' does not apply to '" + dotted(form.type(0)) + "' type";
      }
      return {};
    case Opcode::Mul24:
    case Opcode::Madc:
    case Opcode::Dp2a: return form.has(Mod::Wide) ? unknownModifier(Mod::Wide) : std::string();
    case Opcode::Bfind:
      // The ShiftAmount group also holds vmad's final shifts.
      if (form.has(Mod::Shr7) || form.has(Mod::Shr15))
        return "Illegal modifier 'Shift-right' for instruction 'bfind'";
      return {};
    case Opcode::Shf:
      // ptxas knows shf.l and shf.r as two instructions: any other word of
      // the ShiftMode group (tcgen05's .ashift and .down) leaves a bare shf.
      if (!form.has(Mod::ShfL) && !form.has(Mod::ShfR)) return "Not a name of any known instruction: 'shf'";
      return {};
    default: return {};
  }
}

}  // namespace ptxsim::isa::strict
