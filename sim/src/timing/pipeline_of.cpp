#include "pipeline_of.h"

namespace ptxsim::sim::timing {

namespace {

bool isFloat(isa::DataType t) { return isa::typeKind(t) == isa::TypeKind::Float; }

}  // namespace

Pipeline pipelineOf(const isa::Instruction& inst) {
  using isa::UnitClass;
  switch (inst.unit) {
    case UnitClass::IntAlu:
    case UnitClass::IntMul: return Pipeline::Int;
    case UnitClass::Fp32: return Pipeline::Fp32;
    case UnitClass::Fp64: return Pipeline::Fp64;
    case UnitClass::Fp16: return Pipeline::Fp16;
    case UnitClass::Sfu: return Pipeline::Mufu;
    case UnitClass::Conversion:
      // A float-to-integer cvt runs on the multi-function unit (F2I: 17
      // cycles, tests/timing/calibration/h100/alu_latency.out); the rest
      // (I2F, F2F) on the conversion pipeline.
      if (inst.opcode == isa::Opcode::Cvt && inst.typeCount >= 2 && !isFloat(inst.types[0]) && isFloat(inst.types[1])) {
        return Pipeline::Mufu;
      }
      return Pipeline::Conversion;
    case UnitClass::Memory:
    case UnitClass::Texture: return Pipeline::LoadStore;
    case UnitClass::Control:
    case UnitClass::Misc: return Pipeline::Branch;
    case UnitClass::Sync: return inst.opcode == isa::Opcode::Shfl ? Pipeline::Shuffle : Pipeline::Branch;
    case UnitClass::Tensor: return Pipeline::Tensor;
  }
  return Pipeline::Int;
}

}  // namespace ptxsim::sim::timing
