// atom and red: which operation takes which type, the memory orders each
// takes, .noftz on the 16-bit floats and the vector forms (ptxas 13.0,
// sm_90). The PTX ISA's "atom" and "red" sections list the types of each
// operation; ptxas's messages and the order it checks in are from its
// recorded verdicts (h100/memory_ptxas_rejected.txt).

#include <array>

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

using enum DataType;

// The types an operation takes, in the order ptxas's message lists them.
struct OperationTypes {
  Mod operation;
  std::array<DataType, 9> types;  // None-padded
};

constexpr OperationTypes kOperationTypes[] = {
    {Mod::AtomAdd, {U32, S32, U64, F64, F16, F16x2, F32, BF16, BF16x2}},
    {Mod::AtomMin, {U32, S32, U64, S64, F16, F16x2, BF16, BF16x2}},
    {Mod::AtomMax, {U32, S32, U64, S64, F16, F16x2, BF16, BF16x2}},
    {Mod::AtomInc, {U32}},
    {Mod::AtomDec, {U32}},
    {Mod::AtomAnd, {B32, B64}},
    {Mod::AtomOr, {B32, B64}},
    {Mod::AtomXor, {B32, B64}},
    {Mod::AtomExch, {B32, B64, B128}},
    {Mod::AtomCas, {B16, B32, B64, B128}},
};

const OperationTypes* typesOf(Mod operation) {
  for (const OperationTypes& entry : kOperationTypes) {
    if (entry.operation == operation) return &entry;
  }
  return nullptr;
}

bool takes(const OperationTypes& entry, DataType type) {
  for (DataType t : entry.types) {
    if (t == type && t != None) return true;
  }
  return false;
}

// "Operation .add requires .u32 or .s32 or ... type for instruction 'atom'".
// ptxas writes add's f16 and f16x2 without their dots.
std::string typesMessage(const OperationTypes& entry, std::string_view instruction) {
  std::string list;
  for (DataType t : entry.types) {
    if (t == None) break;
    if (!list.empty()) list += " or ";
    const bool undotted = entry.operation == Mod::AtomAdd && (t == F16 || t == F16x2);
    list += undotted ? dotted(t).substr(1) : dotted(t);
  }
  return "Operation " + dotted(entry.operation) + " requires " + list + " type for instruction '" +
         std::string(instruction) + "'";
}

bool isHalf(DataType type) { return type == F16 || type == F16x2 || type == BF16 || type == BF16x2; }

}  // namespace

std::string atomicRefusal(const FormToCheck& form) {
  const std::string_view name = form.spec.mnemonic;
  const bool red = form.spec.opcode == Opcode::Red;
  const Mod operation = form.get(ModGroup::AtomicOp);
  const DataType type = form.type(0);
  const OperationTypes* entry = typesOf(operation);
  if (entry == nullptr) return {};
  // red returns nothing, so it has no compare-and-swap or exchange.
  if (red && operation == Mod::AtomCas) return illegalModifier(Mod::AtomCas, name);
  if (red && operation == Mod::AtomExch) return "Illegal operation '.exch' for instruction 'red'";
  // atom is a read-modify-write with .relaxed/.acquire/.release/.acq_rel
  // order; red reads nothing back, so neither .acquire nor .acq_rel.
  const Mod order = form.get(ModGroup::Semantics);
  if (order == Mod::Weak || order == Mod::Volatile || order == Mod::Sc ||
      (red && (order == Mod::Acquire || order == Mod::AcqRel))) {
    return illegalModifier(order, name);
  }
  // Only cas has a 16-bit form (its d, [a], b, c signature).
  if (type == B16 && operation != Mod::AtomCas) return argumentsMismatch(name);
  if (operation == Mod::AtomCas && !takes(*entry, type)) return unexpectedTypes(name);
  if (isHalf(type) && !form.has(Mod::NoFtz)) {
    return "'.noftz' modifier required for instruction '" + std::string(name) + "' with type '" + dotted(type) +
           "'";
  }
  if (!takes(*entry, type)) return typesMessage(*entry, name);
  const Mod vector = form.get(ModGroup::Vector);
  // min/max on the 16-bit floats exist only as vectors.
  if ((operation == Mod::AtomMin || operation == Mod::AtomMax) && isHalf(type) && vector == Mod::None) {
    const Mod space = form.get(ModGroup::Space);
    return "Vector modifier required for instruction '" + std::string(name) + dotted(operation) + dotted(type) +
           (space == Mod::None ? " with generic state space" : dotted(space)) + "'";
  }
  // A vector of 32-bit elements holds at most four (128 bits).
  if (vector == Mod::V8 && (type == F32 || type == F16x2 || type == BF16x2)) {
    return "Only .v2 or .v4 vector modifier supported with type " + dotted(type) + " on " + dotted(operation) +
           " operation for " + std::string(name) + " instruction with vector types";
  }
  return {};
}

}  // namespace ptxsim::isa::strict
