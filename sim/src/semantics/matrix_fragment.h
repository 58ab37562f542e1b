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
// m8n8k4.f64 holds one element of A (row groupID, column t) and of B (row
// t, column groupID) and two of C (row groupID, columns 2t and 2t + 1).

namespace ptxsim::sim::semantics::mma {

struct Cell {
  unsigned row, col;
};

inline Cell aCell(unsigned m, unsigned perRegister, unsigned lane, unsigned reg, unsigned element) {
  unsigned group = lane >> 2, t = lane & 3;
  if (m == 8) return {group, t};
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
