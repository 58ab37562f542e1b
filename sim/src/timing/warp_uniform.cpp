#include "warp_uniform.h"

#include "ptxsim/isa/operand_access.h"

namespace ptxsim::sim::timing {

namespace {

using isa::Opcode;

// Special registers with one value for the whole warp.
bool specialUniform(const isa::Operand& op) {
  switch (static_cast<isa::SpecialRegister>(op.index)) {
    case isa::SpecialRegister::Ntid:
    case isa::SpecialRegister::Ctaid:
    case isa::SpecialRegister::Nctaid:
    case isa::SpecialRegister::Nsmid:
    case isa::SpecialRegister::Gridid: return true;
    default: return false;
  }
}

// Instructions whose result is a function of their operands alone (no
// lane identity, memory other than parameters and constants, or other lanes).
bool pureComputation(const isa::Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Mul24:
    case Opcode::Mad24: case Opcode::Div: case Opcode::Rem: case Opcode::Abs: case Opcode::Neg:
    case Opcode::Min: case Opcode::Max: case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind:
    case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::Set: case Opcode::Setp:
    case Opcode::Selp: case Opcode::Slct: case Opcode::And: case Opcode::Or: case Opcode::Xor:
    case Opcode::Not: case Opcode::Cnot: case Opcode::Lop3: case Opcode::Shf: case Opcode::Shl:
    case Opcode::Shr: case Opcode::Prmt: case Opcode::Mov: case Opcode::Cvta: case Opcode::Cvt:
    case Opcode::Fma: return true;
    case Opcode::Ld: {
      isa::Mod space = inst.modifiers.get(isa::ModGroup::Space);
      return space == isa::Mod::Param || space == isa::Mod::Const;
    }
    default: return false;
  }
}

}  // namespace

WarpUniformity::WarpUniformity(const isa::Function& fn) : fn_(fn), uniform_(fn.registers.size(), true),
                                                          reads_(fn.registers.size(), 0) {
  std::vector<uint32_t> definitions(fn.registers.size(), 0);
  for (const isa::Instruction& inst : fn.instructions) {
    for (unsigned i = 0; i < inst.operandCount; ++i) {
      const isa::Operand& op = fn.operands[inst.firstOperand + i];
      isa::OperandAccess access = isa::operandAccess(inst, i);
      if (op.kind == isa::OperandKind::Address && op.scope == isa::SymbolScope::Register && op.index < reads_.size())
        ++reads_[op.index];
      if (op.kind != isa::OperandKind::Register || op.index >= uniform_.size()) continue;
      if (access == isa::OperandAccess::Write) ++definitions[op.index];
      if (access == isa::OperandAccess::Read) ++reads_[op.index];
    }
    if (inst.guard.reg != isa::kNone && inst.guard.reg < reads_.size()) ++reads_[inst.guard.reg];
  }
  // Every register starts uniform; definitions that are not make their
  // registers non-uniform until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    bool divergent = false;
    for (const isa::Instruction& inst : fn.instructions) {
      if (inst.opcode == Opcode::Bra && inst.guard.reg != isa::kNone && !uniform(inst.guard.reg)) divergent = true;
    }
    for (const isa::Instruction& inst : fn.instructions) {
      bool uniformResult = computesUniformly(inst);
      for (unsigned i = 0; i < inst.operandCount; ++i) {
        const isa::Operand& op = fn.operands[inst.firstOperand + i];
        if (op.kind != isa::OperandKind::Register || op.index >= uniform_.size()) continue;
        if (isa::operandAccess(inst, i) != isa::OperandAccess::Write || !uniform_[op.index]) continue;
        if (!uniformResult || (divergent && definitions[op.index] > 1)) {
          uniform_[op.index] = false;
          changed = true;
        }
      }
    }
  }
}

bool WarpUniformity::operandUniform(const isa::Operand& op) const {
  switch (op.kind) {
    case isa::OperandKind::Register: return uniform(op.index);
    case isa::OperandKind::Special: return specialUniform(op);
    case isa::OperandKind::Address: return op.scope != isa::SymbolScope::Register || uniform(op.index);
    case isa::OperandKind::Immediate:
    case isa::OperandKind::FloatImmediate:
    case isa::OperandKind::Symbol: return true;
    default: return false;
  }
}

bool WarpUniformity::computesUniformly(const isa::Instruction& inst) const {
  if (!pureComputation(inst)) return false;
  if (inst.guard.reg != isa::kNone && !uniform(inst.guard.reg)) return false;
  for (unsigned i = 0; i < inst.operandCount; ++i) {
    if (isa::operandAccess(inst, i) != isa::OperandAccess::Read) continue;
    if (!operandUniform(fn_.operands[inst.firstOperand + i])) return false;
  }
  return true;
}

bool WarpUniformity::aggregatesAtomic(const isa::Instruction& inst) const {
  if (inst.opcode != Opcode::Atom && inst.opcode != Opcode::Red) return false;
  if (inst.modifiers.get(isa::ModGroup::AtomicOp) != isa::Mod::AtomAdd) return false;
  // 32-bit only: the H100's SASS sums a warp's lanes for a 32-bit add
  // (VOTEU.ANY, POPC or REDUX) but sends 64-bit adds lane by lane
  // (tests/timing/calibration/h100/bandwidth.sass.txt, atomicUniform).
  isa::DataType type = inst.types[0];
  if (inst.typeCount == 0 || isa::typeBits(type) != 32 ||
      (isa::typeKind(type) != isa::TypeKind::Unsigned && isa::typeKind(type) != isa::TypeKind::Signed))
    return false;
  isa::Mod space = inst.modifiers.get(isa::ModGroup::Space);
  if (space != isa::Mod::None && space != isa::Mod::Global) return false;
  for (unsigned i = 0; i < inst.operandCount; ++i) {
    const isa::Operand& op = fn_.operands[inst.firstOperand + i];
    if (op.kind == isa::OperandKind::Address) {
      if (!operandUniform(op)) return false;
    } else if (op.kind == isa::OperandKind::Register && isa::operandAccess(inst, i) == isa::OperandAccess::Write) {
      if (reads_[op.index] != 0) return false;  // the old value is used
    }
  }
  return true;
}

}  // namespace ptxsim::sim::timing
