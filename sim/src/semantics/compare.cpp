// Comparison and selection: set, setp, selp, slct. f16/bf16 comparisons
// belong to the half family; .ftz flushes f32 subnormal sources to a zero
// of the same sign before comparing.

#include <cmath>

#include "comparison.h"
#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

inline bool combine(Mod op, bool value, bool c) {
  switch (op) {
    case Mod::BoolAnd: return value && c;
    case Mod::BoolOr: return value || c;
    case Mod::BoolXor: return value != c;
    default: return value;
  }
}

// A source as compared: f32 subnormals become a zero of the same sign under .ftz.
template <typename T, bool Ftz>
T compareOperand(uint64_t bits) {
  T value = fromBits<T>(bits);
  if constexpr (Ftz && std::is_same_v<T, float>) {
    if (std::fpclassify(value) == FP_SUBNORMAL) return std::signbit(value) ? -0.0f : 0.0f;
  }
  return value;
}

// setp.cmp[.bool].type p[|q], a, b[, {!}c]; aux: the comparison, aux2: the
// boolean combine (Mod::None without one).
template <typename T, bool Ftz>
void setpHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto op = static_cast<Mod>(pi.aux);
  auto boolOp = static_cast<Mod>(pi.aux2);
  uint64_t* p = ctx.row(pi.ops[0].row);
  uint64_t* q = pi.ops[0].secondRow != exec::kNoRow ? ctx.row(pi.ops[0].secondRow) : nullptr;
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = boolOp != Mod::None ? ctx.row(pi.ops[3].row) : nullptr;
  bool cNegated = boolOp != Mod::None && pi.ops[3].negated;
  forLanes(ctx.mask, [&](unsigned l) {
    bool value = compare<T>(op, compareOperand<T, Ftz>(a[l]), compareOperand<T, Ftz>(b[l]));
    bool cv = c != nullptr && ((c[l] != 0) != cNegated);
    p[l] = combine(boolOp, value, cv) ? 1 : 0;
    if (q != nullptr) q[l] = combine(boolOp, !value, cv) ? 1 : 0;
  });
}

// Whether the comparison exists for the source type: ordered/unordered
// float comparisons and .num/.nan for f32/f64 only, .lo .ls .hi .hs for
// integers only. .ftz: f32 only.
bool checkComparison(const isa::Instruction& inst, isa::DataType type, bool& ftz, std::string& why) {
  Mod op = inst.modifiers.get(ModGroup::Compare);
  ftz = inst.modifiers.has(Mod::Ftz);
  bool isFloat = type == isa::DataType::F32 || type == isa::DataType::F64;
  if (inst.modifiers.hasGroup(ModGroup::Ftz) && (!ftz || type != isa::DataType::F32)) {
    why = ".ftz applies to f32 comparisons only";
    return false;
  }
  bool ordered = op >= Mod::Eq && op <= Mod::Ge;
  bool unsignedOnly = op >= Mod::CmpLo && op <= Mod::Hs;
  bool unordered = op >= Mod::Equ && op <= Mod::Nan;
  // Integer and bit types accept both spellings (nvcc emits setp.lt.u32),
  // ordered as their signedness says; .lo .ls .hi .hs compare unsigned.
  bool ok = isFloat ? (ordered || unordered) : (ordered || unsignedOnly);
  if (!ok) why = "this comparison for this type";
  return ok;
}

// Binds Family::run<T, Ftz> for the source type.
template <typename Family>
bool pickCompareHandler(isa::DataType type, bool ftz, PreparedInstruction& pi) {
  return dispatchInteger(type, [&]<typename T>() { pi.handler = &Family::template run<T, false>; }) ||
         dispatchFloat(type, [&]<typename T>() {
           pi.handler = ftz ? &Family::template run<T, true> : &Family::template run<T, false>;
         });
}
struct SetpFamily {
  template <typename T, bool Ftz>
  static void run(const PreparedInstruction& pi, ExecContext& ctx) {
    setpHandler<T, Ftz>(pi, ctx);
  }
};

bool selectSetp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  pi.aux = static_cast<uint64_t>(inst.modifiers.get(ModGroup::Compare));
  pi.aux2 = static_cast<uint64_t>(inst.modifiers.get(ModGroup::BoolOp));
  bool ftz = false;
  if (!checkComparison(inst, inst.types[0], ftz, why)) return false;
  bool ok = pickCompareHandler<SetpFamily>(inst.types[0], ftz, pi);
  if (!ok) why = "setp of this type";
  return ok;
}

// set.cmp[.bool].dtype.stype d, a, b[, {!}c]: all ones (or 1.0f for an f32
// destination) where the comparison, combined with c, holds; else 0.
// aux/aux2 as for setp; the handler is chosen per destination kind.
template <typename T, bool Ftz>
void setHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto op = static_cast<Mod>(pi.aux);
  auto boolOp = static_cast<Mod>(pi.aux2 & 0xffff);
  uint64_t trueValue = (pi.aux2 >> 16) != 0 ? 0x3f800000u : 0xffffffffu;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = boolOp != Mod::None ? ctx.row(pi.ops[3].row) : nullptr;
  bool cNegated = boolOp != Mod::None && pi.ops[3].negated;
  forLanes(ctx.mask, [&](unsigned l) {
    bool value = compare<T>(op, compareOperand<T, Ftz>(a[l]), compareOperand<T, Ftz>(b[l]));
    bool cv = c != nullptr && ((c[l] != 0) != cNegated);
    d[l] = combine(boolOp, value, cv) ? trueValue : 0;
  });
}

struct SetFamily {
  template <typename T, bool Ftz>
  static void run(const PreparedInstruction& pi, ExecContext& ctx) {
    setHandler<T, Ftz>(pi, ctx);
  }
};

bool selectSet(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.typeCount < 2) {
    why = "set needs .dtype.stype";
    return false;
  }
  isa::DataType dtype = inst.types[0], stype = inst.types[1];
  if (dtype != isa::DataType::U32 && dtype != isa::DataType::S32 && dtype != isa::DataType::F32) {
    why = "this destination type (f16/bf16 destinations belong to the half family)";
    return false;
  }
  if (typeClassOf(stype) == TypeClass::Half) {
    why = "f16/bf16 comparisons (the half family's)";
    return false;
  }
  bool ftz = false;
  if (!checkComparison(inst, stype, ftz, why)) return false;
  pi.aux = static_cast<uint64_t>(inst.modifiers.get(ModGroup::Compare));
  pi.aux2 = static_cast<uint64_t>(inst.modifiers.get(ModGroup::BoolOp)) |
            (dtype == isa::DataType::F32 ? uint64_t{1} << 16 : 0);
  bool ok = pickCompareHandler<SetFamily>(stype, ftz, pi);
  if (!ok) why = "set of this type";
  return ok;
}

// selp.type d, a, b, c: d = c ? a : b.
template <typename T>
void selpHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  bool negated = pi.ops[3].negated;
  forLanes(ctx.mask,
           [&](unsigned l) { d[l] = toBits<T>(fromBits<T>(((c[l] != 0) != negated) ? a[l] : b[l])); });
}

bool selectSelp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool ok = dispatchBits(inst.types[0], [&]<typename T>() { pi.handler = &selpHandler<T>; });
  if (!ok) why = "selp of this type";
  return ok;
}

// slct.dtype.s32 d, a, b, c and slct{.ftz}.dtype.f32 d, a, b, c:
// d = c >= 0 ? a : b. A NaN c selects b; under .ftz a subnormal c counts as
// a zero of its sign, and -0 >= 0.
template <typename T, typename C, bool Ftz>
void slctHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    bool pickA = compareOperand<C, Ftz>(c[l]) >= C{0};
    d[l] = toBits<T>(fromBits<T>(pickA ? a[l] : b[l]));
  });
}

bool selectSlct(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.typeCount < 2) {
    why = "slct needs .dtype and a .s32/.f32 selector type";
    return false;
  }
  bool floatSelector = inst.types[1] == isa::DataType::F32;
  bool ftz = inst.modifiers.has(Mod::Ftz);
  if (inst.modifiers.hasGroup(ModGroup::Ftz) && (!ftz || !floatSelector)) {
    why = ".ftz applies to an f32 selector only";
    return false;
  }
  if (!floatSelector && inst.types[1] != isa::DataType::S32) {
    why = "this selector type";
    return false;
  }
  bool ok = dispatchBits(inst.types[0], [&]<typename T>() {
    if (!floatSelector) {
      pi.handler = &slctHandler<T, int32_t, false>;
    } else {
      pi.handler = ftz ? &slctHandler<T, float, true> : &slctHandler<T, float, false>;
    }
  });
  if (!ok) why = "slct of this type";
  return ok;
}

}  // namespace

// set, setp and slct name the destination type first (set.u32.f32,
// slct.f32.s32), so they register for any type class; selectors reject
// the half family's f16/bf16 forms.
void registerCompareSemantics(SemanticsTable& table) {
  table.add(Opcode::Set, &selectSet);
  table.add(Opcode::Setp, &selectSetp);
  table.add(Opcode::Selp, &selectSelp);
  table.add(Opcode::Slct, &selectSlct);
}

}  // namespace ptxsim::sim::semantics
