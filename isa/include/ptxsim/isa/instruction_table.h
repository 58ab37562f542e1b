#pragma once

// The PTX instruction set, described once as a table. The validator, the
// executor's dispatch, the timing model's unit classes and the tests all
// read it; nothing else lists instructions.
//
// A mnemonic may have several rows (integer add and float add take
// different modifiers). Lowering picks the first row of the mnemonic whose
// type slots accept the instruction's types.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ptxsim/isa/data_type.h"
#include "ptxsim/isa/modifier.h"
#include "ptxsim/isa/opcode.h"

namespace ptxsim::isa {

// Versions are written major*10+minor: PTX 9.0 is 90, sm_90 is 90.
struct InstructionSpec {
  Opcode opcode;
  std::string_view mnemonic;   // the ISA's name, dots included: "bar.warp.sync"
  uint8_t typeSlots;           // how many type suffixes the row takes
  std::array<TypeSet, 4> legalTypes;  // per slot
  GroupSet allowed;            // modifier groups the row accepts
  GroupSet required;           // groups that must be present
  // Operand signature: comma-separated tokens, one per operand.
  //   d, d1, d2   destination register typed by type slot 0, 1, 2
  //   s, s1, s2   source register or immediate typed by slot 0, 1, 2
  //   r, r1       source register only (no immediate)
  //   dv, sv      like d / s, but a {vector} when the instruction has .v2/.v4/.v8
  //   U32 B32 S32 U64 B64 U16 B16 ...   source of that fixed type
  //   p           predicate destination (`%p`, also `%p|%q`)
  //   q           predicate source, possibly negated (`!%p`) or immediate
  //   a           address operand `[...]`
  //   l           label; f function or register holding its address; t label table
  //   x           any operand, not checked
  //   a trailing `?` makes the token optional; a final `...` allows any
  //   number of further unchecked operands.
  std::string_view operands;
  uint16_t minPtx;
  uint16_t minSm;
  UnitClass unit;
};

std::span<const InstructionSpec> instructionTable();

// The rows for one opcode, in table order.
std::span<const InstructionSpec> rowsFor(Opcode opcode);

std::string_view mnemonicOf(Opcode opcode);

struct MnemonicMatch {
  Opcode opcode;
  size_t length;  // characters of the opcode token taken by the mnemonic
};

// The longest mnemonic that is a prefix of `opcodeToken` and ends at a dot
// or at the end: "bar.warp.sync" for "bar.warp.sync", "ld" for
// "ld.global.u32". nullopt if none.
std::optional<MnemonicMatch> matchMnemonic(std::string_view opcodeToken);

// Shapes such as m16n8k16 or m64n128k16; false when `word` is not one.
struct MatrixShape {
  uint16_t m = 0, n = 0, k = 0;
};
bool parseShape(std::string_view word, MatrixShape& shape);

}  // namespace ptxsim::isa
