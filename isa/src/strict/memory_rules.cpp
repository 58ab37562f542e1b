// atom, red, ld, st, ldu and the warp collectives (ptxas 13.0, sm_90).

#include "rule_words.h"

namespace ptxsim::isa::strict {

std::string memoryRefusal(const FormToCheck& form) {
  (void)form;
  return {};
}

}  // namespace ptxsim::isa::strict
