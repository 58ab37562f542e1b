// mma.sync.aligned.m8n8k4 with f16 inputs, the Volta-era form: the warp
// computes four independent 8x8x4 products, one per quad pair (lanes 4q..
// 4q+3, the "low group", with lanes 16+4q..16+4q+3, the "high group").
// With l = lane % 4 and h = 4 for the high group (0 for the low), the PTX
// ISA ("Matrix Fragments for mma.m8n8k4 with .f16 floating point type")
// places element i of each fragment:
//  - A .row: row l + h, column i; A .col: row i + h, column l (i < 4);
//  - B .row: row l, column i + h; B .col: row i, column l + h;
//  - C/D .f16: row l + h, column i (i < 8, two a register);
//  - C/D .f32: row (lane & 1) + (i & 2) + h, column (i & 4) + (lane & 2) +
//    (i & 1).
//
// Numerics: on sm_90 ptxas does not use the tensor core for this form; the
// cubin calls a subroutine of f16-to-f32 conversions, FFMA, FADD and a
// final F2FP for f16 results. Fitted to the H100
// (tests/cuda/programs/mma_more_forms.expected, every layout and C type):
// the four products are summed by an f32 fused multiply-add chain in k
// order, C is added to that sum with one f32 addition, each step rounded
// to nearest even, and an f16 D is that rounded to f16. (C first, then the
// chain, differs in the last bit in most rows.) f16 products are exact in
// f32.

#include <bit>
#include <cmath>

#include "matrix_mma_forms.h"
#include "mma_elements.h"
#include "mma_numerics.h"
#include "mma_term_by_term.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using mma::Elem;
using mma::registerRow;
using mma::registersOf;

constexpr unsigned kPairs = 4, kM = 8, kN = 8, kK = 4;
constexpr uint32_t kF32NaN = 0x7fffffff;

struct Plan {
  bool aColumnMajor, bColumnMajor, cF32, dF32;
};
static_assert(sizeof(Plan) <= 8);

struct Cell {
  unsigned pair, row, col;
};

unsigned pairOf(unsigned lane) { return (lane >> 2) & 3; }
unsigned highOf(unsigned lane) { return lane >= 16 ? 4 : 0; }

Cell aCell(bool columnMajor, unsigned lane, unsigned i) {
  unsigned l = lane & 3, h = highOf(lane);
  return columnMajor ? Cell{pairOf(lane), i + h, l} : Cell{pairOf(lane), l + h, i};
}

Cell bCell(bool columnMajor, unsigned lane, unsigned i) {
  unsigned l = lane & 3, h = highOf(lane);
  return columnMajor ? Cell{pairOf(lane), i, l + h} : Cell{pairOf(lane), l, i + h};
}

Cell cCell(bool f32, unsigned lane, unsigned i) {
  unsigned h = highOf(lane);
  if (!f32) return {pairOf(lane), (lane & 3) + h, i};
  return {pairOf(lane), (lane & 1) + (i & 2) + h, (i & 4) + (lane & 2) + (i & 1)};
}

// The four products' operands and accumulators, as f32 values.
struct Tiles {
  float a[kPairs][kM][kK], b[kPairs][kK][kN], c[kPairs][kM][kN];
  uint32_t d[kPairs][kM][kN];
};

float halfValue(uint64_t bits) { return static_cast<float>(mma::valueOf(bits & 0xffff, Elem::F16)); }

void gather(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  for (unsigned r = 0; r < 2; ++r) {
    const uint64_t* a = registerRow(ctx, pi.ops[1], r);
    const uint64_t* b = registerRow(ctx, pi.ops[2], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      for (unsigned e = 0; e < 2; ++e) {
        Cell ca = aCell(p.aColumnMajor, lane, 2 * r + e), cb = bCell(p.bColumnMajor, lane, 2 * r + e);
        t.a[ca.pair][ca.row][ca.col] = halfValue(a[lane] >> (16 * e));
        t.b[cb.pair][cb.row][cb.col] = halfValue(b[lane] >> (16 * e));
      }
    }
  }
  for (unsigned i = 0; i < 8; ++i) {
    const uint64_t* c = registerRow(ctx, pi.ops[3], p.cF32 ? i : i / 2);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      Cell cell = cCell(p.cF32, lane, i);
      t.c[cell.pair][cell.row][cell.col] =
          p.cF32 ? std::bit_cast<float>(static_cast<uint32_t>(c[lane])) : halfValue(c[lane] >> (16 * (i % 2)));
    }
  }
}

uint32_t result(const Plan& p, const Tiles& t, unsigned pair, unsigned row, unsigned col) {
  // The products' f32 fused multiply-add chain in k order (the first
  // product is exact), then C added once.
  float sum = t.a[pair][row][0] * t.b[pair][0][col];
  for (unsigned k = 1; k < kK; ++k) sum = std::fma(t.a[pair][row][k], t.b[pair][k][col], sum);
  float d = t.c[pair][row][col] + sum;
  if (!p.dF32) return mma::wgmmaResult(mma::wgmmaDotModel(false, true), d);  // f16, to nearest even
  return std::isnan(d) ? kF32NaN : std::bit_cast<uint32_t>(d);
}

void quadPairHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "mma")) return;
  auto p = std::bit_cast<Plan>(static_cast<uint32_t>(pi.aux));
  Tiles t;
  gather(pi, ctx, p, t);
  for (unsigned q = 0; q < kPairs; ++q)
    for (unsigned row = 0; row < kM; ++row)
      for (unsigned col = 0; col < kN; ++col) t.d[q][row][col] = result(p, t, q, row, col);
  // Written after every read: D may name C's registers.
  for (unsigned r = 0; r < registersOf(pi.ops[0]); ++r) {
    uint64_t* row = registerRow(ctx, pi.ops[0], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      if (p.dF32) {
        Cell cell = cCell(true, lane, r);
        row[lane] = t.d[cell.pair][cell.row][cell.col];
        continue;
      }
      Cell lo = cCell(false, lane, 2 * r), hi = cCell(false, lane, 2 * r + 1);
      row[lane] = t.d[lo.pair][lo.row][lo.col] | (uint64_t{t.d[hi.pair][hi.row][hi.col]} << 16);
    }
  }
}

}  // namespace

bool selectMmaQuadPair(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  Elem d, a, b, c;
  if (!mma::elemOf(inst.types[0], d) || !mma::elemOf(inst.types[1], a) || !mma::elemOf(inst.types[2], b) ||
      !mma::elemOf(inst.types[3], c) || a != Elem::F16 || b != Elem::F16 ||
      (c != Elem::F16 && c != Elem::F32) || (d != Elem::F16 && d != Elem::F32) ||
      (c == Elem::F32 && d == Elem::F16)) {
    // ptxas: ".dtype must be '.f32' when .ctype is '.f32'".
    why = "this mma.m8n8k4 type combination";
    return false;
  }
  if (inst.modifiers.has(Mod::Satfinite)) {
    why = "mma.m8n8k4 with .satfinite";
    return false;
  }
  Plan p{};
  p.aColumnMajor = inst.modifiers.get(ModGroup::Layout) == Mod::ColA;
  p.bColumnMajor = inst.modifiers.get(ModGroup::LayoutB) == Mod::ColB;
  p.cF32 = c == Elem::F32;
  p.dF32 = d == Elem::F32;
  if (registersOf(pi.ops[1]) != 2 || registersOf(pi.ops[2]) != 2 || registersOf(pi.ops[0]) != (p.dF32 ? 8u : 4u) ||
      registersOf(pi.ops[3]) != (p.cF32 ? 8u : 4u)) {
    why = "mma.m8n8k4 operands with the wrong number of registers";
    return false;
  }
  pi.aux = std::bit_cast<uint32_t>(p);
  pi.handler = &quadPairHandler;
  return true;
}

}  // namespace ptxsim::sim::semantics
