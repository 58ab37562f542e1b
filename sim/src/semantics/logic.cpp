// Logic and shifts: and, or, xor, not, cnot (bit types and predicates, whose
// sources may be negated `!%p`), lop3 (with the predicate-output form),
// shf.l/.r (.wrap/.clamp), shl, shr, prmt (default and .f4e .b4e .rc8 .ecl
// .ecr .rc16). Checked against an H100 by tests/cuda/semantics/logic_shift.cu.

#include <algorithm>
#include <array>

#include "lane_ops.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct AndOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(a & b);
  }
};
struct OrOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(a | b);
  }
};
struct XorOp {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(a ^ b);
  }
};

// Predicate sources are 0/1 and may be negated.
inline bool predicate(const uint64_t* row, bool negated, unsigned lane) {
  return (row[lane] != 0) != negated;
}

template <typename Op>
void predicateBinaryHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  bool na = pi.ops[1].negated, nb = pi.ops[2].negated;
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = Op::template apply<uint64_t>(predicate(a, na, l), predicate(b, nb, l));
  });
}

void predicateNotHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  bool na = pi.ops[1].negated;
  forLanes(ctx.mask, [&](unsigned l) { d[l] = predicate(a, na, l) ? 0 : 1; });
}

struct NotOp {
  template <typename T>
  static T apply(T a) {
    return static_cast<T>(~a);
  }
};
// cnot: 1 where the source is zero, else 0.
struct CnotOp {
  template <typename T>
  static T apply(T a) {
    return a == 0 ? 1 : 0;
  }
};

template <typename Op>
bool selectLogicBinary(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&,
                       std::string& why) {
  if (inst.types[0] == DataType::Pred) {
    pi.handler = &predicateBinaryHandler<Op>;
    return true;
  }
  return dispatchBits(inst.types[0], [&]<typename T>() { pi.handler = &binaryHandler<T, Op>; }) ||
         (why = "this type", false);
}

bool selectNot(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.types[0] == DataType::Pred) {
    pi.handler = &predicateNotHandler;
    return true;
  }
  return dispatchBits(inst.types[0], [&]<typename T>() { pi.handler = &unaryHandler<T, NotOp>; }) ||
         (why = "this type", false);
}

bool selectCnot(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return dispatchBits(inst.types[0], [&]<typename T>() { pi.handler = &unaryHandler<T, CnotOp>; }) ||
         (why = "this type", false);
}

// The three-input function whose truth table is lut: bit (a<<2 | b<<1 | c)
// of lut, for each bit position (so lut(0xF0, 0xCC, 0xAA) == lut).
inline uint32_t lookup3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t result = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (((lut >> i) & 1) == 0) continue;
    result |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  }
  return result;
}

// lop3.b32 d, a, b, c, lut; and lop3.op.b32 d|p, a, b, c, lut, q with
// p = (d != 0) op q. aux: the BoolOp (Mod::None for the plain form).
void lop3Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto boolOp = static_cast<Mod>(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  const uint64_t* lut = ctx.row(pi.ops[4].row);
  uint64_t* p = boolOp != Mod::None ? ctx.row(pi.ops[0].secondRow) : nullptr;
  const uint64_t* q = boolOp != Mod::None ? ctx.row(pi.ops[5].row) : nullptr;
  bool qNegated = boolOp != Mod::None && pi.ops[5].negated;
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t value = lookup3(static_cast<uint32_t>(a[l]), static_cast<uint32_t>(b[l]),
                             static_cast<uint32_t>(c[l]), static_cast<uint32_t>(lut[l]) & 0xff);
    d[l] = value;
    if (p == nullptr) return;
    bool qv = predicate(q, qNegated, l);
    p[l] = boolOp == Mod::BoolAnd ? (value != 0 && qv) : (value != 0 || qv);
  });
}

bool selectLop3(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod boolOp = inst.modifiers.get(ModGroup::BoolOp);
  bool predicateForm = pi.ops[0].secondRow != exec::kNoRow;
  if (boolOp == Mod::BoolXor) {
    why = "lop3 combines its predicate with .and or .or only";
    return false;
  }
  if (predicateForm != (boolOp != Mod::None) || (boolOp != Mod::None && inst.operandCount < 6)) {
    why = "the predicate form needs .and/.or, a `d|p` destination and a q source";
    return false;
  }
  pi.aux = static_cast<uint64_t>(boolOp);
  pi.handler = &lop3Handler;
  return true;
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the funnel b:a shifted by c.
template <bool Left, bool Clamp>
void shfHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    uint32_t amount = static_cast<uint32_t>(c[l]);
    unsigned n = Clamp ? std::min(amount, 32u) : (amount & 31u);
    uint64_t funnel =
        (static_cast<uint64_t>(static_cast<uint32_t>(b[l])) << 32) | static_cast<uint32_t>(a[l]);
    d[l] = Left ? static_cast<uint32_t>((funnel << n) >> 32) : static_cast<uint32_t>(funnel >> n);
  });
}

bool selectShf(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool left = inst.modifiers.has(Mod::ShfL);
  bool clamp = inst.modifiers.has(Mod::Clamp);
  if ((!left && !inst.modifiers.has(Mod::ShfR)) || (!clamp && !inst.modifiers.has(Mod::Wrap))) {
    why = "shf needs .l/.r and .wrap/.clamp";
    return false;
  }
  if (left) {
    pi.handler = clamp ? &shfHandler<true, true> : &shfHandler<true, false>;
  } else {
    pi.handler = clamp ? &shfHandler<false, true> : &shfHandler<false, false>;
  }
  return true;
}

// Shift amounts are unsigned 32-bit; amounts past the width clamp to it:
// shl and logical shr give 0, arithmetic shr fills with the sign.
struct ShlOp {
  template <typename T>
  static T apply(T a, uint32_t n) {
    return n >= 8 * sizeof(T) ? T{0} : static_cast<T>(a << n);
  }
};
struct ShrOp {
  template <typename T>
  static T apply(T a, uint32_t n) {
    if (n >= 8 * sizeof(T)) return std::is_signed_v<T> && a < 0 ? T(-1) : T{0};
    return static_cast<T>(a >> n);
  }
};

template <typename T, typename Op>
void shiftHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<T>(Op::template apply<T>(fromBits<T>(a[l]), static_cast<uint32_t>(b[l])));
  });
}

template <typename Op>
bool selectShift(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  // Bit and unsigned types shift logically, signed types arithmetically.
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &shiftHandler<T, Op>; }) ||
         (why = "this type", false);
}
bool selectShl(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectShift<ShlOp>(inst, pi, why);
}
bool selectShr(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectShift<ShrOp>(inst, pi, why);
}

// prmt: each result byte picks one of the eight bytes of b:a (a is bytes
// 0-3). The default mode reads a 4-bit selector per byte from c, whose top
// bit replicates the picked byte's sign; the other modes take c[1:0] and a
// fixed pattern.
enum class PermuteMode : uint8_t { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };

inline unsigned modeByte(PermuteMode mode, unsigned s, unsigned i) {
  switch (mode) {
    case PermuteMode::F4e: return (s + i) & 7;
    case PermuteMode::B4e: return (s - i) & 7;
    case PermuteMode::Rc8: return s;
    case PermuteMode::Ecl: return std::max(i, s);
    case PermuteMode::Ecr: return std::min(i, s);
    case PermuteMode::Rc16: return 2 * (s & 1) + (i & 1);
    default: return 0;
  }
}

uint32_t permute(uint32_t a, uint32_t b, uint32_t c, PermuteMode mode) {
  uint64_t source = (static_cast<uint64_t>(b) << 32) | a;
  uint32_t result = 0;
  for (unsigned i = 0; i < 4; ++i) {
    uint32_t byte;
    if (mode == PermuteMode::Default) {
      unsigned selector = (c >> (4 * i)) & 0xf;
      byte = static_cast<uint32_t>(source >> (8 * (selector & 7))) & 0xff;
      if ((selector & 8) != 0) byte = (byte & 0x80) != 0 ? 0xff : 0x00;
    } else {
      byte = static_cast<uint32_t>(source >> (8 * modeByte(mode, c & 3, i))) & 0xff;
    }
    result |= byte << (8 * i);
  }
  return result;
}

void prmtHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto mode = static_cast<PermuteMode>(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] =
        permute(static_cast<uint32_t>(a[l]), static_cast<uint32_t>(b[l]), static_cast<uint32_t>(c[l]), mode);
  });
}

bool selectPrmt(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  PermuteMode mode;
  switch (inst.modifiers.get(ModGroup::PermuteMode)) {
    case Mod::None: mode = PermuteMode::Default; break;
    case Mod::F4e: mode = PermuteMode::F4e; break;
    case Mod::B4e: mode = PermuteMode::B4e; break;
    case Mod::Rc8: mode = PermuteMode::Rc8; break;
    case Mod::Ecl: mode = PermuteMode::Ecl; break;
    case Mod::Ecr: mode = PermuteMode::Ecr; break;
    case Mod::Rc16: mode = PermuteMode::Rc16; break;
    default: why = "this prmt mode"; return false;
  }
  pi.aux = static_cast<uint64_t>(mode);
  pi.handler = &prmtHandler;
  return true;
}

}  // namespace

// Bit-only mnemonics register for any type class (predicates have none).
void registerLogicSemantics(SemanticsTable& table) {
  table.add(Opcode::And, &selectLogicBinary<AndOp>);
  table.add(Opcode::Or, &selectLogicBinary<OrOp>);
  table.add(Opcode::Xor, &selectLogicBinary<XorOp>);
  table.add(Opcode::Not, &selectNot);
  table.add(Opcode::Cnot, &selectCnot);
  table.add(Opcode::Lop3, &selectLop3);
  table.add(Opcode::Shf, &selectShf);
  table.add(Opcode::Shl, &selectShl);
  table.add(Opcode::Shr, &selectShr);
  table.add(Opcode::Prmt, &selectPrmt);
}

}  // namespace ptxsim::sim::semantics
