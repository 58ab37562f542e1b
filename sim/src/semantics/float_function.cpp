// f32 approximate functions: sin, cos, lg2, ex2 (.approx{.ftz}) and
// tanh.approx.
//
// Each returns the double-precision function value rounded to f32, which
// is within the PTX ISA's documented error bounds; the hardware's MUFU
// results are not public and differ from it in the last bits for many
// inputs (on an H100, MUFU.EX2 equals the rounded value for about 94% of
// positive inputs, MUFU.TANH for 89%). Special values, exact cases (2^n,
// log2 of a power of two) and .ftz behave as on the GPU.

#include <cmath>

#include "float_families.h"
#include "float_ieee.h"
#include "float_mode.h"
#include "lane_ops.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

float toFloat(double x) { return static_cast<float>(x); }

struct Sin {
  static float apply(float x) {
    if (std::isnan(x) || std::isinf(x)) return fp::nanResult<float>({});
    return toFloat(std::sin(static_cast<double>(x)));
  }
};
struct Cos {
  static float apply(float x) {
    if (std::isnan(x) || std::isinf(x)) return fp::nanResult<float>({});
    return toFloat(std::cos(static_cast<double>(x)));
  }
};
struct Lg2 {
  static float apply(float x) {
    if (std::isnan(x) || x < 0) return fp::nanResult<float>({});
    if (x == 0) return fp::infinity<float>(true);
    return toFloat(std::log2(static_cast<double>(x)));
  }
};
struct Ex2 {
  static float apply(float x) {
    if (std::isnan(x)) return fp::nanResult<float>({});
    return toFloat(std::exp2(static_cast<double>(x)));
  }
};
struct Tanh {
  static float apply(float x) {
    if (std::isnan(x)) return fp::nanResult<float>({});
    return toFloat(std::tanh(static_cast<double>(x)));
  }
};

template <typename Op>
void approxHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<float>(m.out(Op::apply(m.in(fromBits<float>(a[l]))))); });
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
