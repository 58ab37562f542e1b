#pragma once

// What ptxas refuses that the instruction table's rows accept. A row says
// which modifier groups and types an instruction takes; ptxas is stricter
// about how they combine (cvt's rounding against its types, set/setp's
// comparisons against theirs, which .sat or .satfinite an instruction
// takes, which word of a broad group such as Form). These rules hold those
// limits, each with ptxas 13.0's own message for sm_90, so that PTX that
// would not build for the GPU is refused at load as well
// (docs/conformance.md, tests/isa/ptxas_strictness_test.cpp).

#include <cstdint>
#include <span>
#include <string>

#include "ptxsim/isa/instruction_table.h"

namespace ptxsim::isa::strict {

// An operand as written, as far as ptxas's argument checks look at it: a
// register and its declared type, an integer or a float constant, or
// anything else (vectors, addresses, symbols, special registers).
struct WrittenOperand {
  enum class Kind : uint8_t { Register, Integer, Float, Other };
  Kind kind = Kind::Other;
  DataType registerType = DataType::None;  // a register's declared type
};

// One decoded instruction, as the rules see it.
struct FormToCheck {
  const InstructionSpec& spec;
  std::span<const DataType> types;
  ModifierSet modifiers;
  uint32_t operandCount = 0;  // operands as written
  uint32_t targetSm = 0;      // the module's .target (90 for sm_90a)
  uint32_t ptxVersion = 0;    // the module's .version, major*10+minor
  // As written, for the instructions readsOperands() names; empty for the others.
  std::span<const WrittenOperand> operands = {};

  DataType type(unsigned slot) const { return slot < types.size() ? types[slot] : DataType::None; }
  bool has(Mod mod) const { return modifiers.has(mod); }
  bool hasGroup(ModGroup group) const { return modifiers.hasGroup(group); }
  Mod get(ModGroup group) const { return modifiers.get(group); }
};

// ptxas's message for a form it refuses, or "" when ptxas builds it.
std::string ptxasRefusal(const FormToCheck& form);

// Whether the rules of this instruction read FormToCheck::operands; the
// front end describes the operands only for those (lowering's hot path).
bool readsOperands(Opcode opcode);

// ptxas's message for types that no row of the instruction takes, or ""
// where the front end's own message stands.
std::string typeRefusal(Opcode opcode, unsigned typeCount);

}  // namespace ptxsim::isa::strict
