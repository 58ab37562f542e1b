#include "rule_words.h"

namespace ptxsim::isa::strict {

std::string ptxasRefusal(const FormToCheck& form) {
  // Every instruction of a module passes here: one switch picks the area,
  // and instructions no rule concerns (ld, mov, bra, ...) leave at once.
  switch (form.spec.opcode) {
    case Opcode::Cvt: return cvtRefusal(form);
    case Opcode::CvtPack: return cvtPackRefusal(form);
    case Opcode::Set:
    case Opcode::Setp:
    case Opcode::Slct: return compareRefusal(form);
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mad:
    case Opcode::Mul: {
      std::string why = integerRefusal(form);
      return why.empty() ? floatRefusal(form) : why;
    }
    case Opcode::Fma:
    case Opcode::Div:
    case Opcode::Rcp:
    case Opcode::Sqrt:
    case Opcode::Rsqrt:
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Lg2:
    case Opcode::Ex2:
    case Opcode::Tanh:
    case Opcode::Min:
    case Opcode::Max: return floatRefusal(form);
    case Opcode::Mad24:
    case Opcode::Mul24:
    case Opcode::Madc:
    case Opcode::Dp2a:
    case Opcode::Bfind:
    case Opcode::Shf: return integerRefusal(form);
    case Opcode::CpAsyncWaitGroup:
    case Opcode::CpAsyncBulkWaitGroup: return waitGroupRefusal(form);
    case Opcode::Atom:
    case Opcode::Red: return atomicRefusal(form);
    case Opcode::Vote:
    case Opcode::Shfl:
    case Opcode::Match:
    case Opcode::Redux: return warpRefusal(form);
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Ldu:
      if (std::string why = formWordRefusal(form); !why.empty()) return why;
      return memoryRefusal(form);
    default:
      // The video instructions; a word of a broad group is what ptxas sees first.
      if (std::string why = formWordRefusal(form); !why.empty()) return why;
      return videoRefusal(form);
  }
}

bool readsOperands(Opcode opcode) {
  return opcode == Opcode::CvtPack || opcode == Opcode::CpAsyncWaitGroup ||
         opcode == Opcode::CpAsyncBulkWaitGroup;
}

}  // namespace ptxsim::isa::strict
