#include "rule_words.h"

namespace ptxsim::isa::strict {

std::string ptxasRefusal(const FormToCheck& form) {
  // A word of a broad group that the instruction does not take is what
  // ptxas sees first: it stops at the word.
  if (std::string why = formWordRefusal(form); !why.empty()) return why;
  for (auto area : {cvtRefusal, compareRefusal, floatRefusal, integerRefusal, videoRefusal, memoryRefusal}) {
    if (std::string why = area(form); !why.empty()) return why;
  }
  return {};
}

}  // namespace ptxsim::isa::strict
