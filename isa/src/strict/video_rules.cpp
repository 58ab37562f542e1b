// The video instructions (vadd..vset4): the secondary operation each
// takes, .sat against it, vset's comparisons, and vmad's sub-form words
// (ptxas 13.0, sm_90). The order of the checks is ptxas's: a form wrong in
// two ways gets the message of the first.

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

enum class Video { None, Scalar, Simd, Mad };

Video videoKind(Opcode op) {
  switch (op) {
    case Opcode::Vadd:
    case Opcode::Vsub:
    case Opcode::Vabsdiff:
    case Opcode::Vmin:
    case Opcode::Vmax:
    case Opcode::Vshl:
    case Opcode::Vshr:
    case Opcode::Vset: return Video::Scalar;
    case Opcode::Vadd2:
    case Opcode::Vsub2:
    case Opcode::Vavrg2:
    case Opcode::Vabsdiff2:
    case Opcode::Vmin2:
    case Opcode::Vmax2:
    case Opcode::Vset2:
    case Opcode::Vadd4:
    case Opcode::Vsub4:
    case Opcode::Vavrg4:
    case Opcode::Vabsdiff4:
    case Opcode::Vmin4:
    case Opcode::Vmax4:
    case Opcode::Vset4: return Video::Simd;
    case Opcode::Vmad: return Video::Mad;
    default: return Video::None;
  }
}

bool isVset(Opcode op) { return op == Opcode::Vset || op == Opcode::Vset2 || op == Opcode::Vset4; }

}  // namespace

std::string videoRefusal(const FormToCheck& form) {
  const Opcode op = form.spec.opcode;
  const Video kind = videoKind(op);
  if (kind == Video::None) return {};
  const std::string_view name = form.spec.mnemonic;
  const Mod secondary = form.get(ModGroup::ReduceOp);
  // The boolean words are no secondary operation of a video instruction.
  if (secondary == Mod::RedAnd || secondary == Mod::RedOr || secondary == Mod::RedXor) {
    return illegalModifier(secondary, name);
  }
  if (form.has(Mod::Satfinite)) return illegalModifier(Mod::Satfinite, name);
  if (kind == Video::Mad) {
    if (std::string why = subFormWordRefusal(form, SubFormTier::Feature); !why.empty()) return why;
    if (form.has(Mod::Shiftamt)) return illegalModifier(Mod::Shiftamt, name);
    return subFormWordRefusal(form, SubFormTier::Late);
  }
  if (secondary == Mod::RedPopc) {
    return "Illegal reduction operation for instruction '" + std::string(name) + dotted(form.type(0)) +
           dotted(form.type(1)) + "'";
  }
  if (kind == Video::Simd && (secondary == Mod::RedMin || secondary == Mod::RedMax)) {
    return "Illegal secondary operation for video instruction '" + std::string(name) + "'";
  }
  if (kind == Video::Simd && form.has(Mod::Sat) && secondary == Mod::RedAdd) {
    return "Illegal combination of .sat and .add modifiers";
  }
  if (isVset(op)) {
    const Mod cmp = form.get(ModGroup::Compare);
    const bool ordered = cmp == Mod::Eq || cmp == Mod::Ne || cmp == Mod::Lt || cmp == Mod::Le ||
                         cmp == Mod::Gt || cmp == Mod::Ge;
    if (!ordered) return "Mismatch between instruction type and comparison qualifier";
  }
  return {};
}

}  // namespace ptxsim::isa::strict
