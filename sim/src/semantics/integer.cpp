// NOTE FOR THE HELPER WORKING ON THIS FILE: read /work/helper_preamble.md first and follow it
// (own worktree /work/wt/int, ccache build, rules, tests); remove this note in your first commit.
// Integer arithmetic: add, sub, mul, mad (.lo .hi .wide).

#include <type_traits>

#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// Wrapping arithmetic in the unsigned type of the same width, so signed
// overflow wraps as on the hardware instead of being undefined in C++.
template <typename T>
using U = std::make_unsigned_t<T>;

struct AddOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b));
  }
};
struct SubOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b));
  }
};
struct MulLoOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b));
  }
};

// The full product of two values, in a type twice as wide.
template <typename T>
struct Wider;
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
__extension__ typedef unsigned __int128 Uint128;
__extension__ typedef __int128 Int128;
template <> struct Wider<uint64_t> { using type = Uint128; };
template <> struct Wider<int64_t> { using type = Int128; };

struct MulHiOp {
  template <typename T>
  static T apply(T a, T b) {
    using W = typename Wider<T>::type;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
  }
};

template <typename T, typename Op>
void binaryTyped(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<T>(Op::template apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l])));
  });
}

template <typename T>
void mulWideHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using W = typename Wider<T>::type;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<W>(static_cast<W>(static_cast<W>(fromBits<T>(a[l])) * static_cast<W>(fromBits<T>(b[l]))));
  });
}

// mad: d = a*b (lo, hi or wide) + c.
template <typename T, typename Mul>
void madHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    T product = Mul::template apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l]));
    d[l] = toBits<T>(AddOp::apply<T>(product, fromBits<T>(c[l])));
  });
}

template <typename T>
void madWideHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using W = typename Wider<T>::type;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    using UW = std::make_unsigned_t<W>;
    UW product = static_cast<UW>(static_cast<W>(fromBits<T>(a[l])) * static_cast<W>(fromBits<T>(b[l])));
    d[l] = toBits<W>(static_cast<W>(product + static_cast<UW>(fromBits<W>(c[l]))));
  });
}

template <typename Op>
bool selectSimple(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  if (inst.modifiers.hasGroup(ModGroup::Saturate) || inst.modifiers.hasGroup(ModGroup::Carry)) {
    why = "saturating or carry forms";
    return false;
  }
  return dispatchInteger(inst.types[0], [&]<typename T>() { pi.handler = &binaryTyped<T, Op>; }) ||
         (why = "this type", false);
}

bool selectAdd(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectSimple<AddOp>(inst, pi, why);
}

bool selectSub(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectSimple<SubOp>(inst, pi, why);
}

bool selectMul(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod mode = inst.modifiers.get(ModGroup::MulMode);
  bool ok = dispatchInteger16to64(inst.types[0], [&]<typename T>() {
    if (mode == Mod::Wide) {
      if constexpr (sizeof(T) <= 4) pi.handler = &mulWideHandler<T>;
    } else if (mode == Mod::MulHi) {
      pi.handler = &binaryTyped<T, MulHiOp>;
    } else {
      pi.handler = &binaryTyped<T, MulLoOp>;
    }
  });
  if (!ok || pi.handler == nullptr) why = "this type and mode";
  return ok && pi.handler != nullptr;
}

bool selectMad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.modifiers.hasGroup(ModGroup::Saturate) || inst.modifiers.hasGroup(ModGroup::Carry)) {
    why = "saturating or carry forms";
    return false;
  }
  Mod mode = inst.modifiers.get(ModGroup::MulMode);
  bool ok = dispatchInteger16to64(inst.types[0], [&]<typename T>() {
    if (mode == Mod::Wide) {
      if constexpr (sizeof(T) <= 4) pi.handler = &madWideHandler<T>;
    } else if (mode == Mod::MulHi) {
      pi.handler = &madHandler<T, MulHiOp>;
    } else {
      pi.handler = &madHandler<T, MulLoOp>;
    }
  });
  if (!ok || pi.handler == nullptr) why = "this type and mode";
  return ok && pi.handler != nullptr;
}

}  // namespace

void registerIntegerSemantics(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::Integer, &selectAdd);
  table.add(Opcode::Sub, TypeClass::Integer, &selectSub);
  table.add(Opcode::Mul, TypeClass::Integer, &selectMul);
  table.add(Opcode::Mad, TypeClass::Integer, &selectMad);
}

}  // namespace ptxsim::sim::semantics
