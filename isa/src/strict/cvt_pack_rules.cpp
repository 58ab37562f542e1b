// cvt.pack: its saturation and its operands (ptxas 13.0, sm_90). d is the
// packed 32-bit result and a, b the .s32 values, so ptxas holds all three
// as 32-bit integers; c, the earlier lanes of the 8- and 4-bit forms, as
// .b32. A narrower register, a predicate, a float constant, or a float
// register where an integer goes is "Arguments mismatch" (each register
// type tried with ptxas in every position).

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

using enum DataType;
using Kind = WrittenOperand::Kind;

bool fits(const WrittenOperand& operand, bool integer) {
  if (operand.kind == Kind::Float) return false;
  if (operand.kind != Kind::Register) return true;  // the front end's own checks name what is wrong
  const DataType type = operand.registerType;
  // ptxas takes these registers wherever a 32-bit integer goes, .bf16 included.
  if (type == BF16 || type == TF32 || type == F16x2 || type == BF16x2) return true;
  if (type == Pred || typeBits(type) < 32) return false;
  return !(integer && (type == F32 || type == F64));
}

}  // namespace

std::string cvtPackRefusal(const FormToCheck& form) {
  // Only .sat: the packing saturates to the narrow integers, there is no float to keep finite.
  if (form.has(Mod::Satfinite)) return illegalModifier(Mod::Satfinite, "cvt.pack");
  // d, a, b, and c when the form names its type (.u8.s32.b32).
  const uint32_t count = form.types.size() == 3 ? 4 : 3;
  if (form.operandCount != count) return argumentsMismatch("cvt.pack");
  for (uint32_t i = 0; i < count && i < form.operands.size(); ++i) {
    if (!fits(form.operands[i], i < 3)) return argumentsMismatch("cvt.pack");
  }
  return {};
}

}  // namespace ptxsim::isa::strict
