// Comparison and selection: setp, selp.

#include <cmath>

#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

template <typename T>
bool compare(Mod op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (op) {
      case Mod::Eq: return !unordered && a == b;
      case Mod::Ne: return !unordered && a != b;
      case Mod::Lt: return !unordered && a < b;
      case Mod::Le: return !unordered && a <= b;
      case Mod::Gt: return !unordered && a > b;
      case Mod::Ge: return !unordered && a >= b;
      case Mod::Equ: return unordered || a == b;
      case Mod::Neu: return unordered || a != b;
      case Mod::Ltu: return unordered || a < b;
      case Mod::Leu: return unordered || a <= b;
      case Mod::Gtu: return unordered || a > b;
      case Mod::Geu: return unordered || a >= b;
      case Mod::Num: return !unordered;
      case Mod::Nan: return unordered;
      default: return false;
    }
  } else {
    using Un = std::make_unsigned_t<T>;
    switch (op) {
      case Mod::Eq: return a == b;
      case Mod::Ne: return a != b;
      case Mod::Lt: return a < b;
      case Mod::Le: return a <= b;
      case Mod::Gt: return a > b;
      case Mod::Ge: return a >= b;
      case Mod::CmpLo: return static_cast<Un>(a) < static_cast<Un>(b);
      case Mod::Ls: return static_cast<Un>(a) <= static_cast<Un>(b);
      case Mod::CmpHi: return static_cast<Un>(a) > static_cast<Un>(b);
      case Mod::Hs: return static_cast<Un>(a) >= static_cast<Un>(b);
      default: return false;
    }
  }
}

inline bool combine(Mod op, bool value, bool c) {
  switch (op) {
    case Mod::BoolAnd: return value && c;
    case Mod::BoolOr: return value || c;
    case Mod::BoolXor: return value != c;
    default: return value;
  }
}

// setp.cmp[.bool].type p[|q], a, b[, {!}c]; aux: the comparison, aux2: the
// boolean combine (Mod::None without one).
template <typename T>
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
    bool value = compare<T>(op, fromBits<T>(a[l]), fromBits<T>(b[l]));
    bool cv = c != nullptr && ((c[l] != 0) != cNegated);
    p[l] = combine(boolOp, value, cv) ? 1 : 0;
    if (q != nullptr) q[l] = combine(boolOp, !value, cv) ? 1 : 0;
  });
}

bool selectSetp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  pi.aux = static_cast<uint64_t>(inst.modifiers.get(ModGroup::Compare));
  pi.aux2 = static_cast<uint64_t>(inst.modifiers.get(ModGroup::BoolOp));
  if (inst.modifiers.has(Mod::Ftz) && false) return false;
  bool ok = dispatchInteger(inst.types[0], [&]<typename T>() { pi.handler = &setpHandler<T>; }) ||
            dispatchFloat(inst.types[0], [&]<typename T>() { pi.handler = &setpHandler<T>; });
  if (!ok) why = "setp of this type";
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
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(fromBits<T>(((c[l] != 0) != negated) ? a[l] : b[l])); });
}

bool selectSelp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool ok = dispatchBits(inst.types[0], [&]<typename T>() { pi.handler = &selpHandler<T>; });
  if (!ok) why = "selp of this type";
  return ok;
}

}  // namespace

void registerCompareSemantics(SemanticsTable& table) {
  table.add(Opcode::Setp, &selectSetp);
  table.add(Opcode::Selp, &selectSelp);
}

}  // namespace ptxsim::sim::semantics
