// wmma.mma: D = A B + C on a warp's fragments, every shape and type of
// sm_90 (fragments: wmma_layout.h). The handler gathers A, B and C from
// every lane's registers (an f16 fragment's first copy of each element),
// computes D and only then writes it, so D may name the registers of C.
// The results are the H100's, fitted bit for bit to
// tests/cuda/programs/wmma_forms.expected:
//  - f16 and bf16 inputs: each element of D is one step of the tensor
//    core's adder for all 16 products and C, the model wgmma's results
//    were fitted with (mma::wgmmaDot: aligned to the largest raw exponent,
//    25 bits below it kept, the sum truncated to f32 or rounded to nearest
//    f16), as mma.sync's (mma_random);
//  - tf32 (m16n16k8): two such steps of 4 products each (as two m16n8k4
//    instructions would), the first's f32 result the second's accumulator; one
//    step of 8 (either model) misses in all 4 cases;
//  - f64 (m8n8k4): a chain of IEEE fused multiply-adds in k order from C;
//  - s8/u8 and s4/u4: exact, wrapping modulo 2^32 or, with .satfinite,
//    clamped to the s32 range;
//  - b1 (m8n8k128): C plus the population count of A XOR B or A AND B
//    along k (.xor.popc, .and.popc).
// The layouts .row/.col of A and B say how they were stored in memory; a
// fragment in registers is the same for both.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "mma_elements.h"
#include "mma_numerics.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "warp_aligned.h"
#include "wmma_layout.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using mma::Elem;
using wmma::Cell;
using wmma::Fragment;
using wmma::Part;

enum class Combine : uint8_t { Multiply, XorPopc, AndPopc };

// The form of one wmma.mma, decided at prepare time and kept in pi.aux;
// pi.aux2 is 1 for .satfinite.
struct Plan {
  wmma::Shape shape;
  Elem a, b, c, d;
  Combine combine;
};
static_assert(sizeof(Plan) == 8);

// M x K, K x N and M x N elements at most (b1's 8 x 128; 16 x 16).
constexpr unsigned kMaxInput = 1024, kMaxOutput = 256;

struct Tiles {
  double a[kMaxInput];                                // a[row K + k]
  double bt[kMaxInput];                               // B transposed: bt[col K + k]
  double c[kMaxOutput];                               // c[row N + col]
  // floating point (not f64): the same elements as the adder reads them,
  // B row by row (mma_numerics.h DotColumns)
  float aSignificands[kMaxInput], bSignificands[kMaxInput];  // [row K + k], [k N + col]
  int32_t aExponents[kMaxInput], bExponents[kMaxInput];
  float cSignificands[kMaxOutput];
  int32_t cExponents[kMaxOutput];
  uint64_t d[kMaxOutput];
};

Fragment fragmentOf(const Plan& p, Part part) {
  return {p.shape, part, part == Part::A ? p.a : part == Part::B ? p.b : p.c};
}

const uint64_t* registerRow(ExecContext& ctx, const PreparedOperand& op, unsigned r) {
  return ctx.row(op.elementCount != 0 ? ctx.vectorRows(op)[r] : op.row);
}

// Reads every distinct element of one fragment: `put` receives its cell
// and bits.
template <typename Put>
void gather(ExecContext& ctx, const PreparedOperand& op, const Fragment& f, Put put) {
  unsigned per = wmma::elementsPerRegister(f), bits = mma::bitsOf(f.elem);
  for (unsigned i = 0; i < wmma::distinctElements(f); ++i) {
    const uint64_t* row = registerRow(ctx, op, i / per);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t word =
          bits == 64 ? row[lane] : (row[lane] >> (bits * (i % per))) & ((uint64_t{1} << bits) - 1);
      put(wmma::cellOf(f, lane, i), word);
    }
  }
}

void gatherAll(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  unsigned k = p.shape.k, n = p.shape.n;
  if (mma::isInteger(p.a) || p.a == Elem::B1 || p.a == Elem::F64) {
    gather(ctx, pi.ops[1], fragmentOf(p, Part::A),
           [&](Cell c, uint64_t v) { t.a[c.row * k + c.col] = mma::valueOf(v, p.a); });
    gather(ctx, pi.ops[2], fragmentOf(p, Part::B),
           [&](Cell c, uint64_t v) { t.bt[c.col * k + c.row] = mma::valueOf(v, p.b); });
    gather(ctx, pi.ops[3], fragmentOf(p, Part::C),
           [&](Cell c, uint64_t v) { t.c[c.row * n + c.col] = mma::valueOf(v, p.c); });
    return;
  }
  gather(ctx, pi.ops[1], fragmentOf(p, Part::A), [&](Cell c, uint64_t v) {
    mma::Scaled s = mma::scaledOf(v, p.a);
    t.aSignificands[c.row * k + c.col] = s.significand;
    t.aExponents[c.row * k + c.col] = s.exponent;
  });
  gather(ctx, pi.ops[2], fragmentOf(p, Part::B), [&](Cell c, uint64_t v) {
    mma::Scaled s = mma::scaledOf(v, p.b);
    t.bSignificands[c.row * n + c.col] = s.significand;
    t.bExponents[c.row * n + c.col] = s.exponent;
  });
  gather(ctx, pi.ops[3], fragmentOf(p, Part::C), [&](Cell c, uint64_t v) {
    mma::Scaled s = mma::scaledOf(v, p.c);
    t.cSignificands[c.row * n + c.col] = s.significand;
    t.cExponents[c.row * n + c.col] = s.exponent;
  });
}

uint64_t integerResult(const Plan& p, bool satfinite, const double* a, const double* b, double c) {
  int64_t sum = static_cast<int64_t>(c);
  for (unsigned k = 0; k < p.shape.k; ++k) {
    auto x = static_cast<int64_t>(a[k]), y = static_cast<int64_t>(b[k]);
    switch (p.combine) {
      case Combine::Multiply: sum += x * y; break;
      case Combine::XorPopc: sum += x ^ y; break;
      case Combine::AndPopc: sum += x & y; break;
    }
  }
  if (satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(static_cast<uint64_t>(sum));
}

uint64_t f64Result(const Plan& p, const double* a, const double* b, double c) {
  double d = c;
  for (unsigned i = 0; i < p.shape.k; ++i) d = std::fma(a[i], b[i], d);
  return std::bit_cast<uint64_t>(d);
}

// A row of D from a row of A and B as the adder reads them. f16/bf16: one
// step of the adder for all 16 products; tf32: two steps of 4 (ptxas's
// m16n8k4 instructions), the first's f32 results the second's
// accumulators.
void floatRow(const Plan& p, Tiles& t, unsigned row) {
  unsigned k = p.shape.k, n = p.shape.n;
  unsigned step = p.a == Elem::TF32 ? 4 : k;
  float significands[kMaxOutput];
  int32_t exponents[kMaxOutput];
  mma::DotOperand c{&t.cSignificands[row * n], &t.cExponents[row * n]};
  uint32_t d[kMaxOutput];
  for (unsigned start = 0; start < k; start += step) {
    bool f16Result = p.d == Elem::F16 && start + step == k;
    if (start != 0) {
      mma::scaleAll(Elem::F32, d, n, significands, exponents);
      c = {significands, exponents};
    }
    mma::DotOperand a{&t.aSignificands[row * k + start], &t.aExponents[row * k + start]};
    mma::DotColumns b{&t.bSignificands[start * n], &t.bExponents[start * n], n};
    mma::wgmmaDot(mma::wgmmaDotModel(false, f16Result), a, b, step, c, d);
  }
  std::copy(d, d + n, &t.d[row * n]);
}

void compute(const Plan& p, bool satfinite, Tiles& t) {
  unsigned k = p.shape.k, n = p.shape.n;
  for (unsigned row = 0; row < p.shape.m; ++row) {
    if (!mma::isInteger(p.a) && p.a != Elem::B1 && p.a != Elem::F64) {
      floatRow(p, t, row);
      continue;
    }
    for (unsigned col = 0; col < n; ++col) {
      const double* a = &t.a[row * k];
      const double* b = &t.bt[col * k];
      double c = t.c[row * n + col];
      t.d[row * n + col] = p.a == Elem::F64 ? f64Result(p, a, b, c) : integerResult(p, satfinite, a, b, c);
    }
  }
}

void scatter(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, const Tiles& t) {
  const PreparedOperand& d = pi.ops[0];
  Fragment f{p.shape, Part::C, p.d};
  unsigned per = wmma::elementsPerRegister(f), bits = mma::bitsOf(p.d), n = p.shape.n;
  for (unsigned r = 0; r < wmma::registerCount(f); ++r) {
    uint64_t* row = ctx.row(d.elementCount != 0 ? ctx.vectorRows(d)[r] : d.row);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t value = 0;
      for (unsigned e = 0; e < per; ++e) {
        Cell cell = wmma::cellOf(f, lane, r * per + e);
        value |= t.d[cell.row * n + cell.col] << (e * bits);
      }
      row[lane] = value;
    }
  }
}

void mmaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.mma")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  Tiles t;
  gatherAll(pi, ctx, p, t);
  compute(p, pi.aux2 != 0, t);
  scatter(pi, ctx, p, t);
}

// Whether sm_90's wmma.mma has this combination of inputs and accumulators.
bool formExists(const Plan& p) {
  Fragment a = fragmentOf(p, Part::A), b = fragmentOf(p, Part::B), c = fragmentOf(p, Part::C);
  Fragment d{p.shape, Part::C, p.d};
  if (!wmma::fragmentExists(a) || !wmma::fragmentExists(b) || !wmma::fragmentExists(c) ||
      !wmma::fragmentExists(d)) {
    return false;
  }
  bool halfIn = p.a == Elem::F16 && p.b == Elem::F16;
  bool integerIn = mma::isInteger(p.a) && mma::isInteger(p.b);
  if (halfIn) return p.c != Elem::S32 && p.d != Elem::S32;
  if (integerIn || p.a == Elem::B1) return p.c == Elem::S32 && p.d == Elem::S32;
  // bf16, tf32, f64: one type throughout, f32 accumulators for the first two.
  return p.a == p.b &&
         (p.a == Elem::F64 ? p.c == Elem::F64 && p.d == Elem::F64 : p.c == Elem::F32 && p.d == Elem::F32);
}

unsigned registersOf(const PreparedOperand& op) { return op.elementCount != 0 ? op.elementCount : 1; }

// The types: d and c for f16 inputs (two types), else d, a, b, c.
bool readTypes(const isa::Instruction& inst, Plan& p) {
  if (inst.typeCount == 2) {
    p.a = p.b = Elem::F16;
    return mma::elemOf(inst.types[0], p.d) && mma::elemOf(inst.types[1], p.c);
  }
  return inst.typeCount == 4 && mma::elemOf(inst.types[0], p.d) && mma::elemOf(inst.types[1], p.a) &&
         mma::elemOf(inst.types[2], p.b) && mma::elemOf(inst.types[3], p.c);
}

bool selectMma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Plan p{};
  p.shape = {static_cast<uint8_t>(inst.shape.m), static_cast<uint8_t>(inst.shape.n),
             static_cast<uint8_t>(inst.shape.k)};
  if (!readTypes(inst, p) || !formExists(p)) {
    why = "this wmma.mma shape and type combination";
    return false;
  }
  Mod op = inst.modifiers.get(ModGroup::BoolOp);
  p.combine = op == Mod::BoolXor   ? Combine::XorPopc
              : op == Mod::BoolAnd ? Combine::AndPopc
                                   : Combine::Multiply;
  if ((p.a == Elem::B1) != (p.combine != Combine::Multiply)) {
    why = "wmma.mma on .b1 needs .xor.popc or .and.popc, and only .b1 takes them";
    return false;
  }
  bool satfinite = inst.modifiers.has(Mod::Satfinite);
  if (satfinite && !mma::isInteger(p.a)) {
    // PTX deprecates it for floating point; the H100's result is not measured.
    why = "wmma.mma .satfinite other than with s8/u8/s4/u4 inputs";
    return false;
  }
  Mod rounding = inst.modifiers.get(ModGroup::Rounding);
  if (rounding != Mod::None && rounding != Mod::Rn) {
    why = "wmma.mma .f64 with a rounding other than .rn";
    return false;
  }
  bool subByte = mma::bitsOf(p.a) < 8;
  if (subByte && (inst.modifiers.get(ModGroup::Layout) != Mod::RowA ||
                  inst.modifiers.get(ModGroup::LayoutB) != Mod::ColB)) {
    why = "sub-byte wmma.mma with layouts other than .row.col";
    return false;
  }
  Fragment d{p.shape, Part::C, p.d};
  if (registersOf(pi.ops[0]) != wmma::registerCount(d) ||
      registersOf(pi.ops[1]) != wmma::registerCount(fragmentOf(p, Part::A)) ||
      registersOf(pi.ops[2]) != wmma::registerCount(fragmentOf(p, Part::B)) ||
      registersOf(pi.ops[3]) != wmma::registerCount(fragmentOf(p, Part::C))) {
    why = "wmma.mma fragments with the wrong number of registers for the shape and types";
    return false;
  }
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.aux2 = satfinite ? 1 : 0;
  pi.handler = &mmaHandler;
  return true;
}

}  // namespace

void registerMatrixWmmaMmaSemantics(SemanticsTable& table) { table.add(Opcode::WmmaMma, &selectMma); }

}  // namespace ptxsim::sim::semantics
