// The warp collectives vote, shfl, match and redux (ptxas 13.0, sm_90):
// the .sync forms Volta's independent scheduling needs, and which mode or
// operation takes which type (PTX ISA "vote", "match", "redux"; messages
// from ptxas's recorded verdicts).

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

// vote and shfl without .sync assume the warp runs in lockstep: gone for
// sm_70 and later from PTX 6.4.
std::string lockstepRefusal(const FormToCheck& form) {
  if (form.has(Mod::SyncMod) || form.targetSm < 70 || form.ptxVersion < 64) return {};
  return "Instruction '" + std::string(form.spec.mnemonic) +
         "' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4";
}

std::string voteRefusal(const FormToCheck& form) {
  if (std::string why = lockstepRefusal(form); !why.empty()) return why;
  const Mod mode = form.get(ModGroup::VoteMode);
  if (mode == Mod::None) return {};
  // .ballot gathers a mask; .all/.any/.uni answer with a predicate.
  const DataType wanted = mode == Mod::Ballot ? DataType::B32 : DataType::Pred;
  if (form.type(0) == wanted) return {};
  return "Instruction 'vote' requires '" + dotted(wanted) + "' type with '" + dotted(mode) + "' modifier.";
}

std::string matchRefusal(const FormToCheck& form) {
  const Mod mode = form.get(ModGroup::VoteMode);
  if (mode == Mod::Ballot) return illegalModifier(mode, "match");
  if (mode == Mod::VoteUni) return "'.any' or '.all' modifier required for instruction 'match'";
  return {};
}

// Integer redux: arithmetic on .u32/.s32, bitwise on .b32, no .popc.
std::string reduxRefusal(const FormToCheck& form) {
  const Mod operation = form.get(ModGroup::ReduceOp);
  const DataType type = form.type(0);
  if (!isInteger(type) && type != DataType::B32) return {};  // the f32 forms are sm_100's
  if (operation == Mod::RedPopc) return "Illegal reduction operation for instruction 'redux'";
  const bool bitwise = operation == Mod::RedAnd || operation == Mod::RedOr || operation == Mod::RedXor;
  const bool arithmetic = operation == Mod::RedAdd || operation == Mod::RedMin || operation == Mod::RedMax;
  if ((bitwise && type != DataType::B32) || (arithmetic && type == DataType::B32)) {
    return "Incorrect type '" + dotted(type) + "' for operation '" + dotted(operation) + "' in instruction 'redux'";
  }
  return {};
}

}  // namespace

std::string warpRefusal(const FormToCheck& form) {
  switch (form.spec.opcode) {
    case Opcode::Vote: return voteRefusal(form);
    case Opcode::Shfl: return lockstepRefusal(form);
    case Opcode::Match: return matchRefusal(form);
    case Opcode::Redux: return reduxRefusal(form);
    default: return {};
  }
}

}  // namespace ptxsim::isa::strict
