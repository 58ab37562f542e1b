// The memory set's warp collectives: shfl, vote, match, redux, activemask
// and elect, every mode and type of their rows, with and without the
// optional predicate destination. Their kernels run whole warps; input slot 0
// of every lane is the warp's member mask, and only the lanes in it execute
// the instruction (warp_inputs.cpp chooses the masks and lane values).

#include "form.h"

namespace ptxsim::conformance {
namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

Operand operand(OperandRole role, DataType type) {
  Operand o;
  o.role = role;
  o.values = type;
  o.bits = role == OperandRole::PredDest || role == OperandRole::PredSource ? 1 : registerBits(type);
  return o;
}

Operand joinedPredicate() {
  Operand p = operand(OperandRole::PredDest, DataType::Pred);
  p.joinedToPrevious = true;
  return p;
}

Form warpForm(const std::string& mnemonic, std::vector<Operand> operands, bool memberMask) {
  Form f;
  f.kind = FormKind::Warp;
  f.name = mnemonic;
  f.mnemonic = mnemonic;
  f.operands = std::move(operands);
  if (memberMask) f.operands.push_back(operand(OperandRole::MemberMask, DataType::U32));
  return f;
}

// The form, and when `predicateVariant`, the same with `%d|%p`.
void push(Enumeration& out, Form f, bool predicateVariant) {
  out.forms.push_back(f);
  if (!predicateVariant) return;
  f.name += " (d|p)";
  f.operands.insert(f.operands.begin() + 1, joinedPredicate());
  out.forms.push_back(std::move(f));
}

std::string word(Mod m) {
  std::string text(1, '.');
  text += isa::modifierText(m);
  return text;
}

}  // namespace

bool expandWarpRow(const isa::InstructionSpec& row, Enumeration& out) {
  const bool sync = row.required.contains(ModGroup::Sync);
  const std::string base(row.mnemonic);
  switch (row.opcode) {
    case Opcode::Shfl:
      for (Mod mode : modsOf(ModGroup::ShflMode)) {
        push(out,
             warpForm(
                 base + (sync ? ".sync" : "") + word(mode) + ".b32",
                 {operand(OperandRole::Dest, DataType::B32), operand(OperandRole::Source, DataType::B32),
                  operand(OperandRole::Source, DataType::U32), operand(OperandRole::Source, DataType::U32)},
                 sync),
             true);
      }
      return true;
    case Opcode::Vote:
      for (DataType type : typesIn(row.legalTypes[0])) {
        for (Mod mode : modsOf(ModGroup::VoteMode)) {
          const OperandRole result = type == DataType::Pred ? OperandRole::PredDest : OperandRole::Dest;
          push(out,
               warpForm(base + (sync ? ".sync" : "") + word(mode) + std::string(isa::typeName(type)),
                        {operand(result, type), operand(OperandRole::PredSource, DataType::Pred)}, sync),
               false);
        }
      }
      return true;
    case Opcode::Match:
      for (DataType type : typesIn(row.legalTypes[0])) {
        for (Mod mode : modsOf(ModGroup::VoteMode)) {
          push(
              out,
              warpForm(base + word(mode) + ".sync" + std::string(isa::typeName(type)),
                       {operand(OperandRole::Dest, DataType::B32), operand(OperandRole::Source, type)}, true),
              mode == Mod::VoteAll);
        }
      }
      return true;
    case Opcode::Redux:
      for (DataType type : typesIn(row.legalTypes[0])) {
        for (Mod op : modsOf(ModGroup::ReduceOp)) {
          push(out,
               warpForm(base + ".sync" + word(op) + std::string(isa::typeName(type)),
                        {operand(OperandRole::Dest, type), operand(OperandRole::Source, type)}, true),
               false);
        }
      }
      return true;
    case Opcode::Activemask:
      push(out, warpForm(base + ".b32", {operand(OperandRole::Dest, DataType::B32)}, false), false);
      return true;
    case Opcode::Elect:
      push(out,
           warpForm(base + ".sync", {operand(OperandRole::Dest, DataType::B32), joinedPredicate()}, true),
           false);
      return true;
    default: return false;
  }
}

}  // namespace ptxsim::conformance
