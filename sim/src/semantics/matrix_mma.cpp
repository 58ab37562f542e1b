// mma.sync.aligned: one warp multiplies a matrix fragment held across its
// 32 lanes. Here: m16n8k16 and m16n8k8 with f16/bf16 inputs (tf32 for
// m16n8k8 and m16n8k4), m16n8k32, m16n8k16 and m8n8k16 with s8/u8 inputs,
// m16n8k32 and m16n8k16 with e4m3/e5m2 inputs and f32 or f16 accumulators
// (cuBLASLt's fp8 kernels use the first), and m8n8k4.f64. The sub-byte
// forms (s4/u4, b1) are matrix_mma_sub_byte.cpp's, m8n8k4 with f16 inputs
// matrix_mma_quad_pair.cpp's. Other shapes and types are refused when the
// module loads.
//
// The handler gathers A, B and C from every lane's registers (where each
// element lives: matrix_fragment.h), computes D and only then writes it,
// so D may name the registers of C. Floating-point products are added as
// the tensor core adds them (mma_numerics.h); integer forms are exact,
// wrapping modulo 2^32 or, with .satfinite, clamped to the s32 range;
// f64 is a chain of IEEE fused multiply-adds in k order starting from C.

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "half_value.h"
#include "matrix_fragment.h"
#include "matrix_mma_forms.h"
#include "mma_elements.h"
#include "mma_numerics.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

using mma::Elem;
using mma::bitsOf;
using mma::elemOf;
using mma::isFp8;
using mma::isInteger;
using mma::valueOf;

// The form of one mma, decided at prepare time and kept in pi.aux.
struct Plan {
  uint8_t m, n, k;
  Elem d, a, b, c;
  bool satfinite;
};
static_assert(sizeof(Plan) == 8);

constexpr unsigned kMaxM = 16, kMaxN = 8, kMaxK = 32;

using mma::registerRow;
using mma::registersOf;

uint64_t elementBits(uint64_t value, unsigned bits, unsigned element) {
  if (bits == 64) return value;
  return (value >> (element * bits)) & ((uint64_t{1} << bits) - 1);
}

// A's and B's elements per 32-bit register; f64 has one per register.
unsigned perRegister(Elem e) { return e == Elem::F64 ? 1 : 32 / bitsOf(e); }

// Elements of C/D per lane, and per register.
unsigned accumulatorsPerLane(const Plan& p) { return p.m * p.n / exec::kWarpSize; }
unsigned accumulatorsPerRegister(Elem e) { return e == Elem::F16 ? 2 : 1; }

// Calls visit(row, column, bits) for each element of A (row, k), B (k, col)
// and C (row, col), read from every lane's registers.
template <typename Visit>
void forEachA(ExecContext& ctx, const PreparedOperand& op, const Plan& p, Visit visit) {
  unsigned per = perRegister(p.a), bits = bitsOf(p.a);
  for (unsigned r = 0; r < registersOf(op); ++r) {
    const uint64_t* row = registerRow(ctx, op, r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::aCell(p.m, per, lane, r, e);
        visit(cell.row, cell.col, elementBits(row[lane], bits, e));
      }
    }
  }
}

template <typename Visit>
void forEachB(ExecContext& ctx, const PreparedOperand& op, const Plan& p, Visit visit) {
  unsigned per = perRegister(p.b), bits = bitsOf(p.b);
  for (unsigned r = 0; r < registersOf(op); ++r) {
    const uint64_t* row = registerRow(ctx, op, r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::bCell(per, lane, r, e);
        visit(cell.row, cell.col, elementBits(row[lane], bits, e));
      }
    }
  }
}

template <typename Visit>
void forEachC(ExecContext& ctx, const PreparedOperand& op, const Plan& p, Visit visit) {
  unsigned per = accumulatorsPerRegister(p.c), bits = bitsOf(p.c);
  for (unsigned i = 0; i < accumulatorsPerLane(p); ++i) {
    const uint64_t* row = registerRow(ctx, op, i / per);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      mma::Cell cell = mma::cCell(p.m, lane, i);
      visit(cell.row, cell.col, elementBits(row[lane], bits, i % per));
    }
  }
}

// The operands as the computation reads them, decoded once per
// instruction: A row by row (row K + k), B row by row of K (k N + col,
// mma_numerics.h DotColumns), C and D (row N + col). The fp8 forms' adder
// takes K in its steps' order (mma_numerics.h fp8StepOrder).
struct Tiles {
  uint32_t aBits[kMaxM * kMaxK], bBits[kMaxK * kMaxN], cBits[kMaxM * kMaxN];
  // floating point but f64
  float aSignificands[kMaxM * kMaxK], bSignificands[kMaxK * kMaxN];
  int32_t aExponents[kMaxM * kMaxK], bExponents[kMaxK * kMaxN];
  float cSignificands[kMaxM * kMaxN];
  int32_t cExponents[kMaxM * kMaxN];
  // s8/u8, B column by column (col K + k) for the integer dot products
  int16_t aIntegers[kMaxM * kMaxK], bIntegers[kMaxN * kMaxK];
  // f64 (m8n8k4), laid out as the integers
  double aF64[kMaxM * kMaxK], bF64[kMaxN * kMaxK], cF64[kMaxM * kMaxN];
  uint64_t d[kMaxM * kMaxN];  // result bits
};

void gatherF64(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  forEachA(ctx, pi.ops[1], p, [&](unsigned row, unsigned k, uint64_t v) { t.aF64[row * p.k + k] = valueOf(v, p.a); });
  forEachB(ctx, pi.ops[2], p, [&](unsigned k, unsigned col, uint64_t v) { t.bF64[col * p.k + k] = valueOf(v, p.b); });
  forEachC(ctx, pi.ops[3], p,
           [&](unsigned row, unsigned col, uint64_t v) { t.cF64[row * p.n + col] = valueOf(v, p.c); });
}

// The fragments of the M = 16 float forms (mma.sync's f16, bf16, tf32 and
// fp8 forms) with E elements per register known when compiled: the cells of
// matrix_fragment.h, as forEachA/B/C find them, a row group of 4 lanes at
// a time. fp8's K goes into the adder's step order (mma::fp8StepOrder).

// Calls visit(register, lane, e, bits) for element e of each register of
// `op`, with E elements of 32 / E bits a register.
template <unsigned E, typename Visit>
void forEachPacked(ExecContext& ctx, const PreparedOperand& op, Visit visit) {
  constexpr unsigned kBits = 32 / E;
  constexpr uint32_t kMask = kBits == 32 ? ~0u : (1u << kBits) - 1;
  for (unsigned r = 0; r < registersOf(op); ++r) {
    const uint64_t* row = registerRow(ctx, op, r);
    // As two loops (the row group, then the lane in it) the cells'
    // arithmetic folds into strides: f16 mma.sync at 1.49 G multiply-adds
    // a second, against 1.33 G with one loop over the lanes (measured).
    for (unsigned group = 0; group < 8; ++group) {
      for (unsigned t = 0; t < 4; ++t) {
        const unsigned lane = 4 * group + t;
        const auto v = static_cast<uint32_t>(row[lane]);
        for (unsigned e = 0; e < E; ++e) visit(r, lane, e, (v >> (e * kBits)) & kMask);
      }
    }
  }
}

// Where element i of K goes: in order, or fp8's step order.
template <bool StepOrder>
unsigned kOrder(unsigned i, unsigned k) {
  return StepOrder ? mma::fp8StepOrder(i, k) : i;
}

template <unsigned E, bool StepOrder>
void gatherPlainA(ExecContext& ctx, const PreparedOperand& op, unsigned k, uint32_t* out) {
  forEachPacked<E>(ctx, op, [&](unsigned r, unsigned lane, unsigned e, uint32_t bits) {
    const mma::Cell cell = mma::aCell(16, E, lane, r, e);
    out[cell.row * k + kOrder<StepOrder>(cell.col, k)] = bits;
  });
}

template <unsigned E, bool StepOrder>
void gatherPlainB(ExecContext& ctx, const PreparedOperand& op, unsigned k, unsigned n, uint32_t* out) {
  forEachPacked<E>(ctx, op, [&](unsigned r, unsigned lane, unsigned e, uint32_t bits) {
    const mma::Cell cell = mma::bCell(E, lane, r, e);
    out[kOrder<StepOrder>(cell.row, k) * n + cell.col] = bits;
  });
}

// Where accumulator i of `lane` lives in a 16 x 8 C or D.
unsigned accumulatorIndex(unsigned lane, unsigned i) {
  const mma::Cell cell = mma::cCell(16, lane, i);
  return cell.row * 8 + cell.col;
}

// C of the M = 16 forms: E = 1 (f32) or 2 (f16) per register.
template <unsigned E>
void gatherPlainC(ExecContext& ctx, const PreparedOperand& op, uint32_t* out) {
  forEachPacked<E>(ctx, op, [&](unsigned r, unsigned lane, unsigned e, uint32_t bits) {
    out[accumulatorIndex(lane, r * E + e)] = bits;
  });
}

// Whether gatherPlain* hold this form: M = 16 with floating-point inputs.
bool plainFloatForm(const Plan& p) { return p.m == 16 && !isInteger(p.a) && p.a != Elem::F64; }

void gather(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  if (p.a == Elem::F64) return gatherF64(pi, ctx, p, t);
  bool fp8 = isFp8(p.a);
  unsigned m = p.m, n = p.n, k = p.k;
  if (plainFloatForm(p)) {
    if (fp8) {
      gatherPlainA<4, true>(ctx, pi.ops[1], k, t.aBits);
      gatherPlainB<4, true>(ctx, pi.ops[2], k, n, t.bBits);
    } else if (p.a == Elem::TF32) {
      gatherPlainA<1, false>(ctx, pi.ops[1], k, t.aBits);
      gatherPlainB<1, false>(ctx, pi.ops[2], k, n, t.bBits);
    } else {
      gatherPlainA<2, false>(ctx, pi.ops[1], k, t.aBits);
      gatherPlainB<2, false>(ctx, pi.ops[2], k, n, t.bBits);
    }
    if (p.c == Elem::F16) {
      gatherPlainC<2>(ctx, pi.ops[3], t.cBits);
    } else {
      gatherPlainC<1>(ctx, pi.ops[3], t.cBits);
    }
  } else {
    forEachA(ctx, pi.ops[1], p, [&](unsigned row, unsigned i, uint64_t v) {
      t.aBits[row * k + (fp8 ? mma::fp8StepOrder(i, k) : i)] = static_cast<uint32_t>(v);
    });
    forEachB(ctx, pi.ops[2], p, [&](unsigned i, unsigned col, uint64_t v) {
      t.bBits[(fp8 ? mma::fp8StepOrder(i, k) : i) * n + col] = static_cast<uint32_t>(v);
    });
    forEachC(ctx, pi.ops[3], p,
             [&](unsigned row, unsigned col, uint64_t v) { t.cBits[row * n + col] = static_cast<uint32_t>(v); });
  }
  if (isInteger(p.a)) {
    mma::integersAll(p.a, t.aBits, m * k, t.aIntegers);
    int16_t b[kMaxK * kMaxN];
    mma::integersAll(p.b, t.bBits, k * n, b);
    for (unsigned i = 0; i < k; ++i)
      for (unsigned col = 0; col < n; ++col) t.bIntegers[col * k + i] = b[i * n + col];
    return;
  }
  mma::scaleAll(p.a, t.aBits, m * k, t.aSignificands, t.aExponents);
  mma::scaleAll(p.b, t.bBits, k * n, t.bSignificands, t.bExponents);
  mma::scaleAll(p.c, t.cBits, m * n, t.cSignificands, t.cExponents);
}

// s8/u8 products summed in int32 (at most 32 of 255 x 255), the
// accumulator added in int64 for .satfinite.
uint64_t integerResult(const Plan& p, const int16_t* a, const int16_t* b, int64_t c) {
  int32_t products = 0;
  for (unsigned k = 0; k < p.k; ++k) products += a[k] * b[k];
  int64_t sum = c + products;
  if (p.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(static_cast<uint64_t>(sum));
}

uint64_t f64Result(const Plan& p, const double* a, const double* b, double c) {
  double d = c;
  for (unsigned k = 0; k < p.k; ++k) d = std::fma(a[k], b[k], d);
  return std::bit_cast<uint64_t>(d);
}

// A row of D from an f16, bf16 or tf32 row of A: the tensor core's adder
// as wgmma's (mma_numerics.h wgmmaDot), fitted to mma_random's recording:
// one step of all K products; fp8 in the two steps of fp8DotF32 (f32
// accumulators) or fp8DotF16 (f16 ones, not yet recorded).
void floatRow(const Plan& p, Tiles& t, unsigned row) {
  static_assert(kMaxN <= mma::kMaxDotColumns && kMaxK <= mma::kMaxDotK);
  mma::DotOperand a{&t.aSignificands[row * p.k], &t.aExponents[row * p.k]};
  mma::DotColumns b{t.bSignificands, t.bExponents, p.n};
  uint32_t d[kMaxN];
  if (isFp8(p.a) && p.d == Elem::F16) {
    mma::fp8DotF16(a, b, p.k, &t.cBits[row * p.n], d);
  } else if (isFp8(p.a)) {
    mma::fp8DotF32(a, b, p.k, &t.cBits[row * p.n], d);
  } else {
    mma::DotOperand c{&t.cSignificands[row * p.n], &t.cExponents[row * p.n]};
    mma::wgmmaDot(mma::wgmmaDotModel(false, p.d == Elem::F16), a, b, p.k, c, d);
  }
  std::copy(d, d + p.n, &t.d[row * p.n]);
}

void compute(const Plan& p, Tiles& t) {
  for (unsigned row = 0; row < p.m; ++row) {
    if (!isInteger(p.a) && p.a != Elem::F64) {
      floatRow(p, t, row);
      continue;
    }
    for (unsigned col = 0; col < p.n; ++col) {
      unsigned i = row * p.n + col;
      t.d[i] = isInteger(p.a)
                   ? integerResult(p, &t.aIntegers[row * p.k], &t.bIntegers[col * p.k], static_cast<int32_t>(t.cBits[i]))
                   : f64Result(p, &t.aF64[row * p.k], &t.bF64[col * p.k], t.cF64[i]);
    }
  }
}

// D of the M = 16 forms, as gatherPlainC reads C.
template <unsigned E>
void scatterPlainD(ExecContext& ctx, const PreparedOperand& d, const uint64_t* tile) {
  constexpr unsigned kBits = 32 / E;
  for (unsigned r = 0; r < registersOf(d); ++r) {
    uint64_t* row = registerRow(ctx, d, r);
    for (unsigned group = 0; group < 8; ++group) {
      for (unsigned t = 0; t < 4; ++t) {
        const unsigned lane = 4 * group + t;
        uint64_t value = 0;
        for (unsigned e = 0; e < E; ++e) value |= tile[accumulatorIndex(lane, r * E + e)] << (e * kBits);
        row[lane] = value;
      }
    }
  }
}

void scatter(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, const Tiles& t) {
  const PreparedOperand& d = pi.ops[0];
  if (p.m == 16 && p.n == 8) {
    if (p.d == Elem::F16) {
      scatterPlainD<2>(ctx, d, t.d);
    } else {
      scatterPlainD<1>(ctx, d, t.d);
    }
    return;
  }
  unsigned per = accumulatorsPerRegister(p.d), bits = bitsOf(p.d);
  for (unsigned r = 0; r < registersOf(d); ++r) {
    uint64_t* row = ctx.row(d.elementCount != 0 ? ctx.vectorRows(d)[r] : d.row);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t value = 0;
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::cCell(p.m, lane, r * per + e);
        value |= t.d[cell.row * p.n + cell.col] << (e * bits);
      }
      row[lane] = value;
    }
  }
}

void mmaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "mma")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  Tiles t;
  gather(pi, ctx, p, t);
  compute(p, t);
  scatter(pi, ctx, p, t);
}

// Whether the shape takes these input types, and the accumulator types.
bool supportedForm(const Plan& p) {
  bool halfIn = p.a == Elem::F16 && p.b == Elem::F16;
  bool bf16In = p.a == Elem::BF16 && p.b == Elem::BF16;
  bool tf32In = p.a == Elem::TF32 && p.b == Elem::TF32;
  bool int8In = (p.a == Elem::S8 || p.a == Elem::U8) && (p.b == Elem::S8 || p.b == Elem::U8);
  bool fp8In = isFp8(p.a) && isFp8(p.b);
  bool halfAcc = (p.d == Elem::F16 || p.d == Elem::F32) && (p.c == Elem::F16 || p.c == Elem::F32);
  bool f32Acc = p.d == Elem::F32 && p.c == Elem::F32;
  // fp8: f16 or f32 accumulators, not mixed (ptxas: "Unexpected instruction types").
  bool fp8Acc = f32Acc || (p.d == Elem::F16 && p.c == Elem::F16);
  bool intAcc = p.d == Elem::S32 && p.c == Elem::S32;
  if (p.satfinite && !int8In) return false;
  if (p.m == 16 && p.n == 8) {
    switch (p.k) {
      case 4: return tf32In && f32Acc;
      case 8: return (halfIn && halfAcc) || ((bf16In || tf32In) && f32Acc);
      case 16: return (halfIn && halfAcc) || (bf16In && f32Acc) || (int8In && intAcc) || (fp8In && fp8Acc);
      case 32: return (int8In && intAcc) || (fp8In && fp8Acc);
      default: return false;
    }
  }
  if (p.m != 8 || p.n != 8) return false;
  if (p.k == 16) return int8In && intAcc;
  return p.k == 4 && p.a == Elem::F64 && p.b == Elem::F64 && p.c == Elem::F64 && p.d == Elem::F64;
}

bool selectMma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Plan p{};
  p.m = static_cast<uint8_t>(inst.shape.m);
  p.n = static_cast<uint8_t>(inst.shape.n);
  p.k = static_cast<uint8_t>(inst.shape.k);
  p.satfinite = inst.modifiers.has(Mod::Satfinite);
  if (inst.typeCount == 4 && mma::isSubByteForm(inst)) return selectMmaSubByte(inst, pi, why);
  if (inst.typeCount == 4 && mma::isQuadPairForm(inst)) return selectMmaQuadPair(inst, pi, why);
  if (inst.typeCount != 4 || !elemOf(inst.types[0], p.d) || !elemOf(inst.types[1], p.a) ||
      !elemOf(inst.types[2], p.b) || !elemOf(inst.types[3], p.c) || !supportedForm(p)) {
    why = "this mma shape and type combination";
    return false;
  }
  if (inst.modifiers.hasGroup(ModGroup::MatrixKind)) {
    why = "mma with .kind (sm_120's block-scaled forms)";
    return false;
  }
  if (inst.modifiers.get(ModGroup::Layout) != Mod::RowA ||
      inst.modifiers.get(ModGroup::LayoutB) != Mod::ColB) {
    why = "mma with layouts other than .row.col";
    return false;
  }
  unsigned aRegs = p.m * p.k / (exec::kWarpSize * perRegister(p.a));
  unsigned bRegs = p.k * p.n / (exec::kWarpSize * perRegister(p.b));
  unsigned accumulators = accumulatorsPerLane(p);
  if (registersOf(pi.ops[0]) != accumulators / accumulatorsPerRegister(p.d) ||
      registersOf(pi.ops[1]) != aRegs || registersOf(pi.ops[2]) != bRegs ||
      registersOf(pi.ops[3]) != accumulators / accumulatorsPerRegister(p.c)) {
    why = "mma operands with the wrong number of registers for the shape and types";
    return false;
  }
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = &mmaHandler;
  return true;
}

}  // namespace

void registerMatrixMmaSemantics(SemanticsTable& table) { table.add(Opcode::Mma, &selectMma); }

}  // namespace ptxsim::sim::semantics
