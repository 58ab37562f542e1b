// f32 and f64 sign, selection and classification: abs, neg, copysign,
// min, max (.NaN, .xorsign.abs, .ftz, a third source), testp.
//
// abs and neg change the sign bit of numbers; .ftz first reads a subnormal
// as a zero of its sign. A NaN operand gives the NaN an arithmetic
// instruction gives (measured on an H100 by float_absneg.cu): the
// canonical 0x7fffffff for f32, with or without .ftz; for f64 the operand
// quieted, its sign and payload kept (neg.f64 of 0x7ff0000000000001 is
// 0x7ff8000000000001). copysign only moves the sign bit, NaNs included.

#include <cmath>

#include "float_families.h"
#include "float_ieee.h"
#include "float_mode.h"
#include "lane_ops.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// abs (kNeg false) and neg.
template <typename T, bool kNeg>
void signHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) {
    T x = m.in(fromBits<T>(a[l]));
    if (std::isnan(x)) {
      d[l] = toBits<T>(fp::nanResult<T>({x}));
      return;
    }
    auto bits = fp::bitsOf(x);
    d[l] = toBits<T>(fp::fromBitsOf<T>(kNeg ? bits ^ fp::signMask<T>() : bits & ~fp::signMask<T>()));
  });
}

// copysign d, a, b: b's magnitude with a's sign.
template <typename T>
void copysignHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    auto sign = fp::bitsOf(fromBits<T>(a[l])) & fp::signMask<T>();
    auto magnitude = fp::bitsOf(fromBits<T>(b[l])) & ~fp::signMask<T>();
    d[l] = toBits<T>(fp::fromBitsOf<T>(sign | magnitude));
  });
}

// min/max modes in pi.aux: FloatMode bits, then these.
constexpr uint64_t kPropagateNaN = 16;
constexpr uint64_t kXorSignAbs = 32;

// Two values, NaN ignored unless both are (then the NaN the arithmetic
// would write: f32 canonical, f64 the second, as DSETP.MIN/MAX and a select
// on sm_90 give); -0 is below +0.
template <bool kMax, typename T>
T pick(T a, T b) {
  if (std::isnan(a)) return std::isnan(b) ? fp::nanResult<T>({b, a}) : b;
  if (std::isnan(b)) return a;
  if (a == b) return (fp::signOf(a) != kMax) ? a : b;  // equal zeros: the one of the right sign
  return (a > b) == kMax ? a : b;
}

template <bool kMax, typename T>
void minMaxHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  bool propagate = (pi.aux & kPropagateNaN) != 0;
  bool xorSign = (pi.aux & kXorSignAbs) != 0;
  unsigned sources = pi.operandCount - 1u;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* s[3] = {ctx.row(pi.ops[1].row), ctx.row(pi.ops[2].row),
                          sources == 3 ? ctx.row(pi.ops[3].row) : nullptr};
  forLanes(ctx.mask, [&](unsigned l) {
    T result{};
    bool anyNaN = false;
    bool negative = false;
    for (unsigned i = 0; i < sources; ++i) {
      T x = m.in(fromBits<T>(s[i][l]));
      anyNaN = anyNaN || std::isnan(x);
      negative = negative != fp::signOf(x);
      if (xorSign) x = std::fabs(x);
      result = i == 0 ? x : pick<kMax>(result, x);
    }
    if (std::isnan(result) || (propagate && anyNaN)) {
      result = fp::nanResult<T>({result});
    } else if (xorSign) {
      result = negative ? -result : result;
    }
    d[l] = toBits<T>(result);
  });
}

// testp.op p, a.
template <typename T>
void testpHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto op = static_cast<Mod>(pi.aux);
  uint64_t* p = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) {
    T x = fromBits<T>(a[l]);
    bool r = false;
    switch (op) {
      case Mod::Finite: r = std::isfinite(x); break;
      case Mod::Infinite: r = std::isinf(x); break;
      case Mod::Number: r = !std::isnan(x); break;
      case Mod::Notanumber: r = std::isnan(x); break;
      // Zero counts as normal: testp.normal.f32 of +0 and -0 is true on an
      // H100 (tests/cuda/semantics/float_misc.cu).
      case Mod::Normal: r = std::isfinite(x) && !fp::isSubnormal(x); break;
      case Mod::Subnormal: r = fp::isSubnormal(x); break;
      default: break;
    }
    p[l] = r ? 1 : 0;
  });
}

bool ftzOnly(const isa::Instruction& inst, FloatMode& m, std::string& why) {
  m.ftz = inst.modifiers.has(Mod::Ftz);
  if (inst.modifiers.hasGroup(ModGroup::Ftz) && !m.ftz) {
    why = ".noftz";
    return false;
  }
  return true;
}

template <bool kNeg>
bool selectSign(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  FloatMode m;
  if (!ftzOnly(inst, m, why)) return false;
  pi.aux = m.pack();
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &signHandler<T, kNeg>; }) ||
         (why = "this type", false);
}

bool selectCopysign(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &copysignHandler<T>; }) ||
         (why = "this type", false);
}

template <bool kMax>
bool selectMinMax(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  FloatMode m;
  if (!ftzOnly(inst, m, why)) return false;
  bool xorSign = inst.modifiers.hasGroup(ModGroup::XorSign);
  if (xorSign != inst.modifiers.hasGroup(ModGroup::AbsMode)) {
    why = ".xorsign without .abs or .abs without .xorsign";
    return false;
  }
  if (inst.modifiers.hasGroup(ModGroup::Relu)) {
    why = ".relu on f32/f64";
    return false;
  }
  pi.aux = m.pack() | (inst.modifiers.hasGroup(ModGroup::NaNMode) ? kPropagateNaN : 0) |
           (xorSign ? kXorSignAbs : 0);
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &minMaxHandler<kMax, T>; }) ||
         (why = "this type", false);
}

bool selectTestp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod op = inst.modifiers.get(ModGroup::TestProperty);
  if (op == Mod::None) {
    why = "testp without a property";
    return false;
  }
  pi.aux = static_cast<uint64_t>(op);
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &testpHandler<T>; }) ||
         (why = "this type", false);
}

}  // namespace

void registerFloatMiscSemantics(SemanticsTable& table) {
  table.add(Opcode::Abs, TypeClass::Float, &selectSign<false>);
  table.add(Opcode::Neg, TypeClass::Float, &selectSign<true>);
  table.add(Opcode::Copysign, TypeClass::Float, &selectCopysign);
  table.add(Opcode::Min, TypeClass::Float, &selectMinMax<false>);
  table.add(Opcode::Max, TypeClass::Float, &selectMinMax<true>);
  table.add(Opcode::Testp, TypeClass::Float, &selectTestp);
}

}  // namespace ptxsim::sim::semantics
