#pragma once

// The bridge between the instruction table and the executor: for each
// opcode, a selector that looks at one decoded instruction (types,
// modifiers, resolved operands) and binds the handler that runs it. Each
// instruction family registers its selectors from its own file.
//
// A selector returns false, with the reason, for a form the simulator does
// not implement; the module then fails to load with
// "unsupported instruction X at FILE:LINE", never at run time.

#include <array>
#include <string>

#include "../exec/exec_context.h"
#include "../exec/prepared.h"
#include "ptxsim/isa/module.h"

namespace ptxsim::sim::semantics {

using exec::ExecContext;
using exec::LaneMask;
using exec::PreparedInstruction;
using exec::PreparedOperand;

// What a selector may look at besides the instruction itself.
struct SelectContext {
  const isa::Module& module;
  const isa::Function& function;
  exec::PreparedFunction& prepared;
};

using Selector = bool (*)(const isa::Instruction&, PreparedInstruction&, SelectContext&, std::string& why);

// Mnemonics such as add, min or abs cover integer, f32/f64 and f16/bf16
// forms that different families implement: a selector registers for the
// class of the instruction's first type. PackedInteger is .u16x2/.s16x2.
enum class TypeClass : uint8_t { Any, Integer, PackedInteger, Float, Half, Count_ };
TypeClass typeClassOf(isa::DataType type);

class SemanticsTable {
 public:
  void add(isa::Opcode opcode, Selector selector) { add(opcode, TypeClass::Any, selector); }
  void add(isa::Opcode opcode, TypeClass cls, Selector selector) {
    selectors_[static_cast<unsigned>(opcode)][static_cast<unsigned>(cls)] = selector;
  }
  // The selector for the instruction's type class, else the opcode's Any one.
  // set.dtype.stype belongs to the family of its source type (set.u32.f16
  // is the half family's).
  Selector find(const isa::Instruction& inst) const {
    const auto& row = selectors_[static_cast<unsigned>(inst.opcode)];
    unsigned slot = inst.opcode == isa::Opcode::Set && inst.typeCount > 1 ? 1 : 0;
    TypeClass cls = inst.typeCount > slot ? typeClassOf(inst.types[slot]) : TypeClass::Any;
    Selector s = row[static_cast<unsigned>(cls)];
    return s != nullptr ? s : row[static_cast<unsigned>(TypeClass::Any)];
  }

 private:
  std::array<std::array<Selector, static_cast<unsigned>(TypeClass::Count_)>, isa::kOpcodeCount> selectors_{};
};

// Every family's selectors, registered once.
const SemanticsTable& semanticsTable();

void registerIntegerSemantics(SemanticsTable& table);
void registerLogicSemantics(SemanticsTable& table);
void registerCompareSemantics(SemanticsTable& table);
void registerFloatSemantics(SemanticsTable& table);
void registerHalfSemantics(SemanticsTable& table);
void registerConvertSemantics(SemanticsTable& table);
void registerConvertPackSemantics(SemanticsTable& table);
void registerDataMovementSemantics(SemanticsTable& table);
void registerAtomicSemantics(SemanticsTable& table);
void registerControlSemantics(SemanticsTable& table);
void registerSyncSemantics(SemanticsTable& table);
void registerWarpCollectiveSemantics(SemanticsTable& table);
void registerMiscSemantics(SemanticsTable& table);
void registerAsyncCopySemantics(SemanticsTable& table);
void registerMbarrierSemantics(SemanticsTable& table);
void registerBulkCopySemantics(SemanticsTable& table);
void registerTensorCopySemantics(SemanticsTable& table);
void registerTensorMapUpdateSemantics(SemanticsTable& table);
void registerVideoSemantics(SemanticsTable& table);
void registerSurfaceSemantics(SemanticsTable& table);
void registerTextureSemantics(SemanticsTable& table);
void registerMatrixMmaSemantics(SemanticsTable& table);
void registerMatrixMmaSparseSemantics(SemanticsTable& table);
void registerMatrixWmmaSemantics(SemanticsTable& table);
void registerMatrixWmmaMmaSemantics(SemanticsTable& table);
void registerMatrixWgmmaSemantics(SemanticsTable& table);
void registerMatrixLoadSemantics(SemanticsTable& table);

}  // namespace ptxsim::sim::semantics
