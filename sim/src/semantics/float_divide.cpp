// f32 and f64 division, reciprocal and roots: div, rcp, sqrt (IEEE rounded
// .rn/.rz/.rm/.rp, or .approx/.full), rsqrt.approx.
//
// The approximations follow the instruction sequences ptxas emits for
// sm_90 around the multi-function unit, modelled in float_mufu.h.

#include "float_arith_ops.h"
#include "float_families.h"
#include "float_mode.h"
#include "float_mufu.h"
#include "lane_ops.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// One FMUL as the sequences below use it: to nearest, .ftz or not.
float fmul(float a, float b, bool ftz) {
  FloatMode m;
  m.ftz = ftz;
  a = m.in(a);
  b = m.in(b);
  return m.out(MulOp::apply(a, b, fp::Round::Nearest), [&] { return MulOp::apply(a, b, fp::Round::Zero); });
}

// |x| >= 2^-126 or NaN (FSETP.GEU), the test the non-.ftz sequences use to
// scale subnormal operands up by 2^24 before MUFU flushes them.
bool notSubnormal(float x) { return !(std::fabs(x) < 0x1p-126f); }
bool above2To126(float x) { return std::fabs(x) > 0x1p126f; }

struct DivExact {
  template <typename T>
  static T apply(const FloatMode& m, T a, T b) {
    a = m.in(a);
    b = m.in(b);
    return m.out(DivOp::apply(a, b, m.round), [&] { return DivOp::apply(a, b, fp::Round::Zero); });
  }
};

// div.approx.f32: a * rcp(b). The ISA's rule for 2^126 < |b| (zero, or NaN
// for an infinite a) is MUFU.RCP flushing its subnormal result.
struct DivApprox {
  static float apply(const FloatMode& m, float a, float b) {
    if (m.ftz) return fmul(a, mufu::rcp(b), true);
    if (!notSubnormal(b)) {
      a = fmul(a, 0x1p24f, false);
      b = fmul(b, 0x1p24f, false);
    }
    return fmul(mufu::rcp(b), a, false);
  }
};

// div.full.f32 (at most 2 ulp over the whole range): both operands scaled
// by 1/4 when 2^126 < |b| (and by 2^24 when b is subnormal, without .ftz),
// then a * rcp(b).
struct DivFull {
  static float apply(const FloatMode& m, float a, float b) {
    if (above2To126(b)) {
      a = fmul(a, 0.25f, m.ftz);
      b = fmul(b, 0.25f, m.ftz);
    }
    if (!m.ftz && !notSubnormal(b)) {
      a = fmul(a, 0x1p24f, false);
      b = fmul(b, 0x1p24f, false);
    }
    return fmul(mufu::rcp(b), a, m.ftz);
  }
};

struct RcpExact {
  template <typename T>
  static T apply(const FloatMode& m, T a) {
    a = m.in(a);
    return m.out(DivOp::apply(T(1), a, m.round), [&] { return DivOp::apply(T(1), a, fp::Round::Zero); });
  }
};

// rcp.approx.f32: MUFU.RCP, the non-.ftz form scaling the operand into its
// range and the result back: s = 2^24 for subnormals, 1/4 above 2^126.
struct RcpApprox {
  static float apply(const FloatMode& m, float a) {
    if (m.ftz) return mufu::rcp(a);
    float s = notSubnormal(a) ? 1.0f : 0x1p24f;
    if (above2To126(a)) s = 0.25f;
    return fmul(s, mufu::rcp(fmul(a, s, false)), false);
  }
};

struct RcpApproxF64 {
  static double apply(const FloatMode&, double a) { return mufu::rcp64h(a); }
};

struct SqrtExact {
  template <typename T>
  static T apply(const FloatMode& m, T a) {
    return m.out(SqrtOp::apply(m.in(a), m.round));
  }
};

// sqrt.approx.f32 / rsqrt.approx.f32: MUFU.SQRT / MUFU.RSQ; without .ftz a
// subnormal operand is scaled by 2^24 and the result by 2^-12 / 2^12.
struct SqrtApprox {
  static float apply(const FloatMode& m, float a) {
    if (m.ftz || notSubnormal(a)) return mufu::sqrt(a);
    return fmul(mufu::sqrt(fmul(a, 0x1p24f, false)), 0x1p-12f, false);
  }
};

struct RsqrtApprox {
  static float apply(const FloatMode& m, float a) {
    if (m.ftz || notSubnormal(a)) return mufu::rsqrt(a);
    return fmul(mufu::rsqrt(fmul(a, 0x1p24f, false)), 0x1p12f, false);
  }
};

// 1/sqrt(a) to nearest for a in [1, 4): of the double estimate and its
// neighbours, the one whose residual 1 - a*r*r (in double-double) is least.
double nearestRsqrtScaled(double a) {
  double r0 = 1.0 / std::sqrt(a);
  double best = r0;
  double bestResidual = INFINITY;
  for (double r : {std::nextafter(r0, 0.0), r0, std::nextafter(r0, INFINITY)}) {
    double hi = r * r;
    double lo = std::fma(r, r, -hi);
    double residual = std::fabs(std::fma(-a, hi, 1.0) - a * lo);
    if (residual < bestResidual) {
      best = r;
      bestResidual = residual;
    }
  }
  return best;
}

// Any positive finite a, first scaled by an even power of two into [1, 4),
// which scales the result exactly and keeps r*r clear of subnormals.
double nearestRsqrt(double a) {
  int e;
  std::frexp(a, &e);
  int k = (e - 1) & ~1;
  return std::ldexp(nearestRsqrtScaled(std::ldexp(a, -k)), -k / 2);
}

// rsqrt.approx.ftz.f64 is MUFU.RSQ64H alone; rsqrt.approx.f64 refines it
// with one double-precision step, as sm_90 compiles it: e = 1 - a y0^2,
// y0 + (3/8 e + 1/2) (y0 e). Operands whose upper word is out of the normal
// positive range take a called routine instead, modelled as the correctly
// rounded 1/sqrt (what an H100 gave on the cases of float_approx2.cu).
struct RsqrtApproxF64 {
  static double apply(const FloatMode& m, double a) {
    if (m.ftz) return mufu::rsq64h(a);
    const uint32_t upper = static_cast<uint32_t>(fp::bitsOf(a) >> 32);
    if (upper - 0x00100000u < 0x7fe00000u) {  // ISETP.GE.U32 of upper - 2^20 against 0x7fe00000
      const double y0 = mufu::rsq64h(a);
      const double e = std::fma(a, -(y0 * y0), 1.0);
      return std::fma(std::fma(e, 0.375, 0.5), y0 * e, y0);
    }
    if (std::isnan(a) || a < 0) return fp::nanResult<double>({a});
    if (a == 0) return fp::infinity<double>(fp::signOf(a));
    if (std::isinf(a)) return 0.0;
    return nearestRsqrt(a);
  }
};

template <typename T, typename Op>
void unaryMode(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(Op::apply(m, fromBits<T>(a[l]))); });
}

template <typename T, typename Op>
void binaryMode(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask,
           [&](unsigned l) { d[l] = toBits<T>(Op::apply(m, fromBits<T>(a[l]), fromBits<T>(b[l]))); });
}

// The three forms of div/rcp/sqrt: IEEE rounded (.rnd), .approx, .full.
enum class Form { Rounded, Approx, Full };

bool formOf(const isa::Instruction& inst, Form& form, FloatMode& m, std::string& why) {
  Mod r = inst.modifiers.get(ModGroup::Rounding);
  Mod p = inst.modifiers.get(ModGroup::Precision);
  m.ftz = inst.modifiers.has(Mod::Ftz);
  if (inst.modifiers.hasGroup(ModGroup::Ftz) && !m.ftz) {
    why = ".noftz";
    return false;
  }
  // ptxas for sm_90 accepts .acc::f16/.acc::f32 (multimem's accumulation
  // precision) beside a rounding modifier on div, rcp and sqrt, and ignores
  // it: div.acc::f16.rn.f32 compiles to exactly the SASS of div.rn.f32, and
  // likewise for every such form (H100 conformance suite).
  if (p == Mod::AccF16 || p == Mod::AccF32) p = r != Mod::None ? Mod::None : p;
  if (r != Mod::None && p != Mod::None) {
    why = "both a rounding modifier and .approx/.full";
    return false;
  }
  if (r != Mod::None) {
    if (!roundingOf(r, m.round)) {
      why = "rounding modifier other than .rn .rz .rm .rp";
      return false;
    }
    form = Form::Rounded;
    return true;
  }
  if (p == Mod::Approx || p == Mod::Full) {
    form = p == Mod::Approx ? Form::Approx : Form::Full;
    return true;
  }
  why = "a rounding modifier or .approx/.full is required";
  return false;
}

bool isF32(const isa::Instruction& inst) { return inst.types[0] == isa::DataType::F32; }
bool isF64(const isa::Instruction& inst) { return inst.types[0] == isa::DataType::F64; }

bool selectDiv(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  FloatMode m;
  if (!formOf(inst, form, m, why)) return false;
  pi.aux = m.pack();
  if (isF32(inst)) {
    if (form == Form::Approx) pi.handler = &binaryMode<float, DivApprox>;
    if (form == Form::Full) pi.handler = &binaryMode<float, DivFull>;
    if (form == Form::Rounded) pi.handler = &binaryMode<float, DivExact>;
  } else if (isF64(inst) && form == Form::Rounded && !m.ftz) {
    pi.handler = &binaryMode<double, DivExact>;
  }
  if (pi.handler == nullptr) why = "this form of div";
  return pi.handler != nullptr;
}

bool selectRcp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  FloatMode m;
  if (!formOf(inst, form, m, why)) return false;
  pi.aux = m.pack();
  if (isF32(inst)) {
    if (form == Form::Approx) pi.handler = &unaryMode<float, RcpApprox>;
    if (form == Form::Rounded) pi.handler = &unaryMode<float, RcpExact>;
  } else if (isF64(inst)) {
    if (form == Form::Approx && m.ftz) pi.handler = &unaryMode<double, RcpApproxF64>;
    if (form == Form::Rounded) {
      // ptxas accepts rcp.rnd.ftz.f64 and ignores the .ftz: it compiles to
      // the SASS of rcp.rnd.f64, so subnormals are neither read nor written
      // as zero.
      m.ftz = false;
      pi.aux = m.pack();
      pi.handler = &unaryMode<double, RcpExact>;
    }
  }
  if (pi.handler == nullptr) why = "this form of rcp (f64 approximation only as rcp.approx.ftz.f64)";
  return pi.handler != nullptr;
}

bool selectSqrt(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  FloatMode m;
  if (!formOf(inst, form, m, why)) return false;
  pi.aux = m.pack();
  if (isF32(inst)) {
    if (form == Form::Approx) pi.handler = &unaryMode<float, SqrtApprox>;
    if (form == Form::Rounded) pi.handler = &unaryMode<float, SqrtExact>;
  } else if (isF64(inst) && form == Form::Rounded && !m.ftz) {
    pi.handler = &unaryMode<double, SqrtExact>;
  }
  if (pi.handler == nullptr) why = "this form of sqrt";
  return pi.handler != nullptr;
}

bool selectRsqrt(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  FloatMode m;
  m.ftz = inst.modifiers.has(Mod::Ftz);
  if (inst.modifiers.get(ModGroup::Precision) != Mod::Approx ||
      (inst.modifiers.hasGroup(ModGroup::Ftz) && !m.ftz)) {
    why = "rsqrt other than .approx{.ftz}";
    return false;
  }
  pi.aux = m.pack();
  pi.handler = isF32(inst) ? &unaryMode<float, RsqrtApprox> : &unaryMode<double, RsqrtApproxF64>;
  return true;
}

}  // namespace

void registerFloatDivideSemantics(SemanticsTable& table) {
  table.add(Opcode::Div, TypeClass::Float, &selectDiv);
  table.add(Opcode::Rcp, TypeClass::Float, &selectRcp);
  table.add(Opcode::Sqrt, TypeClass::Float, &selectSqrt);
  table.add(Opcode::Rsqrt, TypeClass::Float, &selectRsqrt);
}

}  // namespace ptxsim::sim::semantics
