#pragma once

// mma.sync's forms kept out of matrix_mma.cpp, each in a file of its own
// because its fragments or its arithmetic differ: the sub-byte integer
// forms (s4/u4 and b1, matrix_mma_sub_byte.cpp) and m8n8k4 with f16 inputs
// (matrix_mma_quad_pair.cpp). selectMma hands them over; the helpers below
// are the operands' register rows, shared by all three.

#include <string>

#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace mma {

// Whether an mma's A type is s4, u4 or b1.
inline bool isSubByteForm(const isa::Instruction& inst) {
  using isa::DataType;
  DataType a = inst.types[1];
  return a == DataType::S4 || a == DataType::U4 || a == DataType::B1;
}

// Whether an mma is m8n8k4 with f16 inputs (the four quad-pair products).
inline bool isQuadPairForm(const isa::Instruction& inst) {
  return inst.shape.m == 8 && inst.shape.n == 8 && inst.shape.k == 4 && inst.types[1] == isa::DataType::F16;
}

// A vector operand's register count (1 for a scalar).
inline unsigned registersOf(const PreparedOperand& op) { return op.elementCount != 0 ? op.elementCount : 1; }

// Register r of an operand, one value per lane.
inline uint64_t* registerRow(ExecContext& ctx, const PreparedOperand& op, unsigned r) {
  return ctx.row(op.elementCount != 0 ? ctx.vectorRows(op)[r] : op.row);
}

}  // namespace mma

bool selectMmaSubByte(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why);
bool selectMmaQuadPair(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why);

}  // namespace ptxsim::sim::semantics
