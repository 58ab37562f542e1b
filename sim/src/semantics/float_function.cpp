// f32 approximate functions: sin, cos, lg2, ex2 (.approx{.ftz}) and
// tanh.approx.
//
// Each follows the sequence ptxas emits for sm_90 around the multi-function
// unit (float_mufu.h): the unit's own results from its tables as read on an
// H100, the scaling around it exact.

#include <cmath>

#include "float_arith_ops.h"
#include "float_families.h"
#include "float_ieee.h"
#include "float_mode.h"
#include "float_mufu.h"
#include "lane_ops.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// FMUL to nearest without .ftz.
float fmul(float a, float b) { return std::isnan(a * b) ? mufu::canonicalNaN() : a * b; }

// sin/cos: the angle in revolutions, x * 1/(2 pi) rounded toward zero
// (FMUL.RZ by 0x3e22f983), then MUFU.SIN/COS; the same code with .ftz.
float revolutions(float x) { return fp::mul(x, fp::fromBitsOf<float>(0x3e22f983u), fp::Round::Zero); }

struct Sin {
  static float apply(bool, float x) { return mufu::sin(revolutions(x)); }
};
struct Cos {
  static float apply(bool, float x) { return mufu::cos(revolutions(x)); }
};
// Without .ftz a subnormal operand is scaled by 2^24 and 24 subtracted.
struct Lg2 {
  static float apply(bool ftz, float x) {
    if (ftz || !(std::fabs(x) < 0x1p-126f)) return mufu::lg2(x);
    return AddOp::apply(mufu::lg2(fmul(x, 0x1p24f)), -24.0f, fp::Round::Nearest);
  }
};
// Without .ftz, below -126 the result is squared from half the exponent,
// so subnormal results survive MUFU's flush.
struct Ex2 {
  static float apply(bool ftz, float x) {
    if (ftz || !(x < -126.0f)) return mufu::ex2(x);
    float half = mufu::ex2(fmul(x, 0.5f));
    return fmul(half, half);
  }
};
struct Tanh {
  static float apply(bool, float x) { return mufu::tanh(x); }
};

template <typename Op>
void approxHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<float>(Op::apply(m.ftz, fromBits<float>(a[l]))); });
}

template <typename Op>
bool selectApprox(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  FloatMode m;
  m.ftz = inst.modifiers.has(Mod::Ftz);
  if (inst.types[0] != isa::DataType::F32 || inst.modifiers.get(ModGroup::Precision) != Mod::Approx ||
      (inst.modifiers.hasGroup(ModGroup::Ftz) && !m.ftz)) {
    why = "only the .approx{.ftz}.f32 form";
    return false;
  }
  pi.aux = m.pack();
  pi.handler = &approxHandler<Op>;
  return true;
}

}  // namespace

void registerFloatFunctionSemantics(SemanticsTable& table) {
  table.add(Opcode::Sin, TypeClass::Float, &selectApprox<Sin>);
  table.add(Opcode::Cos, TypeClass::Float, &selectApprox<Cos>);
  table.add(Opcode::Lg2, TypeClass::Float, &selectApprox<Lg2>);
  table.add(Opcode::Ex2, TypeClass::Float, &selectApprox<Ex2>);
  table.add(Opcode::Tanh, TypeClass::Float, &selectApprox<Tanh>);
}

}  // namespace ptxsim::sim::semantics
