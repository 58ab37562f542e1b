// f32 and f64 arithmetic: add, sub, mul, fma, mad.

#include <cmath>

#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct FAdd {
  template <typename T>
  static T apply(T a, T b) { return a + b; }
};
struct FSub {
  template <typename T>
  static T apply(T a, T b) { return a - b; }
};
struct FMul {
  template <typename T>
  static T apply(T a, T b) { return a * b; }
};
struct FFma {
  template <typename T>
  static T apply(T a, T b, T c) { return std::fma(a, b, c); }
};

template <typename T, typename Op>
void fbinary(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(Op::template apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l]))); });
}

template <typename T>
void ffma(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<T>(FFma::apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l]), fromBits<T>(c[l])));
  });
}

bool plainRounding(const isa::Instruction& inst, std::string& why) {
  Mod r = inst.modifiers.get(ModGroup::Rounding);
  if ((r != Mod::None && r != Mod::Rn) || inst.modifiers.hasGroup(ModGroup::Saturate) ||
      inst.modifiers.hasGroup(ModGroup::Ftz)) {
    why = "rounding modes other than .rn, .sat and .ftz";
    return false;
  }
  return true;
}

template <typename Op>
bool selectBinary(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!plainRounding(inst, why)) return false;
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &fbinary<T, Op>; });
}

bool selectFma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!plainRounding(inst, why)) return false;
  return dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &ffma<T>; });
}

}  // namespace

void registerFloatSemantics(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::Float, &selectBinary<FAdd>);
  table.add(Opcode::Sub, TypeClass::Float, &selectBinary<FSub>);
  table.add(Opcode::Mul, TypeClass::Float, &selectBinary<FMul>);
  table.add(Opcode::Fma, TypeClass::Float, &selectFma);
  table.add(Opcode::Mad, TypeClass::Float, &selectFma);
}

}  // namespace ptxsim::sim::semantics
