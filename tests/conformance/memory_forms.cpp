// The memory set's atomics and loads and stores on one memory word per
// thread.
//
// atom and red, in
// every state space a thread can address its own word in (generic, .global,
// .shared), every operation and element type of the row, the vector forms
// (.global only, as the ISA allows) and .noftz. The memory order and scope
// (.sem, .scope) cannot change what a single thread reads and writes, so
// they are crossed on representatives only: every .sem x .scope on
// atom.add.u32, atom.cas.b32 and red.add.u32 in each space; every other form
// is written without them.
//
// ld, st and ldu: a round trip of every element type and vector width in
// every state space a thread can write its own word in (generic, .global,
// .shared, .local; ldu: generic and .global), 8- and 16-bit loads also into
// a 32-bit register (the extension to the register). The cache operators,
// eviction and prefetch hints, .nc, the memory orders and scopes and .mmio
// cannot change a single thread's round trip either: each is written once,
// on ld/st.global.u32 and ld/st.shared.u32.

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
  Mod semantics;  // Mod::None when absent
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
  out.collapsed.push_back(
      "atom/red .sem x .scope: every combination on atom.add.u32, atom.cas.b32 and red.add.u32 in each space, "
      "the other forms without them: the memory order and scope order a thread's accesses against other "
      "threads' and cannot change what one thread reads and writes on its own word. .L2::cache_hint (it "
      "takes a createpolicy operand) is not generated: a cache policy changes no value either.");
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

// The modifier words of one load or store besides its space, vector and type, in PTX's order:
// ld{.mmio}{.sem}{.scope}{.space}{.cop}{.nc}{.L1::eviction}{.L2::eviction}{.L2::prefetch}{.vec}.type
struct LoadStoreWords {
  std::string before;  // .mmio, .sem, .scope
  std::string after;   // the cache operator and hints
};

std::string words(std::initializer_list<Mod> mods) {
  std::string text;
  for (Mod m : mods) appendWord(text, m == Mod::None ? "" : isa::modifierText(m));
  return text;
}

// Every modifier the row allows, one at a time (the memory order with each scope).
std::vector<LoadStoreWords> loadStoreVariants(const isa::InstructionSpec& row) {
  std::vector<LoadStoreWords> out;
  const bool mmio = row.required.contains(ModGroup::Form);
  std::vector<Mod> scopes{Mod::None};
  if (row.allowed.contains(ModGroup::Scope)) {
    for (Mod m : modsOf(ModGroup::Scope)) scopes.push_back(m);
  }
  if (row.allowed.contains(ModGroup::Semantics)) {
    for (Mod sem : modsOf(ModGroup::Semantics)) {
      for (Mod scope : scopes) out.push_back({words({mmio ? Mod::Mmio : Mod::None, sem, scope}), ""});
    }
  }
  if (mmio) return out;
  for (ModGroup g : {ModGroup::CacheOp, ModGroup::NonCoherent, ModGroup::L1Eviction, ModGroup::L2Eviction,
                     ModGroup::L2Prefetch}) {
    if (!row.allowed.contains(g)) continue;
    for (Mod m : modsOf(g)) {
      // The CacheOp group also holds tcgen05's collector usages (".collector::a::fill").
      if (isa::modifierText(m).find("::") == std::string_view::npos || g != ModGroup::CacheOp)
        out.push_back({"", words({m})});
    }
  }
  return out;
}

Form loadStoreForm(const isa::InstructionSpec& row, DataType type, const char* space, uint32_t elements,
                   const LoadStoreWords& mods, uint32_t destinationBits) {
  std::string text(row.mnemonic);
  text += mods.before;
  appendWord(text, space);
  text += mods.after;
  appendWord(text, elements > 1 ? "v" + std::to_string(elements) : "");
  text += isa::typeName(type);
  Form f;
  f.kind = FormKind::Memory;
  f.name = text + (destinationBits != 0 ? " (32-bit register)" : "");
  f.mnemonic = text;
  f.space = space;
  f.memory.bits = isa::typeBits(type) * elements;
  f.memory.values = type == DataType::B128 ? DataType::B64 : type;
  Operand address;
  address.role = OperandRole::Address;
  if (row.opcode == Opcode::St) {
    f.operands = {address, valueOperand(OperandRole::Source, type, elements)};
  } else {
    Operand d = valueOperand(OperandRole::Dest, type, elements);
    if (destinationBits != 0) d.bits = destinationBits;
    f.operands = {d, address};
  }
  return f;
}

void expandLoadStoreRow(const isa::InstructionSpec& row, Enumeration& out) {
  out.collapsed.push_back(
      "ld/st: the cache operators, .nc, the eviction and prefetch hints, .sem x .scope and .mmio one at a "
      "time on ld/st.global.u32 and ld/st.shared.u32, every type and vector without them: none changes "
      "what a thread's own round trip reads. .L2::cache_hint (a createpolicy operand) is not generated. "
      ".const and .param are not generated: a thread cannot write its own word there.");
  const bool mmio = row.required.contains(ModGroup::Form);
  const std::vector<LoadStoreWords> variants = loadStoreVariants(row);
  std::vector<const char*> spaces{"", "global"};
  if (row.opcode != Opcode::Ldu) spaces.insert(spaces.end(), {"shared", "local"});
  std::vector<uint32_t> counts{1};
  if (row.allowed.contains(ModGroup::Vector)) counts.insert(counts.end(), {2, 4, 8});
  for (DataType type : typesIn(row.legalTypes[0])) {
    for (const char* space : spaces) {
      if (!mmio) {
        for (uint32_t elements : counts) {
          out.forms.push_back(loadStoreForm(row, type, space, elements, {}, 0));
          if (row.opcode != Opcode::St && elements == 1 && isa::typeBits(type) < 32)
            out.forms.push_back(loadStoreForm(row, type, space, elements, {}, 32));
        }
      }
      const std::string_view s(space);
      if (type != DataType::U32 || (s != "global" && s != "shared")) continue;
      for (const LoadStoreWords& mods : variants)
        out.forms.push_back(loadStoreForm(row, type, space, 1, mods, 0));
    }
  }
}

}  // namespace

bool expandMemoryRow(const isa::InstructionSpec& row, Enumeration& out) {
  switch (row.opcode) {
    case Opcode::Atom:
    case Opcode::Red: expandAtomicRow(row, out); return true;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Ldu: expandLoadStoreRow(row, out); return true;
    default: return false;
  }
}

}  // namespace ptxsim::conformance
