#pragma once

// The instruction forms of the conformance suite: every combination of an
// instruction-table row's types and modifiers (isa/src/instruction_table_rows_*.cpp)
// that a kernel can feed inputs and whose results it can store. Two sets,
// each recorded on its own: the register set (register-to-register forms,
// h100/forms.txt) and the memory set (atom and red on one memory word per
// thread, ld/st/ldu round trips, warp collectives over full warps with fixed
// lane patterns: h100/memory_forms.txt). Rows of other shapes (control,
// matrix and texture instructions, ...) are listed as excluded, each with the
// reason and where it is tested instead.

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/isa/data_type.h"
#include "ptxsim/isa/instruction_table.h"
#include "ptxsim/isa/modifier.h"

namespace ptxsim::conformance {

// Which recording a form belongs to (the forms file's name selects it:
// memory_forms.txt is the memory set, any other name the register set).
enum class FormSet : uint8_t { Register, Memory };

// How a form's kernel is built (kernel_text.h).
enum class FormKind : uint8_t {
  Register,  // sources in registers, results from registers
  Memory,    // an instruction on one memory word per thread (Form::space, Form::memory)
  Warp,      // a warp collective: input slot 0 of each lane is the set of lanes that execute it
};

enum class OperandRole : uint8_t {
  Dest,
  Source,
  PredDest,
  PredSource,
  Immediate,
  Address,     // [the thread's memory word] (FormKind::Memory)
  MemberMask,  // the warp's member mask: the lanes that execute (FormKind::Warp)
};

struct Operand {
  OperandRole role = OperandRole::Source;
  uint32_t bits = 32;                          // register width (1 for predicates)
  isa::DataType values = isa::DataType::B32;   // which special values a source draws
  uint64_t immediate = 0;                      // OperandRole::Immediate
  uint32_t elements = 1;                       // a {vector} of this many registers
  bool joinedToPrevious = false;               // written `%d|%p` with the operand before it
  // 8-byte input or output slots the operand takes: its registers packed.
  uint32_t slots() const;
};

// The thread's memory word of a FormKind::Memory form: initialised from the
// first input slots before the instruction, read back into the last output
// slots after it.
struct MemoryWord {
  uint32_t bits = 0;                         // 0: the form has none
  isa::DataType values = isa::DataType::B32; // which special values initialise it
  uint32_t slots() const { return (bits + 63) / 64; }
};

struct Form {
  std::string name;      // unique: the instruction text without operands, plus a variant such as " lut=0x96"
  std::string mnemonic;  // the instruction as written in the kernel
  std::vector<Operand> operands;
  bool carryIn = false;   // CC.CF is set from an extra input before the instruction
  bool carryOut = false;  // CC.CF after the instruction is an extra output
  FormKind kind = FormKind::Register;
  std::string space;      // FormKind::Memory: "global", "shared", "local" or "" (generic address)
  MemoryWord memory;      // FormKind::Memory
  // 8-byte slots of one record's inputs and of its outputs (one per register
  // operand of the register set; wider or vector operands take more).
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
  // Modifier combinations written on representative forms only, each with the reason (once each).
  std::vector<std::string> collapsed;
};

// Every candidate form of one set of the table for sm_90, in table order;
// names are unique across both sets. The rows of the other set are listed
// as excluded, with the set that tests them.
Enumeration enumerateForms(FormSet set = FormSet::Register);

// The set a forms file holds, by its name.
FormSet setOfFormsFile(const std::string& path);

// Where a recording's companion file lies: NAME beside the forms file, with
// the set's prefix ("memory_known_differences.txt" for memory_forms.txt).
std::string companionPath(const std::string& formsPath, const std::string& name);

// Used by the memory and warp enumerations (memory_forms.cpp, warp_forms.cpp).
std::vector<isa::DataType> typesIn(isa::TypeSet set);
std::vector<isa::Mod> modsOf(isa::ModGroup group);
uint32_t registerBits(isa::DataType type);
std::string rowText(const isa::InstructionSpec& row);
// Expands one row of the memory set into `out`; false when the row is not of that set.
bool expandMemoryRow(const isa::InstructionSpec& row, Enumeration& out);
bool expandWarpRow(const isa::InstructionSpec& row, Enumeration& out);

}  // namespace ptxsim::conformance
