#include "pipeline_of.h"

namespace ptxsim::sim::timing {

namespace {

bool isFloat(isa::DataType t) { return isa::typeKind(t) == isa::TypeKind::Float; }

}  // namespace

Pipeline pipelineOf(const isa::Instruction& inst) {
  using isa::UnitClass;
  switch (inst.unit) {
    case UnitClass::IntAlu: return Pipeline::Int;
    case UnitClass::IntMul:
      return inst.modifiers.has(isa::Mod::MulHi) && isa::typeBits(inst.types[0]) == 32 ? Pipeline::IntHigh
                                                                                       : Pipeline::Int;
    case UnitClass::Fp32: return Pipeline::Fp32;
    case UnitClass::Fp64: return Pipeline::Fp64;
    case UnitClass::Fp16: return Pipeline::Fp16;
    case UnitClass::Sfu: return Pipeline::Mufu;
    case UnitClass::Conversion:
      // A float-to-integer cvt runs on the multi-function unit (F2I: 17
      // cycles, tests/timing/calibration/h100/alu_latency.out); the rest
      // (I2F, F2F) on the conversion pipeline.
      if (inst.opcode == isa::Opcode::Cvt && inst.typeCount >= 2 && !isFloat(inst.types[0]) &&
          isFloat(inst.types[1])) {
        return Pipeline::Mufu;
      }
      return Pipeline::Conversion;
    case UnitClass::Memory:
    case UnitClass::Texture: return Pipeline::LoadStore;
    case UnitClass::Control:
    case UnitClass::Misc: return Pipeline::Branch;
    case UnitClass::Sync:
      switch (inst.opcode) {
        case isa::Opcode::Shfl: return Pipeline::Shuffle;
        case isa::Opcode::Vote:
        case isa::Opcode::Match:
        case isa::Opcode::Redux:
        case isa::Opcode::Activemask: return Pipeline::Vote;
        default: return Pipeline::Branch;
      }
    case UnitClass::Tensor:
      switch (inst.opcode) {
        // Ordering, not math (WARPGROUP.ARRIVE, WARPGROUP.DEPBAR): they
        // keep no tensor core busy.
        case isa::Opcode::WgmmaFence:
        case isa::Opcode::WgmmaCommitGroup:
        case isa::Opcode::WgmmaWaitGroup: return Pipeline::Branch;
        default: return Pipeline::Tensor;
      }
  }
  return Pipeline::Int;
}

bool vanishesInSass(const isa::Function& fn, const isa::Instruction& inst) {
  if (inst.guard.reg != isa::kNone || inst.operandCount != 2) return false;
  const isa::Operand& source = fn.operands[inst.firstOperand + 1];
  switch (inst.opcode) {
    case isa::Opcode::Mov: {
      if (source.kind == isa::OperandKind::Special) {
        // The block and grid sizes are constant-bank operands in SASS
        // (c[0x0][0x0..0x14]); the thread's and block's indices need S2R.
        const auto which = static_cast<isa::SpecialRegister>(source.index);
        return which == isa::SpecialRegister::Ntid || which == isa::SpecialRegister::Nctaid;
      }
      return source.kind == isa::OperandKind::Register || source.kind == isa::OperandKind::Immediate ||
             source.kind == isa::OperandKind::FloatImmediate;
    }
    case isa::Opcode::Cvta:
      // Generic addresses of global memory are the global ones on sm_90:
      // ptxas emits nothing for cvta.to.global.
      return inst.modifiers.has(isa::Mod::To) &&
             inst.modifiers.get(isa::ModGroup::Space) == isa::Mod::Global &&
             source.kind == isa::OperandKind::Register;
    case isa::Opcode::Ld:
      // A kernel's parameters are constant-bank operands of the
      // instructions that use them, a device function's are registers of
      // its calling convention: no instruction of their own.
      switch (inst.modifiers.get(isa::ModGroup::Space)) {
        case isa::Mod::Param:
        case isa::Mod::ParamEntry:
        case isa::Mod::ParamFunc: break;
        default: return false;
      }
      return source.kind == isa::OperandKind::Address && source.scope != isa::SymbolScope::Register;
    case isa::Opcode::Cvt:
      return inst.typeCount >= 2 && !isFloat(inst.types[0]) && !isFloat(inst.types[1]) &&
             isa::typeBits(inst.types[0]) == isa::typeBits(inst.types[1]) &&
             !inst.modifiers.has(isa::Mod::Sat) && source.kind == isa::OperandKind::Register;
    default: return false;
  }
}

SassAround sassAround(const isa::Instruction& inst) {
  if (inst.typeCount < 1 || inst.types[0] != isa::DataType::F32 || !inst.modifiers.has(isa::Mod::Approx)) return {};
  const bool ftz = inst.modifiers.has(isa::Mod::Ftz);
  switch (inst.opcode) {
    case isa::Opcode::Rsqrt:
    case isa::Opcode::Sqrt:
    case isa::Opcode::Lg2: return ftz ? SassAround{} : SassAround{3, MufuForm::Scaled};
    case isa::Opcode::Rcp: return ftz ? SassAround{} : SassAround{6, MufuForm::Scaled};
    case isa::Opcode::Sin:
    case isa::Opcode::Cos: return {1, MufuForm::Reduced};
    default: return {};
  }
}

}  // namespace ptxsim::sim::timing
