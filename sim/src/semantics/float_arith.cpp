// f32 and f64 arithmetic: add, sub, mul, fma, mad, each with .rn/.rz/.rm/.rp
// (f32 also .ftz and .sat).
//
// add/sub/mul default to .rn without a rounding modifier. ptxas fuses such
// an add or sub and the mul feeding it into one fma on the hardware; the IR
// does the same before anything runs (isa/contraction.h), and the fused sub
// reaches fma here with a negated operand (FloatMode). fma and mad
// require a rounding modifier (mad.f32 without one is the sm_1x form, which
// ptxas rejects for sm_20 and later); mad with one is fma.

#include "float_arith_ops.h"
#include "float_families.h"
#include "float_mode.h"
#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

template <typename T, typename Op>
void binaryFloat(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    T x = m.in(fromBits<T>(a[l]));
    T y = m.in(fromBits<T>(b[l]));
    d[l] = toBits<T>(m.out(Op::apply(x, y, m.round), [&] { return Op::apply(x, y, fp::Round::Zero); }));
  });
}

template <typename T>
void fmaFloat(const PreparedInstruction& pi, ExecContext& ctx) {
  FloatMode m = FloatMode::unpack(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    T x = m.in(fromBits<T>(a[l]));
    T y = m.in(fromBits<T>(b[l]));
    T z = m.in(fromBits<T>(c[l]));
    if (m.negateProduct) x = -x;
    if (m.negateAddend) z = -z;
    d[l] = toBits<T>(
        m.out(FmaOp::apply(x, y, z, m.round), [&] { return FmaOp::apply(x, y, z, fp::Round::Zero); }));
  });
}

// The table admits .ftz/.sat on f32 rows only; this reads them and the
// rounding modifier, which must be present when `required`.
bool floatMode(const isa::Instruction& inst, bool required, FloatMode& m, std::string& why) {
  Mod r = inst.modifiers.get(ModGroup::Rounding);
  if (r == Mod::None) {
    if (required) {
      why = "a rounding modifier is required (the form without one is sm_1x only)";
      return false;
    }
  } else if (!roundingOf(r, m.round)) {
    why = "rounding modifier other than .rn .rz .rm .rp";
    return false;
  }
  m.ftz = inst.modifiers.has(Mod::Ftz);
  m.sat = inst.modifiers.has(Mod::Sat);
  if (inst.modifiers.hasGroup(ModGroup::Saturate) && !m.sat) {
    why = "saturation other than .sat";
    return false;
  }
  return true;
}

template <typename Op>
bool selectBinary(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  FloatMode m;
  if (!floatMode(inst, false, m, why)) return false;
  pi.aux = m.pack();
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &binaryFloat<T, Op>; }) ||
         (why = "this type", false);
}

bool selectFma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  FloatMode m;
  if (!floatMode(inst, true, m, why)) return false;
  const isa::Operand* ops = &sc.function.operands[inst.firstOperand];
  m.negateProduct = ops[1].minus != ops[2].minus;
  m.negateAddend = ops[3].minus;
  pi.aux = m.pack();
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &fmaFloat<T>; }) ||
         (why = "this type", false);
}

}  // namespace

void registerFloatArithSemantics(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::Float, &selectBinary<AddOp>);
  table.add(Opcode::Sub, TypeClass::Float, &selectBinary<SubOp>);
  table.add(Opcode::Mul, TypeClass::Float, &selectBinary<MulOp>);
  table.add(Opcode::Fma, TypeClass::Float, &selectFma);
  table.add(Opcode::Mad, TypeClass::Float, &selectFma);
}

}  // namespace ptxsim::sim::semantics
