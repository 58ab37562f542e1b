// cp.async.wait_group and cp.async.bulk.wait_group wait for all but the
// newest N groups, N a constant: ptxas takes one integer constant (an
// expression too) and refuses a register, a float or any other count of
// operands with "Arguments mismatch" (ptxas 13.0, sm_90). It checks that
// after the words it does not know and before the sub-form words it knows
// but the instruction does not take (form_word_rules.cpp's tiers).

#include "rule_words.h"

namespace ptxsim::isa::strict {

std::string waitGroupRefusal(const FormToCheck& form) {
  if (std::string why = subFormWordRefusal(form, SubFormTier::Parse); !why.empty()) return why;
  const bool oneConstant =
      form.operands.size() == 1 && form.operands[0].kind == WrittenOperand::Kind::Integer;
  if (!oneConstant) return argumentsMismatch(form.spec.mnemonic);
  if (std::string why = subFormWordRefusal(form, SubFormTier::Feature); !why.empty()) return why;
  return subFormWordRefusal(form, SubFormTier::Late);
}

}  // namespace ptxsim::isa::strict
