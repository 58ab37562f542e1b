// f16/bf16 arithmetic: add, sub, mul, fma (.rn; .ftz and .sat for f16,
// .relu and .oob for fma; bf16 fma also .rz/.rm/.rp, as sm_90 compiles
// them), neg, abs, min, max (.NaN, .xorsign.abs), and ex2.approx /
// tanh.approx. Each result is the exact value rounded once, but for ex2
// and tanh, which are the H100's own.

#include <cmath>
#include <cstring>

#include "float_ieee.h"
#include "float_mode.h"
#include "half.h"
#include "half_value.h"
#include "lane_ops.h"
#include "mufu_table.h"

namespace ptxsim::sim::semantics {

namespace {

using half::Mode;
using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

Mode modeOf(const PreparedInstruction& pi) {
  Mode m;
  std::memcpy(static_cast<void*>(&m), &pi.aux, sizeof m);
  return m;
}

// Applies f to each element of a packed value (element 0 in the low bits),
// or to the one element of a scalar.
template <typename F>
inline uint64_t perElement(const Mode& m, F&& f) {
  if (!m.packed) return f(0u) & 0xffff;
  return (f(0u) & 0xffff) | ((f(16u) & 0xffff) << 16);
}

// The f16/bf16 OOB NaN that tensor loads write for out-of-bounds elements.
inline constexpr uint64_t kOobNaN = 0x7fff;

struct AddOp {
  static uint64_t apply(const Mode& m, uint64_t a, uint64_t b) {
    return half::finish(m, sf::exactSum(half::toDouble(a, m), half::toDouble(b, m)));
  }
};
struct SubOp {
  static uint64_t apply(const Mode& m, uint64_t a, uint64_t b) {
    return half::finish(m, sf::exactSum(half::toDouble(a, m), -half::toDouble(b, m)));
  }
};
// The product of two f16 (22 significant bits) or bf16 (16 bits) values is
// exact in a double.
struct MulOp {
  static uint64_t apply(const Mode& m, uint64_t a, uint64_t b) {
    return half::finish(m, sf::fromDouble(half::toDouble(a, m) * half::toDouble(b, m)));
  }
};
struct FmaOp {
  static uint64_t apply(const Mode& m, uint64_t a, uint64_t b, uint64_t c) {
    if (m.oob && (a == kOobNaN || b == kOobNaN || c == kOobNaN)) return 0;
    return half::finish(m, sf::exactSum(half::toDouble(a, m) * half::toDouble(b, m), half::toDouble(c, m)));
  }
};

// fma.rz/.rm/.rp.bf16 (scalar) as ptxas 13.0 compiles it for sm_90: as f16
// arithmetic. The operands are read as f16 (HADD2.F32), FFMA.RZ/RM/RP
// forms a*b + c in f32 in the requested direction, and F2FP.F16.F32 rounds
// that to f16 to nearest; .relu and .oob are dropped. fma.rm.bf16 of
// 0x3f80, 0x3f80, 0 is 0x4308 (1.875^2 in f16) on an H100, and every
// conformance record of the 12 forms agrees. The direction is in pi.aux2.
struct FmaBf16DirectedOp {
  static uint64_t apply(const Mode&, fp::Round round, uint64_t a, uint64_t b, uint64_t c) {
    const Mode f16;
    auto asF32 = [&](uint64_t bits) { return static_cast<float>(half::toDouble(bits, f16)); };
    float r = fp::fma(asF32(a), asF32(b), asF32(c), round);
    return sf::encode(sf::decode(fp::bitsOf(r), sf::kF32), sf::kF16, sf::EncodeOptions{});
  }
};

// neg and abs change the sign bit; a NaN operand gives the canonical NaN
// (measured on the H100).
struct NegOp {
  static uint64_t apply(const Mode& m, uint64_t a) {
    return half::isNaNBits(a, m) ? half::formatOf(m).nan : half::flushed(a, m) ^ 0x8000;
  }
};
struct AbsOp {
  static uint64_t apply(const Mode& m, uint64_t a) {
    return half::isNaNBits(a, m) ? half::formatOf(m).nan : half::flushed(a, m) & 0x7fff;
  }
};

// min/max: -0 orders below +0; one NaN operand gives the other (unless
// .NaN), two give the canonical NaN. .xorsign.abs compares magnitudes and
// gives the result the exclusive-or of the operands' signs.
template <bool kMax>
struct MinMaxOp {
  static uint64_t apply(const Mode& m, uint64_t a, uint64_t b) {
    const uint64_t nan = half::formatOf(m).nan;
    a = half::flushed(a, m);
    b = half::flushed(b, m);
    uint64_t sign = m.xorsign ? (a ^ b) & 0x8000 : 0;
    if (m.xorsign) {
      a &= 0x7fff;
      b &= 0x7fff;
    }
    bool aNaN = half::isNaNBits(a, m);
    bool bNaN = half::isNaNBits(b, m);
    if (aNaN || bNaN) {
      if (m.nanMode || (aNaN && bNaN)) return nan;
      return (aNaN ? b : a) | sign;
    }
    double x = half::toDouble(a, m);
    double y = half::toDouble(b, m);
    bool pickA;
    if (x == y) {
      // Equal values differ only in the sign of zero.
      bool aNegative = (a & 0x8000) != 0;
      pickA = kMax ? !aNegative : aNegative;
    } else {
      pickA = kMax ? x > y : x < y;
    }
    return (pickA ? a : b) | sign;
  }
};

// ex2.approx and tanh.approx: MUFU.EX2.F16/BF16 and MUFU.TANH.F16/BF16,
// whose every result was read on an H100 (65536 inputs each; each half of
// an x2 operand is looked up alone, checked on 2^26 pairs:
// tests/gpu_truth/probes/mufu_explore_probe.cu). ex2.approx.f16 agrees
// with the exact value rounded toward zero for only 90% of inputs.
struct Ex2Op {
  static uint64_t apply(const Mode& m, uint64_t a) {
    return mufu::entry(m.bf16 ? mufu::TableId::Ex2Bf16 : mufu::TableId::Ex2F16, static_cast<uint32_t>(a));
  }
};
struct TanhOp {
  static uint64_t apply(const Mode& m, uint64_t a) {
    return mufu::entry(m.bf16 ? mufu::TableId::TanhBf16 : mufu::TableId::TanhF16, static_cast<uint32_t>(a));
  }
};

template <typename Op>
void unaryHalf(const PreparedInstruction& pi, ExecContext& ctx) {
  const Mode m = modeOf(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = perElement(m, [&](unsigned s) { return Op::apply(m, (a[l] >> s) & 0xffff); });
  });
}

template <typename Op>
void binaryHalf(const PreparedInstruction& pi, ExecContext& ctx) {
  const Mode m = modeOf(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = perElement(m, [&](unsigned s) { return Op::apply(m, (a[l] >> s) & 0xffff, (b[l] >> s) & 0xffff); });
  });
}

// kNegatable: fma with its product or its addend negated (pi.aux2 bit 0 /
// bit 1), a sub that ptxas fused with the mul feeding it
// (isa/contraction.h). Negating an operand flips each element's sign bit.
template <typename Op, bool kNegatable = false>
void ternaryHalf(const PreparedInstruction& pi, ExecContext& ctx) {
  const Mode m = modeOf(pi);
  const uint64_t signA = kNegatable && (pi.aux2 & 1) != 0 ? 0x80008000u : 0;
  const uint64_t signC = kNegatable && (pi.aux2 & 2) != 0 ? 0x80008000u : 0;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = perElement(m, [&](unsigned s) {
      return Op::apply(m, ((a[l] ^ signA) >> s) & 0xffff, (b[l] >> s) & 0xffff, ((c[l] ^ signC) >> s) & 0xffff);
    });
  });
}

void fmaBf16Directed(const PreparedInstruction& pi, ExecContext& ctx) {
  const Mode m = modeOf(pi);
  const auto round = static_cast<fp::Round>(pi.aux2);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask,
           [&](unsigned l) { d[l] = FmaBf16DirectedOp::apply(m, round, a[l], b[l], c[l]) & 0xffff; });
}

// Which modifiers an instruction may carry beyond its type; the selector
// refuses the rest so nothing is silently ignored.
struct Allowed {
  bool ftz = false, sat = false, relu = false, oob = false, minmax = false, approx = false;
  bool directed = false;  // .rz/.rm/.rp, which the caller handles
};

bool prepare(const isa::Instruction& inst, PreparedInstruction& pi, Allowed allowed, std::string& why) {
  DataType t = inst.types[0];
  Mode m;
  m.bf16 = t == DataType::BF16 || t == DataType::BF16x2;
  m.packed = t == DataType::F16x2 || t == DataType::BF16x2;
  Mod rounding = inst.modifiers.get(ModGroup::Rounding);
  if (rounding != Mod::None && rounding != Mod::Rn && !allowed.directed) {
    why = "half-precision arithmetic rounds only .rn";
    return false;
  }
  m.ftz = inst.modifiers.has(Mod::Ftz);
  m.sat = inst.modifiers.has(Mod::Sat);
  m.relu = inst.modifiers.has(Mod::Relu);
  m.oob = inst.modifiers.get(ModGroup::Boundary) == Mod::Oob;
  m.nanMode = inst.modifiers.has(Mod::NaN);
  m.xorsign = inst.modifiers.has(Mod::Xorsign);
  bool approx = inst.modifiers.has(Mod::Approx);
  if ((m.ftz && !allowed.ftz) || (m.sat && !allowed.sat) || (m.relu && !allowed.relu) ||
      (m.oob && !allowed.oob) || ((m.nanMode || m.xorsign) && !allowed.minmax) ||
      (inst.modifiers.hasGroup(ModGroup::Boundary) && !m.oob) || (allowed.approx && !approx) ||
      inst.modifiers.has(Mod::Satfinite)) {
    why = "this modifier combination";
    return false;
  }
  if (m.xorsign != inst.modifiers.has(Mod::AbsMod)) {
    why = ".xorsign and .abs go together";
    return false;
  }
  if (m.sat && m.relu) {
    why = ".sat and .relu together";
    return false;
  }
  std::memcpy(&pi.aux, &m, sizeof m);
  return true;
}

static_assert(sizeof(Mode) <= sizeof(uint64_t));

bool isBf16(const isa::Instruction& inst) {
  return inst.types[0] == DataType::BF16 || inst.types[0] == DataType::BF16x2;
}

template <typename Op, unsigned kSources>
bool selectArith(const isa::Instruction& inst, PreparedInstruction& pi, [[maybe_unused]] SelectContext& sc,
                 std::string& why) {
  Allowed allowed;
  allowed.ftz = allowed.sat = !isBf16(inst);
  if (kSources == 3) {
    allowed.relu = allowed.oob = true;
    // fma.oob.sat.f16 runs as HFMA2.OOB.SAT: both apply.
    if (inst.modifiers.has(Mod::Oob) && inst.modifiers.has(Mod::Ftz)) {
      why = "fma.oob takes only .relu or .sat";
      return false;
    }
    allowed.directed = isBf16(inst);
  }
  if (!prepare(inst, pi, allowed, why)) return false;
  if constexpr (kSources == 2) pi.handler = &binaryHalf<Op>;
  if constexpr (kSources == 3) {
    pi.handler = &ternaryHalf<Op>;
    fp::Round round = fp::Round::Nearest;
    roundingOf(inst.modifiers.get(ModGroup::Rounding), round);
    // fma.rz/rm/rp.bf16x2 compiles to the very SASS of fma.rn.bf16x2
    // (HFMA2.BF16_V2 has no rounding field): the modifier is ignored. The
    // scalar form is f16 arithmetic (FmaBf16DirectedOp).
    if (round != fp::Round::Nearest && inst.types[0] == DataType::BF16) {
      pi.aux2 = static_cast<uint64_t>(round);
      pi.handler = &fmaBf16Directed;
    }
    const isa::Operand* ops = &sc.function.operands[inst.firstOperand];
    bool negateProduct = ops[1].minus != ops[2].minus;
    if (negateProduct || ops[3].minus) {
      pi.aux2 = (negateProduct ? 1u : 0u) | (ops[3].minus ? 2u : 0u);
      pi.handler = &ternaryHalf<FmaOp, true>;
    }
  }
  return true;
}

template <typename Op>
bool selectSign(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Allowed allowed;
  allowed.ftz = !isBf16(inst);
  if (!prepare(inst, pi, allowed, why)) return false;
  pi.handler = &unaryHalf<Op>;
  return true;
}

template <bool kMax>
bool selectMinMax(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.operandCount != 3) {
    why = "three-source min/max is an f32 form";
    return false;
  }
  Allowed allowed;
  allowed.ftz = !isBf16(inst);
  allowed.minmax = true;
  if (!prepare(inst, pi, allowed, why)) return false;
  pi.handler = &binaryHalf<MinMaxOp<kMax>>;
  return true;
}

bool selectEx2(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  // ex2.approx.f16/f16x2 (no .ftz) and ex2.approx.ftz.bf16/bf16x2.
  Allowed allowed;
  allowed.approx = true;
  allowed.ftz = isBf16(inst);
  if (isBf16(inst) && !inst.modifiers.has(Mod::Ftz)) {
    why = "ex2.approx on bf16 is spelled ex2.approx.ftz";
    return false;
  }
  if (!prepare(inst, pi, allowed, why)) return false;
  pi.handler = &unaryHalf<Ex2Op>;
  return true;
}

bool selectTanh(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Allowed allowed;
  allowed.approx = true;
  if (!prepare(inst, pi, allowed, why)) return false;
  pi.handler = &unaryHalf<TanhOp>;
  return true;
}

}  // namespace

void registerHalfArithmetic(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::Half, &selectArith<AddOp, 2>);
  table.add(Opcode::Sub, TypeClass::Half, &selectArith<SubOp, 2>);
  table.add(Opcode::Mul, TypeClass::Half, &selectArith<MulOp, 2>);
  table.add(Opcode::Fma, TypeClass::Half, &selectArith<FmaOp, 3>);
  table.add(Opcode::Neg, TypeClass::Half, &selectSign<NegOp>);
  table.add(Opcode::Abs, TypeClass::Half, &selectSign<AbsOp>);
  table.add(Opcode::Min, TypeClass::Half, &selectMinMax<false>);
  table.add(Opcode::Max, TypeClass::Half, &selectMinMax<true>);
  table.add(Opcode::Ex2, TypeClass::Half, &selectEx2);
  table.add(Opcode::Tanh, TypeClass::Half, &selectTanh);
}

}  // namespace ptxsim::sim::semantics
