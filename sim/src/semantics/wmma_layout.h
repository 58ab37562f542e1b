#pragma once

// Where wmma keeps each matrix element in a warp's registers. PTX leaves
// the fragments' layout to the GPU; these are the H100's, read from
// tests/cuda/programs/wmma_forms.expected (its "layout" lines load
// matrices whose elements hold their own numbers and print every lane's
// registers). With g = lane / 4 and t = lane % 4, element i of a lane's
// fragment (register i / E, element i % E of it, E elements per register):
//
// f16/bf16 A and B (E = 2; r = i / 2, h = i % 2), as mma.sync m16n8k16's
// fragments side by side (m8n32k16 as m32n8k16 of the transposes):
//  - m16n16k16, m32n8k16 A: row g + 8 (r & 1) + 16 (r / 4),
//    column 8 ((r / 2) & 1) + 2t + h;  m8n32k16 A: row g, column 2t + h + 8r;
//  - m16n16k16, m32n8k16 B: row 2t + h + 8 (r & 1), column g + 8 (r / 2);
//    m8n32k16 B: row 2t + h + 8 ((r / 2) & 1), column g + 8 (r & 1) + 16 (r / 4).
//  An f16 A or B fragment always has 8 registers: past the distinct
//  elements (M K / 32 or K N / 32 of them) the registers repeat the first
//  ones (twice for m16n16k16, four times for m32n8k16's B and m8n32k16's A);
//  bf16 fragments hold each element once.
// s8/u8 A and B (E = 4; r = i / 4, e = i % 4): A row g + 8r, column 4t + e;
//  B row 4t + e, column g + 8r (measured for m16n16k16 only).
// tf32 (m16n16k8, E = 1): A row g + 8 (i & 1), column t + 4 (i / 2);
//  B row t + 4 (i & 1), column g + 8 (i / 2).
// C and D (E = 1, or 2 for f16), whatever the input type:
//  - m16n16k16, m16n16k8: row g + 8 ((i / 2) & 1), column 2t + (i & 1) + 8 (i / 4);
//  - m32n8k16: row g + 8 (i / 2), column 2t + (i & 1);
//  - m8n32k16: row 2t + (i & 1), column g + 8 (i / 2).
// m8n8 shapes (f64 k4: 64-bit registers; s4/u4 k32: E = 8; b1 k128:
// E = 32), as mma.sync m8n8k*: A row g, column t K/4 + i; B row t K/4 + i,
// column g; C and D row g, column 2t + i.
//
// The 8-bit layouts of m32n8k16 and m8n32k16 and the s4/u4/b1 layouts are
// not measured (the recording stops before them); they follow the
// measured pattern of the other shapes and mma.sync's layouts.

#include <cstdint>

#include "mma_elements.h"

namespace ptxsim::sim::semantics::wmma {

enum class Part : uint8_t { A, B, C };  // C stands for D too

struct Shape {
  uint8_t m, n, k;
};

struct Cell {
  unsigned row, col;
};

// One fragment: the matrix shape, which of its matrices, its element type.
struct Fragment {
  Shape shape;
  Part part;
  mma::Elem elem;
};

// Whether sm_90's wmma has this fragment (shape, part and type).
bool fragmentExists(const Fragment& f);

unsigned rowsOf(const Fragment& f);
unsigned colsOf(const Fragment& f);
// Elements per register: f64 registers are 64 bits wide, others 32.
unsigned elementsPerRegister(const Fragment& f);
// Registers of the PTX fragment (vector operand).
unsigned registerCount(const Fragment& f);
// Distinct elements a lane holds: rows x columns / 32.
unsigned distinctElements(const Fragment& f);

// Where element i (below registerCount x elementsPerRegister) of `lane`'s
// fragment lives in the matrix; elements past the distinct ones repeat.
Cell cellOf(const Fragment& f, unsigned lane, unsigned i);

}  // namespace ptxsim::sim::semantics::wmma
