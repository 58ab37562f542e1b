// Bit manipulation and packed dot products: popc, clz, bfind (.shiftamt),
// brev, bfe, bfi, fns, szext and bmsk (.wrap/.clamp), dp4a, dp2a (.lo/.hi).
// Each follows the PTX ISA 9.0 pseudocode; out-of-range positions, widths
// and offsets were checked against an H100 (tests/cuda/semantics/integer_bits.cu).

#include <bit>
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

inline constexpr uint32_t kNotFound = 0xffffffffu;

// popc, clz and bfind write a .u32 whatever the source width.
struct PopcOp {
  template <typename T>
  static uint32_t apply(T a) {
    return static_cast<uint32_t>(std::popcount(a));
  }
};
struct ClzOp {
  template <typename T>
  static uint32_t apply(T a) {
    return static_cast<uint32_t>(std::countl_zero(a));
  }
};
// The position of the most significant non-sign bit; .shiftamt turns it
// into the left shift that brings that bit to the top.
template <bool ShiftAmount>
struct BfindOp {
  template <typename T>
  static uint32_t apply(T a) {
    using U = Unsigned<T>;
    U bits = static_cast<U>(a);
    if constexpr (std::is_signed_v<T>) {
      if (a < 0) bits = static_cast<U>(~bits);
    }
    if (bits == 0) return kNotFound;
    uint32_t msb = static_cast<uint32_t>(std::bit_width(bits)) - 1;
    return ShiftAmount ? static_cast<uint32_t>(8 * sizeof(T) - 1) - msb : msb;
  }
};
struct BrevOp {
  template <typename T>
  static T apply(T a) {
    T r = 0;
    for (unsigned i = 0; i < 8 * sizeof(T); ++i)
      r |= static_cast<T>(((a >> i) & 1) << (8 * sizeof(T) - 1 - i));
    return r;
  }
};

template <typename T, typename Op>
void countHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = Op::template apply<T>(fromBits<T>(a[l])); });
}

template <typename T>
void brevHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(BrevOp::apply<T>(fromBits<T>(a[l]))); });
}

// sm_90 has no 64-bit bit-field instruction: ptxas emulates bfe/bfi .b64
// with funnel shifts (SHF) by the full 32-bit position and length, where a
// shift by 64 or more gives 0 (or all sign bits, shifting right
// arithmetically). So unlike the ISA's pseudocode, which reads their low 8
// bits, a position of 0x80000000 extracts nothing and a length of
// 0x80000000 keeps every bit from the position up (H100 conformance records).
uint64_t shiftLeft64(uint64_t x, uint32_t n) { return n >= 64 ? 0 : x << n; }
uint64_t shiftRight64(uint64_t x, uint32_t n) { return n >= 64 ? 0 : x >> n; }
int64_t shiftRightArithmetic64(int64_t x, uint32_t n) { return x >> std::min(n, 63u); }
// The low len bits set: (1 << len) - 1 with a 64-bit shift.
uint64_t lowMask64(uint32_t len) { return shiftLeft64(1, len) - 1; }

// bfe d, a, pos, len: len bits of a from pos, zero- or sign-extended; the
// sign is the highest extracted bit (bit msb when the field runs past it).
struct BfeOp {
  template <typename T>
  static T apply(T a, uint32_t b, uint32_t c) {
    if constexpr (sizeof(T) == 8) return apply64<T>(a, b, c);
    using U = Unsigned<T>;
    constexpr uint32_t msb = 8 * sizeof(T) - 1;
    uint32_t pos = b & 0xff;
    uint32_t len = c & 0xff;
    U bits = static_cast<U>(a);
    bool sbit = false;
    if (std::is_signed_v<T> && len != 0) sbit = ((bits >> std::min(pos + len - 1, msb)) & 1) != 0;
    U d = 0;
    for (uint32_t i = 0; i <= msb; ++i) {
      bool bit = (i < len && pos + i <= msb) ? ((bits >> (pos + i)) & 1) != 0 : sbit;
      d |= static_cast<U>(U{bit} << i);
    }
    return static_cast<T>(d);
  }
  // ptxas's sequence: the field is (a >> pos) & lowMask(len); .s64 then
  // sets every bit above it when the field's bit len - 1 is set.
  template <typename T>
  static T apply64(T a, uint32_t pos, uint32_t len) {
    uint64_t mask = lowMask64(len);
    uint64_t field = std::is_signed_v<T>
                         ? static_cast<uint64_t>(shiftRightArithmetic64(static_cast<int64_t>(a), pos)) & mask
                         : shiftRight64(static_cast<uint64_t>(a), pos) & mask;
    if (std::is_signed_v<T> && shiftRight64(field, len - 1) != 0) field |= ~mask;
    return static_cast<T>(field);
  }
};

template <typename T>
void bfeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<T>(
        BfeOp::apply<T>(fromBits<T>(a[l]), static_cast<uint32_t>(b[l]), static_cast<uint32_t>(c[l])));
  });
}

// bfi f, a, b, pos, len: b with len bits from pos replaced by a's low bits
// (.b64: ptxas's funnel-shift sequence, see shiftLeft64).
template <typename T>
void bfiHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  constexpr uint32_t msb = 8 * sizeof(T) - 1;
  uint64_t* f = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  const uint64_t* dl = ctx.row(pi.ops[4].row);
  forLanes(ctx.mask, [&](unsigned l) {
    if constexpr (sizeof(T) == 8) {
      uint32_t pos = static_cast<uint32_t>(c[l]);
      uint64_t mask = lowMask64(static_cast<uint32_t>(dl[l]));
      f[l] = shiftLeft64(a[l] & mask, pos) | (b[l] & ~shiftLeft64(mask, pos));
      return;
    }
    uint32_t pos = static_cast<uint32_t>(c[l]) & 0xff;
    uint32_t len = static_cast<uint32_t>(dl[l]) & 0xff;
    T value = fromBits<T>(b[l]);
    T source = fromBits<T>(a[l]);
    for (uint32_t i = 0; i < len && pos + i <= msb; ++i) {
      T bit = static_cast<T>(T{1} << (pos + i));
      value = ((source >> i) & 1) != 0 ? static_cast<T>(value | bit) : static_cast<T>(value & ~bit);
    }
    f[l] = toBits<T>(value);
  });
}

// fns d, mask, base, offset: the |offset|-th set bit of mask from base,
// upwards for a positive offset and downwards for a negative one. The ISA
// leaves a base above 31 undefined; sm_90 runs fns as a ptxas sequence
// (SHF, POPC and a binary search), which gives, matching every H100
// conformance record: "not found" for a base above 31 (the bits from the
// base are masked by a shift that clamps to nothing), and bit 0 for the
// offset 0x80000000, whose negation overflows so that the search runs to
// its end (the top bit of the reversed mask, i.e. bit 0).
uint32_t findNthSet(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == std::numeric_limits<int32_t>::min()) return 0;
  if (base > 31) return kNotFound;
  if (offset == 0) return ((mask >> base) & 1) != 0 ? base : kNotFound;
  int64_t count = offset > 0 ? int64_t{offset} - 1 : -int64_t{offset} - 1;
  int inc = offset > 0 ? 1 : -1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += inc) {
    if (((mask >> pos) & 1) == 0) continue;
    if (count == 0) return static_cast<uint32_t>(pos);
    --count;
  }
  return kNotFound;
}

void fnsHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* mask = ctx.row(pi.ops[1].row);
  const uint64_t* base = ctx.row(pi.ops[2].row);
  const uint64_t* offset = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = findNthSet(static_cast<uint32_t>(mask[l]), static_cast<uint32_t>(base[l]),
                      fromBits<int32_t>(offset[l]));
  });
}

// szext.mode.type d, a, b: the low N = b bits of a, sign- or zero-extended.
template <bool Signed, bool Clamp>
void szextHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t value = static_cast<uint32_t>(a[l]);
    uint32_t width = static_cast<uint32_t>(b[l]);
    uint32_t b1 = width & 0x1f;
    bool tooLarge = Clamp && width >= 32;
    uint32_t mask = tooLarge ? 0 : ~uint32_t{0} << b1;
    bool sign = Signed && b1 != 0 && !tooLarge && ((value >> ((b1 - 1) & 0x1f)) & 1) != 0;
    d[l] = (value & ~mask) | (sign ? mask : 0);
  });
}

// bmsk.mode.b32 d, a, b: b one bits starting at bit a.
template <bool Clamp>
void bmskHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t position = static_cast<uint32_t>(a[l]);
    uint32_t width = static_cast<uint32_t>(b[l]);
    uint32_t a1 = position & 0x1f;
    uint32_t b1 = width & 0x1f;
    uint32_t sum = a1 + b1;
    uint32_t mask0 = ~uint32_t{0} << a1;
    bool overflow = sum >= 32;
    if (Clamp && position >= 32) {
      overflow = true;
      mask0 = 0;
    }
    if (Clamp && width >= 32) overflow = true;
    uint32_t mask1 = overflow ? 0 : (b1 == 0 ? ~uint32_t{0} : ~uint32_t{0} << sum);
    d[l] = mask0 & ~mask1;
  });
}

// The byte or half-word `index` of a 32-bit word, sign- or zero-extended.
template <typename Part>
int64_t part(uint32_t word, unsigned index) {
  return static_cast<Part>(word >> (8 * sizeof(Part) * index));
}

// dp4a.atype.btype d, a, b, c and dp2a.mode.atype.btype d, a, b, c: c plus
// the products of a's parts and b's bytes, modulo 2^32.
template <typename A, typename B, int HalfWords>
void dotHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  unsigned firstByte = static_cast<unsigned>(pi.aux);  // dp2a.hi: bytes 2 and 3 of b
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t x = static_cast<uint32_t>(a[l]);
    uint32_t y = static_cast<uint32_t>(b[l]);
    uint64_t sum = static_cast<uint32_t>(c[l]);
    if constexpr (HalfWords) {
      for (unsigned i = 0; i < 2; ++i)
        sum += static_cast<uint64_t>(part<A>(x, i) * part<B>(y, firstByte + i));
    } else {
      for (unsigned i = 0; i < 4; ++i) sum += static_cast<uint64_t>(part<A>(x, i) * part<B>(y, i));
    }
    d[l] = static_cast<uint32_t>(sum);
  });
}

template <typename Op>
bool selectCount(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  return dispatchInteger16to64(inst.types[0],
                               [&]<typename T>() { pi.handler = &countHandler<Unsigned<T>, Op>; }) ||
         (why = "this type", false);
}

bool selectPopc(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectCount<PopcOp>(inst, pi, why);
}
bool selectClz(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectCount<ClzOp>(inst, pi, why);
}
bool selectBfind(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool shiftAmount = inst.modifiers.has(Mod::Shiftamt);
  if (inst.modifiers.hasGroup(ModGroup::ShiftAmount) && !shiftAmount) {
    why = "this modifier";
    return false;
  }
  return dispatchInteger16to64(inst.types[0],
                               [&]<typename T>() {
                                 pi.handler = shiftAmount ? &countHandler<T, BfindOp<true>>
                                                          : &countHandler<T, BfindOp<false>>;
                               }) ||
         (why = "this type", false);
}
bool selectBrev(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchInteger16to64(inst.types[0],
                               [&]<typename T>() { pi.handler = &brevHandler<Unsigned<T>>; }) ||
         (why = "this type", false);
}
bool selectBfe(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &bfeHandler<T>; }) ||
         (why = "this type", false);
}
bool selectBfi(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &bfiHandler<Unsigned<T>>; }) ||
         (why = "this type", false);
}
bool selectFns(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &fnsHandler;
  return true;
}
bool selectSzext(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool clamp = inst.modifiers.has(Mod::Clamp);
  bool isSigned = inst.types[0] == DataType::S32;
  if (!clamp && !inst.modifiers.has(Mod::Wrap)) {
    why = "szext needs .wrap or .clamp";
    return false;
  }
  if (isSigned) {
    pi.handler = clamp ? &szextHandler<true, true> : &szextHandler<true, false>;
  } else {
    pi.handler = clamp ? &szextHandler<false, true> : &szextHandler<false, false>;
  }
  return true;
}
bool selectBmsk(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool clamp = inst.modifiers.has(Mod::Clamp);
  if (!clamp && !inst.modifiers.has(Mod::Wrap)) {
    why = "bmsk needs .wrap or .clamp";
    return false;
  }
  pi.handler = clamp ? &bmskHandler<true> : &bmskHandler<false>;
  return true;
}

// a's parts are bytes (dp4a) or half-words (dp2a); b's parts are bytes.
template <int HalfWords>
bool selectDot(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  if (inst.typeCount < 2) {
    why = "dp4a/dp2a need .atype.btype";
    return false;
  }
  using APartS = std::conditional_t<HalfWords != 0, int16_t, int8_t>;
  using APartU = std::conditional_t<HalfWords != 0, uint16_t, uint8_t>;
  bool aSigned = inst.types[0] == DataType::S32;
  bool bSigned = inst.types[1] == DataType::S32;
  if (aSigned) {
    pi.handler = bSigned ? &dotHandler<APartS, int8_t, HalfWords> : &dotHandler<APartS, uint8_t, HalfWords>;
  } else {
    pi.handler = bSigned ? &dotHandler<APartU, int8_t, HalfWords> : &dotHandler<APartU, uint8_t, HalfWords>;
  }
  return true;
}

bool selectDp4a(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectDot<0>(inst, pi, why);
}
bool selectDp2a(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod mode = inst.modifiers.get(ModGroup::MulMode);
  if (mode != Mod::MulLo && mode != Mod::MulHi) {
    why = "dp2a needs .lo or .hi";
    return false;
  }
  pi.aux = mode == Mod::MulHi ? 2 : 0;
  return selectDot<1>(inst, pi, why);
}

}  // namespace

void registerIntegerBitSemantics(SemanticsTable& table) {
  table.add(Opcode::Popc, TypeClass::Integer, &selectPopc);
  table.add(Opcode::Clz, TypeClass::Integer, &selectClz);
  table.add(Opcode::Bfind, TypeClass::Integer, &selectBfind);
  table.add(Opcode::Brev, TypeClass::Integer, &selectBrev);
  table.add(Opcode::Bfe, TypeClass::Integer, &selectBfe);
  table.add(Opcode::Bfi, TypeClass::Integer, &selectBfi);
  table.add(Opcode::Fns, TypeClass::Integer, &selectFns);
  table.add(Opcode::Szext, TypeClass::Integer, &selectSzext);
  table.add(Opcode::Bmsk, TypeClass::Integer, &selectBmsk);
  table.add(Opcode::Dp4a, TypeClass::Integer, &selectDp4a);
  table.add(Opcode::Dp2a, TypeClass::Integer, &selectDp2a);
}

}  // namespace ptxsim::sim::semantics
