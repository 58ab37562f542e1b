#pragma once

// Which lane holds which matrix element in mma's register fragments (PTX
// ISA, "Matrix Fragments for mma.m16n8k*" and "mma.m8n8k4 .f64"), for the
// shapes ptxsim executes. With groupID = lane / 4 and t = lane % 4 and E
// elements per 32-bit register:
//  - A (M x K, row-major), M = 16: register r holds row groupID + 8 (r & 1),
//    columns (r / 2) 4E + t E + e for its elements e;
//  - B (K x N, column-major): register r holds column groupID, rows
//    r 4E + t E + e;
//  - C and D (16 x 8): element i holds row groupID + 8 (i / 2), column
//    2t + (i & 1); f32/s32 keep one element per register, f16 two.
// M = 8 (m8n8k4.f64, m8n8k16 s8/u8, m8n8k32 s4/u4, m8n8k128 b1) holds one
// register of A (row groupID, columns t E + e) and of B (rows t E + e,
// column groupID) and two elements of C (row groupID, columns 2t and 2t +
// 1). The sub-byte forms of M = 16 (s4/u4 k32/k64, b1 k128/k256) follow the
// M = 16 rule with E = 8 or 32. m8n8k4 with f16 inputs is another layout
// altogether (matrix_mma_quad_pair.cpp).

namespace ptxsim::sim::semantics::mma {

struct Cell {
  unsigned row, col;
};

inline Cell aCell(unsigned m, unsigned perRegister, unsigned lane, unsigned reg, unsigned element) {
  unsigned group = lane >> 2, t = lane & 3;
  if (m == 8) return {group, t * perRegister + element};
  return {group + 8 * (reg & 1), (reg >> 1) * 4 * perRegister + t * perRegister + element};
}

inline Cell bCell(unsigned perRegister, unsigned lane, unsigned reg, unsigned element) {
  unsigned group = lane >> 2, t = lane & 3;
  return {reg * 4 * perRegister + t * perRegister + element, group};
}

// Element i (0..3 for M = 16, 0..1 for M = 8) of a lane's accumulator.
inline Cell cCell(unsigned m, unsigned lane, unsigned i) {
  unsigned group = lane >> 2, t = lane & 3;
  if (m == 8) return {group, 2 * t + i};
  return {group + 8 * (i >> 1), 2 * t + (i & 1)};
}

}  // namespace ptxsim::sim::semantics::mma
