// wgmma.mma_async's accumulators: the instruction table leaves wgmma's
// operands unchecked ("x": their count depends on the shape), but ptxas
// checks the accumulator vector's registers against D's type (ptxas 13.0,
// sm_90a, every declared type tried): f32 results in .f32 or .b32
// registers, pairs of f16 in .f16x2 or .b32, s32 in .s32, .u32 or .b32.
// Anything else is "Arguments mismatch" (the calibration probe wgmma.cu
// once held f16 results in .f32 registers: the GPU's driver refused the
// module, the simulator ran it).

#include "../strict/rule_words.h"
#include "function_lowerer.h"

namespace ptxsim::isa::lowering {

namespace {

bool holdsAccumulator(DataType result, DataType declared) {
  if (declared == DataType::B32) return true;
  switch (result) {
    case DataType::F32: return declared == DataType::F32;
    case DataType::F16: return declared == DataType::F16x2;
    case DataType::S32: return declared == DataType::S32 || declared == DataType::U32;
    default: return true;  // no other D type: the table refuses the form
  }
}

}  // namespace

bool FunctionLowerer::checkWgmmaAccumulators(const Instruction& inst) {
  if (inst.opcode != Opcode::WgmmaMmaAsync && inst.opcode != Opcode::WgmmaMmaAsyncSp) return true;
  const Function& fn = function();
  const Operand& d = fn.operands[inst.firstOperand];
  if (d.kind != OperandKind::Vector || inst.typeCount == 0) return true;  // the semantics name what is wrong
  for (uint16_t e = 0; e < d.count; ++e) {
    const Operand& element = fn.operands[d.index + e];
    if (element.kind == OperandKind::Register && !holdsAccumulator(inst.types[0], fn.registers[element.index].type))
      return fail(inst.where, strict::argumentsMismatch("wgmma.mma_async"));
  }
  return true;
}

}  // namespace ptxsim::isa::lowering
