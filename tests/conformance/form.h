#pragma once

// The instruction forms of the conformance suite: every combination of an
// instruction-table row's types and modifiers (isa/src/instruction_table_rows_*.cpp)
// that takes registers and gives registers, so that a kernel can feed it
// inputs and store what it writes. Rows of other shapes (memory, control,
// warp collectives, matrix and texture instructions) are listed as excluded,
// each with the reason and where it is tested instead.

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/isa/data_type.h"
#include "ptxsim/isa/instruction_table.h"
#include "ptxsim/isa/modifier.h"

namespace ptxsim::conformance {

enum class OperandRole : uint8_t { Dest, Source, PredDest, PredSource, Immediate };

struct Operand {
  OperandRole role = OperandRole::Source;
  uint32_t bits = 32;                          // register width (1 for predicates)
  isa::DataType values = isa::DataType::B32;   // which special values a source draws
  uint64_t immediate = 0;                      // OperandRole::Immediate
};

struct Form {
  std::string name;      // unique: the instruction text without operands, plus a variant such as " lut=0x96"
  std::string mnemonic;  // the instruction as written in the kernel
  std::vector<Operand> operands;
  bool carryIn = false;   // CC.CF is set from an extra input before the instruction
  bool carryOut = false;  // CC.CF after the instruction is an extra output
  uint32_t sources() const;
  uint32_t outputs() const;
};

struct ExcludedRow {
  std::string what;  // the row: mnemonic and types
  std::string why;
};

struct Enumeration {
  std::vector<Form> forms;        // candidates: the table accepts them (ptxas may not)
  std::vector<ExcludedRow> rows;  // rows no kernel of this suite can test, with the reason
};

// Every candidate form of the table for sm_90, in table order; names are unique.
Enumeration enumerateForms();

}  // namespace ptxsim::conformance
