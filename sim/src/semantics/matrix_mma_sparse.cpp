// mma.sp.sync.aligned and mma.sp::ordered_metadata.sync.aligned: mma.sync
// with a 2:4 structured-sparse A (1:2 for tf32, pairs 4:8 for s4/u4). The
// forms are those ptxas 13.0 takes for sm_90: m16n8k16 and m16n8k32 with
// f16 inputs (f16 or f32 accumulators, not mixed) or bf16 (f32), m16n8k8
// and m16n8k16 tf32 (f32), m16n8k32 and m16n8k64 s8/u8, m16n8k64 and
// m16n8k128 s4/u4 (s32, .satfinite or wrapping), m16n8k64 e4m3/e5m2 (f32;
// ptxas refuses f16 accumulators for sm_90). Anything else is refused when
// the module loads.
//
// A arrives compressed (M x K/2, as a dense fragment of that width); the
// metadata expands it to a dense M x K matrix (mma_sparse_layout.h) with
// zeros elsewhere, and D is then computed as mma.sync computes a dense
// product: the tensor core's adder for f16/bf16/tf32 (one step of all K
// products, mma_numerics.h wgmmaDot), exact sums for the integer types.
// The structural zeros are real zeros of the product, so an infinity or
// NaN of B facing one gives NaN, as a dense multiply would; whether the
// H100 multiplies them or skips those rows of B is not recorded yet
// (tests/gpu_truth/pending/mma_sparse_forms.cu holds the case).
//
// fp8 (m16n8k64): sm_90 has no fp8 mma.sync unit, and ptxas builds the
// dense fp8 forms from two f16 tensor-core steps (mma_numerics.h
// fp8DotF32). The sparse form is taken to split the same way by A's
// register elements: each register's first chunk (4 positions along K)
// in the first step, its second chunk in the second, the order CUTLASS's
// sparse fp8 emulation uses. Not yet checked against the GPU.
//
// .ordered_metadata only narrows which metadata codes PTX defines; both
// spellings execute alike.

#include <algorithm>
#include <bit>

#include "matrix_fragment.h"
#include "matrix_mma_forms.h"
#include "mma_elements.h"
#include "mma_numerics.h"
#include "mma_sparse_layout.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using mma::Elem;
using mma::registerRow;
using mma::registersOf;

constexpr unsigned kM = 16, kN = 8, kMaxK = 128, kMaxFloatK = 64;

// The form, decided at prepare time and kept in pi.aux.
struct Plan {
  uint8_t k;  // dense K
  Elem d, a, b, c;
  bool satfinite;
  uint8_t selector;
  uint8_t unused = 0;
};
static_assert(sizeof(Plan) == 8);

// Bits of one A or B element (tf32 fills a register).
unsigned elementBits(Elem e) { return e == Elem::TF32 ? 32 : mma::bitsOf(e); }
unsigned perRegister(Elem e) { return 32 / elementBits(e); }
unsigned accumulatorsPerRegister(Elem e) { return e == Elem::F16 ? 2 : 1; }
constexpr unsigned kAccumulatorsPerLane = kM * kN / exec::kWarpSize;

uint32_t elementOf(uint64_t word, unsigned bits, unsigned e) {
  return bits == 32 ? static_cast<uint32_t>(word)
                    : static_cast<uint32_t>(word >> (e * bits)) & ((1u << bits) - 1);
}

struct Tiles {
  uint32_t stored[kM * kMaxK / 2], a[kM * kMaxK], b[kMaxK * kN],
      c[kM * kN];  // bits; A row K + k, B k N + col
  uint64_t d[kM * kN];
};

void gather(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  const unsigned bits = elementBits(p.a), per = perRegister(p.a), width = p.k / 2;
  for (unsigned r = 0; r < registersOf(pi.ops[1]); ++r) {
    const uint64_t* row = registerRow(ctx, pi.ops[1], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane)
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::aCell(kM, per, lane, r, e);
        t.stored[cell.row * width + cell.col] = elementOf(row[lane], bits, e);
      }
  }
  mma::SparseForm form{p.k, bits, p.selector};
  mma::expandSparseA(form, ctx.row(pi.ops[4].row), t.stored, t.a);
  for (unsigned r = 0; r < registersOf(pi.ops[2]); ++r) {
    const uint64_t* row = registerRow(ctx, pi.ops[2], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane)
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::bCell(per, lane, r, e);
        t.b[cell.row * kN + cell.col] = elementOf(row[lane], bits, e);
      }
  }
  const unsigned cPer = accumulatorsPerRegister(p.c), cBits = mma::bitsOf(p.c);
  for (unsigned i = 0; i < kAccumulatorsPerLane; ++i) {
    const uint64_t* row = registerRow(ctx, pi.ops[3], i / cPer);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      mma::Cell cell = mma::cCell(kM, lane, i);
      t.c[cell.row * kN + cell.col] = elementOf(row[lane], cBits, i % cPer);
    }
  }
}

int32_t integerOf(uint32_t bits, Elem e) {
  unsigned width = mma::bitsOf(e);
  bool isSigned = e == Elem::S8 || e == Elem::S4;
  return isSigned ? static_cast<int32_t>(bits << (32 - width)) >> (32 - width) : static_cast<int32_t>(bits);
}

// Exact: at most 64 products of 255 x 255, or 128 of 15 x 15, in int32;
// the accumulator added in int64 for .satfinite, else modulo 2^32.
void integerProduct(const Plan& p, Tiles& t) {
  for (unsigned row = 0; row < kM; ++row)
    for (unsigned col = 0; col < kN; ++col) {
      int32_t products = 0;
      for (unsigned k = 0; k < p.k; ++k)
        products += integerOf(t.a[row * p.k + k], p.a) * integerOf(t.b[k * kN + col], p.b);
      int64_t sum = static_cast<int64_t>(static_cast<int32_t>(t.c[row * kN + col])) + products;
      if (p.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
      t.d[row * kN + col] = static_cast<uint32_t>(static_cast<uint64_t>(sum));
    }
}

// Where dense position k goes for the fp8 steps: chunks of 4 alternate
// between the first step (the first K/2 places) and the second.
unsigned fp8SparseStepOrder(unsigned k, unsigned denseK) {
  return (k / 4) % 2 * (denseK / 2) + (k / 8) * 4 + k % 4;
}

void floatProduct(const Plan& p, Tiles& t) {
  static_assert(kN <= mma::kMaxDotColumns && kMaxFloatK <= mma::kMaxDotK);
  const bool fp8 = mma::isFp8(p.a);
  uint32_t aBits[kM * kMaxFloatK], bBits[kMaxFloatK * kN];
  for (unsigned k = 0; k < p.k; ++k) {
    unsigned to = fp8 ? fp8SparseStepOrder(k, p.k) : k;
    for (unsigned row = 0; row < kM; ++row) aBits[row * p.k + to] = t.a[row * p.k + k];
    for (unsigned col = 0; col < kN; ++col) bBits[to * kN + col] = t.b[k * kN + col];
  }
  float aSig[kM * kMaxFloatK], bSig[kMaxFloatK * kN], cSig[kM * kN];
  int32_t aExp[kM * kMaxFloatK], bExp[kMaxFloatK * kN], cExp[kM * kN];
  mma::scaleAll(p.a, aBits, kM * p.k, aSig, aExp);
  mma::scaleAll(p.b, bBits, p.k * kN, bSig, bExp);
  mma::scaleAll(p.c, t.c, kM * kN, cSig, cExp);
  mma::DotColumns b{bSig, bExp, kN};
  for (unsigned row = 0; row < kM; ++row) {
    mma::DotOperand a{&aSig[row * p.k], &aExp[row * p.k]};
    uint32_t d[kN];
    if (fp8) {
      mma::fp8DotF32(a, b, p.k, &t.c[row * kN], d);
    } else {
      mma::DotOperand c{&cSig[row * kN], &cExp[row * kN]};
      mma::wgmmaDot(mma::wgmmaDotModel(false, p.d == Elem::F16), a, b, p.k, c, d);
    }
    std::copy(d, d + kN, &t.d[row * kN]);
  }
}

void scatter(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, const Tiles& t) {
  const unsigned per = accumulatorsPerRegister(p.d), bits = mma::bitsOf(p.d);
  for (unsigned r = 0; r < registersOf(pi.ops[0]); ++r) {
    uint64_t* row = registerRow(ctx, pi.ops[0], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t value = 0;
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::cCell(kM, lane, r * per + e);
        value |= t.d[cell.row * kN + cell.col] << (e * bits);
      }
      row[lane] = value;
    }
  }
}

void sparseHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "mma.sp")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  Tiles t;
  gather(pi, ctx, p, t);
  if (mma::isInteger(p.a))
    integerProduct(p, t);
  else
    floatProduct(p, t);
  scatter(pi, ctx, p, t);  // after every read: D may name C's registers
}

// The dense K of the shapes ptxas takes for sm_90 with these types.
bool supportedForm(const Plan& p) {
  auto either = [](Elem e, Elem x, Elem y) { return e == x || e == y; };
  bool f32Acc = p.c == Elem::F32 && p.d == Elem::F32, s32Acc = p.c == Elem::S32 && p.d == Elem::S32;
  if (p.satfinite && !mma::isInteger(p.a)) return false;
  if (p.a == Elem::F16 && p.b == Elem::F16)
    return (p.k == 16 || p.k == 32) && (f32Acc || (p.c == Elem::F16 && p.d == Elem::F16));
  if (p.a == Elem::BF16 && p.b == Elem::BF16) return (p.k == 16 || p.k == 32) && f32Acc;
  if (p.a == Elem::TF32 && p.b == Elem::TF32) return (p.k == 8 || p.k == 16) && f32Acc;
  if (either(p.a, Elem::S8, Elem::U8) && either(p.b, Elem::S8, Elem::U8))
    return (p.k == 32 || p.k == 64) && s32Acc;
  if (either(p.a, Elem::S4, Elem::U4) && either(p.b, Elem::S4, Elem::U4))
    return (p.k == 64 || p.k == 128) && s32Acc;
  if (mma::isFp8(p.a) && mma::isFp8(p.b)) return p.k == 64 && f32Acc;
  return false;
}

std::string formName(const isa::Instruction& inst) {
  std::string name = "m16n8k" + std::to_string(inst.shape.k);
  for (unsigned i = 0; i < 4; ++i) name += isa::typeName(inst.types[i]);
  return name;
}

bool selectMmaSp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& context,
                 std::string& why) {
  Plan p{};
  bool typed = inst.typeCount == 4 && mma::elemOf(inst.types[0], p.d) && mma::elemOf(inst.types[1], p.a) &&
               mma::elemOf(inst.types[2], p.b) && mma::elemOf(inst.types[3], p.c);
  p.k = static_cast<uint8_t>(inst.shape.k);
  p.satfinite = inst.modifiers.has(Mod::Satfinite);
  if (!typed || inst.shape.m != kM || inst.shape.n != kN || inst.shape.k > kMaxK || !supportedForm(p)) {
    why = typed ? "mma.sp " + formName(inst) + (p.satfinite ? " with .satfinite" : "") +
                      " (not a form sm_90 has)"
                : "mma.sp with these types";
    return false;
  }
  if (inst.modifiers.hasGroup(ModGroup::MatrixKind)) {
    why = "mma.sp with .kind (sm_120's forms)";
    return false;
  }
  if (inst.modifiers.get(ModGroup::Layout) != Mod::RowA ||
      inst.modifiers.get(ModGroup::LayoutB) != Mod::ColB) {
    why = "mma.sp with layouts other than .row.col";
    return false;
  }
  const unsigned per = perRegister(p.a);
  if (inst.operandCount != 6 || registersOf(pi.ops[1]) != kM * p.k / 2 / (exec::kWarpSize * per) ||
      registersOf(pi.ops[2]) != p.k * kN / (exec::kWarpSize * per) ||
      registersOf(pi.ops[0]) != kAccumulatorsPerLane / accumulatorsPerRegister(p.d) ||
      registersOf(pi.ops[3]) != kAccumulatorsPerLane / accumulatorsPerRegister(p.c) ||
      pi.ops[4].elementCount != 0) {
    why = "mma.sp " + formName(inst) + " operands with the wrong number of registers";
    return false;
  }
  // The selector: an immediate naming one of the groups of lanes that hold
  // metadata. ptxas also takes 2 and 3 for m16n8k32 .f16, which PTX leaves
  // undefined; refused here rather than guessed.
  // The metadata is a register (ptxas refuses an immediate).
  if (context.function.operands[inst.firstOperand + 4].kind != isa::OperandKind::Register) {
    why = "mma.sp " + formName(inst) + " with metadata that is not a register";
    return false;
  }
  const isa::Operand& f = context.function.operands[inst.firstOperand + 5];
  unsigned groups = 4 / mma::sparseMetadataLanes(p.k, elementBits(p.a));
  if (f.kind != isa::OperandKind::Immediate || f.value < 0 || f.value >= static_cast<int64_t>(groups)) {
    why = "mma.sp " + formName(inst) + " needs a sparsity selector immediate from 0 to " +
          std::to_string(groups - 1);
    return false;
  }
  p.selector = static_cast<uint8_t>(f.value);
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = &sparseHandler;
  return true;
}

}  // namespace

void registerMatrixMmaSparseSemantics(SemanticsTable& table) { table.add(isa::Opcode::MmaSp, &selectMmaSp); }

}  // namespace ptxsim::sim::semantics
