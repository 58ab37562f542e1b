// Integer arithmetic: add, sub (.sat, .cc), addc, subc, mul, mad (.lo .hi
// .wide, .hi.sat, .cc), madc, mul24, mad24, sad. Division, abs/neg/min/max
// live in integer_divide.cpp, bit manipulation in integer_bits.cpp, the
// packed .u16x2/.s16x2 forms in integer_packed.cpp.
//
// The carry flag CC.CF behaves as the hardware's carry, which the PTX ISA's
// pseudocode does not spell out for subtraction: sub.cc and subc compute
// a + ~b + carry-in (carry-in 1 for sub.cc), so after a subtraction CF is
// the carry out of that sum, i.e. NOT borrow. Chains of sub.cc/subc give
// the documented multi-word difference; mixed chains (add.cc then subc)
// follow the hardware. Measured on an H100 by
// tests/cuda/semantics/integer_carry.cu.

#include <limits>

#include "integer_common.h"
#include "lane_ops.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct AddOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
  }
};
struct SubOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
  }
};
struct AddSatOp {
  static int32_t apply(int32_t a, int32_t b) { return saturate<int32_t>(int64_t{a} + int64_t{b}); }
};
struct SubSatOp {
  static int32_t apply(int32_t a, int32_t b) { return saturate<int32_t>(int64_t{a} - int64_t{b}); }
};
struct MulLoOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<Unsigned<T>>(a) * static_cast<Unsigned<T>>(b));
  }
};
struct MulHiOp {
  template <typename T>
  static T apply(T a, T b) {
    using W = WiderT<T>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
  }
};

// x + y + carryIn in U, and the carry out of that sum.
template <typename U>
inline U addWithCarry(U x, U y, bool carryIn, bool& carryOut) {
  U sum = static_cast<U>(x + y);
  bool c1 = sum < x;
  U total = static_cast<U>(sum + (carryIn ? 1 : 0));
  carryOut = c1 || total < sum;
  return total;
}

// add/sub/addc/subc with the carry flag. Subtraction is a + ~b + carry-in,
// as on the hardware (see the file comment).
template <typename T, bool Subtract, bool CarryIn, bool CarryOut>
void carryAddHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using U = Unsigned<T>;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  uint64_t* cf = carryRow(ctx);
  forLanes(ctx.mask, [&](unsigned l) {
    U y = fromBits<U>(b[l]);
    if constexpr (Subtract) y = static_cast<U>(~y);
    bool carryIn = CarryIn ? cf[l] != 0 : Subtract;
    bool carryOut = false;
    d[l] = toBits<U>(addWithCarry<U>(fromBits<U>(a[l]), y, carryIn, carryOut));
    if constexpr (CarryOut) cf[l] = carryOut ? 1 : 0;
  });
}

// mad.lo/.hi (optionally .cc) and madc: d = part(a*b) + c (+ CF).
template <typename T, typename Mul, bool CarryIn, bool CarryOut>
void madHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using U = Unsigned<T>;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  uint64_t* cf = (CarryIn || CarryOut) ? carryRow(ctx) : nullptr;
  forLanes(ctx.mask, [&](unsigned l) {
    U product = static_cast<U>(Mul::template apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l])));
    bool carryOut = false;
    d[l] = toBits<U>(addWithCarry<U>(product, fromBits<U>(c[l]), CarryIn && cf[l] != 0, carryOut));
    if constexpr (CarryOut) cf[l] = carryOut ? 1 : 0;
  });
}

// mad.hi.sat.s32: the high half of the product plus c, clamped.
void madHiSatHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    int64_t hi = MulHiOp::apply<int32_t>(fromBits<int32_t>(a[l]), fromBits<int32_t>(b[l]));
    d[l] = toBits<int32_t>(saturate<int32_t>(hi + int64_t{fromBits<int32_t>(c[l])}));
  });
}

template <typename T>
void mulWideHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using W = WiderT<T>;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<W>(static_cast<W>(static_cast<W>(fromBits<T>(a[l])) * static_cast<W>(fromBits<T>(b[l]))));
  });
}

template <typename T>
void madWideHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using W = WiderT<T>;
  using UW = Unsigned<W>;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    UW product = static_cast<UW>(static_cast<W>(fromBits<T>(a[l])) * static_cast<W>(fromBits<T>(b[l])));
    d[l] = toBits<W>(static_cast<W>(product + static_cast<UW>(fromBits<W>(c[l]))));
  });
}

// mul24/mad24: the 48-bit product of the low 24 bits of a and b (sign- or
// zero-extended per the type); .lo keeps bits 31..0, .hi bits 47..16.
template <typename T>
int64_t product24(uint64_t a, uint64_t b) {
  auto extend = [](uint64_t v) -> int64_t {
    uint32_t low = static_cast<uint32_t>(v) & 0xffffffu;
    if constexpr (std::is_signed_v<T>) return static_cast<int32_t>(low << 8) >> 8;
    return low;
  };
  return extend(a) * extend(b);
}

// Mad adds c (modulo 2^32); Sat is mad24.hi.sat.s32, which clamps that sum.
template <typename T, bool High, bool Mad, bool Sat>
void mul24Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = Mad ? ctx.row(pi.ops[3].row) : nullptr;
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t part = static_cast<uint32_t>(static_cast<uint64_t>(product24<T>(a[l], b[l])) >> (High ? 16 : 0));
    if constexpr (Sat) {
      d[l] = toBits<int32_t>(
          saturate<int32_t>(int64_t{static_cast<int32_t>(part)} + int64_t{fromBits<int32_t>(c[l])}));
    } else if constexpr (Mad) {
      d[l] = static_cast<uint32_t>(part + static_cast<uint32_t>(c[l]));
    } else {
      d[l] = part;
    }
  });
}

// sad: d = c + |a - b|, the difference taken exactly in the type's signedness.
struct SadOp {
  template <typename T>
  static T apply(T a, T b, T c) {
    using U = Unsigned<T>;
    U diff = a < b ? static_cast<U>(static_cast<U>(b) - static_cast<U>(a))
                   : static_cast<U>(static_cast<U>(a) - static_cast<U>(b));
    return static_cast<T>(static_cast<U>(static_cast<U>(c) + diff));
  }
};

template <typename T>
void sadHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<T>(SadOp::apply<T>(fromBits<T>(a[l]), fromBits<T>(b[l]), fromBits<T>(c[l])));
  });
}

bool is32or64(DataType t) { return isa::typeBits(t) == 32 || isa::typeBits(t) == 64; }

// add/sub/addc/subc. The carry forms exist for 32/64-bit types only, .sat
// for .s32 only, and the two never combine.
template <bool Subtract>
bool selectAddSub(const isa::Instruction& inst, PreparedInstruction& pi, bool carryIn, std::string& why) {
  DataType type = inst.types[0];
  bool sat = inst.modifiers.has(Mod::Sat);
  bool carryOut = inst.modifiers.has(Mod::Cc);
  if (inst.modifiers.hasGroup(ModGroup::Saturate) && !sat) {
    why = "this saturation modifier";
    return false;
  }
  if (sat) {
    if (type != DataType::S32 || carryIn || carryOut) {
      why = ".sat applies to .s32 without .cc only";
      return false;
    }
    pi.handler = Subtract ? &binaryHandler<int32_t, SubSatOp> : &binaryHandler<int32_t, AddSatOp>;
    return true;
  }
  if (!carryIn && !carryOut) {
    return dispatchInteger16to64(type,
                                 [&]<typename T>() {
                                   pi.handler =
                                       Subtract ? &binaryHandler<T, SubOp> : &binaryHandler<T, AddOp>;
                                 }) ||
           (why = "this type", false);
  }
  if (!is32or64(type)) {
    why = "carry forms take 32- and 64-bit types only";
    return false;
  }
  return dispatchInteger16to64(type, [&]<typename T>() {
    if (carryIn) {
      pi.handler =
          carryOut ? &carryAddHandler<T, Subtract, true, true> : &carryAddHandler<T, Subtract, true, false>;
    } else {
      pi.handler = &carryAddHandler<T, Subtract, false, true>;
    }
  });
}

bool selectAdd(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectAddSub<false>(inst, pi, false, why);
}
bool selectSub(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectAddSub<true>(inst, pi, false, why);
}
bool selectAddc(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectAddSub<false>(inst, pi, true, why);
}
bool selectSubc(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectAddSub<true>(inst, pi, true, why);
}

bool selectMul(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod mode = inst.modifiers.get(ModGroup::MulMode);
  bool ok = dispatchInteger16to64(inst.types[0], [&]<typename T>() {
    if (mode == Mod::Wide) {
      if constexpr (sizeof(T) <= 4) pi.handler = &mulWideHandler<T>;
    } else if (mode == Mod::MulHi) {
      pi.handler = &binaryHandler<T, MulHiOp>;
    } else {
      pi.handler = &binaryHandler<T, MulLoOp>;
    }
  });
  if (!ok || pi.handler == nullptr) why = "mul.wide of a 64-bit type";
  return ok && pi.handler != nullptr;
}

// mad and madc (carryIn). .sat is mad.hi.sat.s32 only; .cc and madc take
// .lo/.hi of 32/64-bit types.
bool selectMadForm(const isa::Instruction& inst, PreparedInstruction& pi, bool carryIn, std::string& why) {
  DataType type = inst.types[0];
  Mod mode = inst.modifiers.get(ModGroup::MulMode);
  bool carryOut = inst.modifiers.has(Mod::Cc);
  if (inst.modifiers.hasGroup(ModGroup::Saturate)) {
    if (!inst.modifiers.has(Mod::Sat) || mode != Mod::MulHi || type != DataType::S32 || carryIn || carryOut) {
      why = "saturation is mad.hi.sat.s32 only";
      return false;
    }
    pi.handler = &madHiSatHandler;
    return true;
  }
  if ((carryIn || carryOut) && (mode == Mod::Wide || !is32or64(type))) {
    why = "carry forms take .lo/.hi of 32- and 64-bit types only";
    return false;
  }
  bool ok = dispatchInteger16to64(type, [&]<typename T>() {
    if (mode == Mod::Wide) {
      if constexpr (sizeof(T) <= 4) pi.handler = &madWideHandler<T>;
      return;
    }
    auto pick = [&]<typename Mul>() {
      if (carryIn) {
        pi.handler = carryOut ? &madHandler<T, Mul, true, true> : &madHandler<T, Mul, true, false>;
      } else {
        pi.handler = carryOut ? &madHandler<T, Mul, false, true> : &madHandler<T, Mul, false, false>;
      }
    };
    if (mode == Mod::MulHi) {
      pick.template operator()<MulHiOp>();
    } else {
      pick.template operator()<MulLoOp>();
    }
  });
  if (!ok || pi.handler == nullptr) why = "mad.wide of a 64-bit type";
  return ok && pi.handler != nullptr;
}

bool selectMad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMadForm(inst, pi, false, why);
}
bool selectMadc(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMadForm(inst, pi, true, why);
}

template <bool Mad>
bool selectMul24Form(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  bool high = inst.modifiers.get(ModGroup::MulMode) == Mod::MulHi;
  if (inst.modifiers.get(ModGroup::MulMode) == Mod::Wide) {
    why = "24-bit multiplies have no .wide form";
    return false;
  }
  bool sat = inst.modifiers.hasGroup(ModGroup::Saturate);
  if (sat) {
    if (!Mad || !inst.modifiers.has(Mod::Sat) || !high || inst.types[0] != DataType::S32) {
      why = "saturation is mad24.hi.sat.s32 only";
      return false;
    }
    pi.handler = &mul24Handler<int32_t, true, true, true>;
    return true;
  }
  auto pick = [&]<typename T>() {
    pi.handler = high ? &mul24Handler<T, true, Mad, false> : &mul24Handler<T, false, Mad, false>;
  };
  if (inst.types[0] == DataType::S32) {
    pick.template operator()<int32_t>();
  } else if (inst.types[0] == DataType::U32) {
    pick.template operator()<uint32_t>();
  } else {
    why = "this type";
    return false;
  }
  return true;
}

bool selectMul24(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMul24Form<false>(inst, pi, why);
}
bool selectMad24(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMul24Form<true>(inst, pi, why);
}

bool selectSad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &sadHandler<T>; }) ||
         (why = "this type", false);
}

}  // namespace

void registerIntegerSemantics(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::Integer, &selectAdd);
  table.add(Opcode::Sub, TypeClass::Integer, &selectSub);
  table.add(Opcode::Addc, TypeClass::Integer, &selectAddc);
  table.add(Opcode::Subc, TypeClass::Integer, &selectSubc);
  table.add(Opcode::Mul, TypeClass::Integer, &selectMul);
  table.add(Opcode::Mad, TypeClass::Integer, &selectMad);
  table.add(Opcode::Madc, TypeClass::Integer, &selectMadc);
  table.add(Opcode::Mul24, TypeClass::Integer, &selectMul24);
  table.add(Opcode::Mad24, TypeClass::Integer, &selectMad24);
  table.add(Opcode::Sad, TypeClass::Integer, &selectSad);
  registerIntegerDivideSemantics(table);
  registerIntegerBitSemantics(table);
  registerPackedIntegerSemantics(table);
}

}  // namespace ptxsim::sim::semantics
