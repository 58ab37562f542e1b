// The memory set's atomics: atom and red on one memory word per thread, in
// every state space a thread can address its own word in (generic, .global,
// .shared), every operation and element type of the row, the vector forms
// (.global only, as the ISA allows) and .noftz. The memory order and scope
// (.sem, .scope) cannot change what a single thread reads and writes, so
// they are crossed on representatives only: every .sem x .scope on
// atom.add.u32, atom.cas.b32 and red.add.u32 in each space; every other form
// is written without them.

#include <algorithm>

#include "form.h"

namespace ptxsim::conformance {
namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct AtomicChoice {
  DataType type;
  Mod op;
  const char* space;  // "" for a generic address
  uint32_t elements;  // 1 or the .v2/.v4/.v8 count
  bool noftz;
  Mod semantics;      // Mod::None when absent
  Mod scope;
};

// ".word", nothing for an empty word.
void appendWord(std::string& text, std::string_view word) {
  if (word.empty()) return;
  text += '.';
  text += word;
}

bool representativeForOrdering(const isa::InstructionSpec& row, DataType type, Mod op) {
  if (row.opcode == Opcode::Red) return op == Mod::AtomAdd && type == DataType::U32;
  return (op == Mod::AtomAdd && type == DataType::U32) || (op == Mod::AtomCas && type == DataType::B32);
}

// The register width of one element, and the type whose special values it draws.
Operand valueOperand(OperandRole role, DataType type, uint32_t elements) {
  Operand o;
  o.role = role;
  o.elements = elements;
  o.bits = registerBits(type);
  // A 128-bit word draws two 64-bit special values.
  o.values = type == DataType::B128 ? DataType::B64 : type;
  return o;
}

Form atomicForm(const isa::InstructionSpec& row, const AtomicChoice& c) {
  // PTX's order: atom{.sem}{.scope}{.space}.op{.noftz}{.vec}.type
  std::string text(row.mnemonic);
  for (Mod m : {c.semantics, c.scope}) appendWord(text, m == Mod::None ? "" : isa::modifierText(m));
  appendWord(text, c.space);
  appendWord(text, isa::modifierText(c.op));
  appendWord(text, c.noftz ? "noftz" : "");
  appendWord(text, c.elements > 1 ? "v" + std::to_string(c.elements) : "");
  text += isa::typeName(c.type);
  Form f;
  f.kind = FormKind::Memory;
  f.name = text;
  f.mnemonic = text;
  f.space = c.space;
  f.memory.bits = isa::typeBits(c.type) * c.elements;
  f.memory.values = c.type == DataType::B128 ? DataType::B64 : c.type;
  if (row.opcode == Opcode::Atom) f.operands.push_back(valueOperand(OperandRole::Dest, c.type, c.elements));
  Operand address;
  address.role = OperandRole::Address;
  f.operands.push_back(address);
  f.operands.push_back(valueOperand(OperandRole::Source, c.type, c.elements));
  if (c.op == Mod::AtomCas) f.operands.push_back(valueOperand(OperandRole::Source, c.type, c.elements));
  return f;
}

void expandAtomicRow(const isa::InstructionSpec& row, Enumeration& out) {
  const bool vectors = row.allowed.contains(ModGroup::Vector);
  const bool ftz = row.allowed.contains(ModGroup::Ftz);
  const bool ordering = row.allowed.contains(ModGroup::Semantics);
  std::vector<Mod> semantics{Mod::None}, scopes{Mod::None};
  if (ordering) {
    for (Mod m : modsOf(ModGroup::Semantics)) semantics.push_back(m);
    for (Mod m : modsOf(ModGroup::Scope)) scopes.push_back(m);
  }
  for (DataType type : typesIn(row.legalTypes[0])) {
    for (Mod op : modsOf(ModGroup::AtomicOp)) {
      for (const char* space : {"", "global", "shared"}) {
        std::vector<uint32_t> counts{1};
        if (vectors && std::string_view(space) == "global") counts.insert(counts.end(), {2, 4, 8});
        for (uint32_t elements : counts) {
          for (bool noftz : ftz ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
            const bool crossed = representativeForOrdering(row, type, op) && elements == 1 && !noftz;
            for (Mod sem : crossed ? semantics : std::vector<Mod>{Mod::None}) {
              for (Mod scope : crossed ? scopes : std::vector<Mod>{Mod::None}) {
                out.forms.push_back(atomicForm(row, {type, op, space, elements, noftz, sem, scope}));
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

bool expandMemoryRow(const isa::InstructionSpec& row, Enumeration& out) {
  if (row.opcode != Opcode::Atom && row.opcode != Opcode::Red) return false;
  expandAtomicRow(row, out);
  return true;
}

}  // namespace ptxsim::conformance
