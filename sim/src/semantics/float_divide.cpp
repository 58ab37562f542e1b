// f32 and f64 division, reciprocal and roots: div, rcp, sqrt (IEEE rounded
// .rn/.rz/.rm/.rp, or .approx/.full), rsqrt.approx.
//
// The approximations return a correctly rounded (or, for the f64 ones,
// nearly so) value wherever the PTX ISA bounds the error, which is within
// every documented bound; the hardware's MUFU tables are not public, so
// where they differ from the correctly rounded value the bits differ from a
// GPU's (measured on an H100: MUFU.RCP equals the correctly rounded
// reciprocal for about 87% of inputs, MUFU.RSQ for 78%, MUFU.SQRT for 83%).
// What is reproduced exactly is the structure the ISA describes: special
// values, .ftz, div.approx as a * rcp.approx(b) with its 2^126 < |b| rule,
// and rcp.approx.ftz.f64 working on the upper 32 bits of its operand.

#include "float_arith_ops.h"
#include "float_families.h"
#include "float_mode.h"
#include "lane_ops.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// 1/x as rcp.approx.f32 computes it (after .ftz on the input).
float rcpApprox(float x) {
  if (std::isnan(x)) return fp::nanResult<float>({x});
  return DivOp::apply(1.0f, x, fp::Round::Nearest);
}

struct DivExact {
  template <typename T>
  static T apply(const FloatMode& m, T a, T b) {
    return m.out(DivOp::apply(m.in(a), m.in(b), m.round));
  }
};

// div.approx.f32: a * (1/b), and for 2^126 < |b| < 2^128 zero, or NaN when
// a is infinite (the reciprocal underflows; ISA "div").
struct DivApprox {
  static float apply(const FloatMode& m, float a, float b) {
    a = m.in(a);
    b = m.in(b);
    float r = std::fabs(b) > 0x1p126f && !std::isinf(b) ? fp::signedZero<float>(fp::signOf(b)) : rcpApprox(b);
    return m.out(MulOp::apply(a, m.out(r), fp::Round::Nearest));
  }
};

// div.full.f32: at most 2 ulp over the full range; this returns the
// correctly rounded quotient.
struct DivFull {
  static float apply(const FloatMode& m, float a, float b) {
    return m.out(DivOp::apply(m.in(a), m.in(b), fp::Round::Nearest));
  }
};

struct RcpExact {
  template <typename T>
  static T apply(const FloatMode& m, T a) {
    return m.out(DivOp::apply(T(1), m.in(a), m.round));
  }
};
struct RcpApprox {
  static float apply(const FloatMode& m, float a) { return m.out(rcpApprox(m.in(a))); }
};

// rcp.approx.ftz.f64: the reciprocal of the operand's upper 32 bits (sign,
// exponent, 20 fraction bits) to 20 fraction bits, lower 32 bits zero;
// subnormal inputs and results flush to zero. A NaN gives 0x7fffffff00000000
// (measured on an H100).
struct RcpApproxF64 {
  static double apply(const FloatMode&, double a) {
    if (std::isnan(a)) return fp::fromBitsOf<double>(0x7fffffff00000000ull);
    a = fp::flush(a);
    if (a == 0) return fp::infinity<double>(fp::signOf(a));
    if (std::isinf(a)) return fp::signedZero<double>(fp::signOf(a));
    double upper = fp::fromBitsOf<double>(fp::bitsOf(a) & 0xffffffff00000000ull);
    uint64_t r = fp::bitsOf(1.0 / upper);
    r = (r + 0x80000000ull) & 0xffffffff00000000ull;  // to nearest at bit 32 (ties away)
    return fp::flush(fp::fromBitsOf<double>(r));
  }
};

struct SqrtExact {
  template <typename T>
  static T apply(const FloatMode& m, T a) {
    return m.out(SqrtOp::apply(m.in(a), m.round));
  }
};

// 1/sqrt(a), rounded from a double computation (a double's two roundings
// stay far inside the f64 bound of 2^-22.9 relative error too).
struct RsqrtApprox {
  template <typename T>
  static T apply(const FloatMode& m, T a) {
    a = m.in(a);
    if (std::isnan(a) || (a < 0)) return fp::nanResult<T>({a});
    if (a == 0) return fp::infinity<T>(fp::signOf(a));
    if (std::isinf(a)) return T(0);
    return m.out(static_cast<T>(1.0 / std::sqrt(static_cast<double>(a))));
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
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(Op::apply(m, fromBits<T>(a[l]), fromBits<T>(b[l]))); });
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
    if (form == Form::Rounded && !m.ftz) pi.handler = &unaryMode<double, RcpExact>;
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
    if (form == Form::Approx) {
      m.round = fp::Round::Nearest;
      pi.aux = m.pack();
      pi.handler = &unaryMode<float, SqrtExact>;
    }
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
  if (inst.modifiers.get(ModGroup::Precision) != Mod::Approx || (inst.modifiers.hasGroup(ModGroup::Ftz) && !m.ftz)) {
    why = "rsqrt other than .approx{.ftz}";
    return false;
  }
  pi.aux = m.pack();
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &unaryMode<T, RsqrtApprox>; }) ||
         (why = "this type", false);
}

}  // namespace

void registerFloatDivideSemantics(SemanticsTable& table) {
  table.add(Opcode::Div, TypeClass::Float, &selectDiv);
  table.add(Opcode::Rcp, TypeClass::Float, &selectRcp);
  table.add(Opcode::Sqrt, TypeClass::Float, &selectSqrt);
  table.add(Opcode::Rsqrt, TypeClass::Float, &selectRsqrt);
}

}  // namespace ptxsim::sim::semantics
