// cvt: conversions among integers, f16, bf16, tf32, f32, f64, and the
// packing forms (f16x2/bf16x2 from two f32; e4m3x2/e5m2x2 from two f32 or
// an f16x2, and back to f16x2). The per-element conversion is
// convert_value.h; this file picks the plan and the packing shape.

#include <cstring>

#include "convert_value.h"
#include "lane_ops.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using cvt::Elem;
using cvt::Plan;

// How the element conversions combine into the destination.
enum class Shape : uint8_t {
  Scalar,      // d = convert(a)
  PairTo16x2,  // d[31:16] = convert(a), d[15:0] = convert(b)
  PairTo8x2,   // d[15:8] = convert(a), d[7:0] = convert(b)
  Half2To8x2,  // d[15:8] = convert(a[31:16]), d[7:0] = convert(a[15:0])
  Byte2To16x2, // d[31:16] = convert(a[15:8]), d[15:0] = convert(a[7:0])
};

// Besides the plan, what the handler needs to know.
struct Extra {
  Shape shape = Shape::Scalar;
  uint8_t destRegisterBits = 64;  // a signed result is sign-extended to this width
  bool destSigned = false;
};

// Plan and Extra, kept in pi.aux and pi.aux2.
struct Prepared {
  Plan plan;
  Extra extra;
};
static_assert(sizeof(Prepared) <= 2 * sizeof(uint64_t));

Prepared preparedOf(const PreparedInstruction& pi) {
  uint64_t words[2] = {pi.aux, pi.aux2};
  Prepared prepared;
  std::memcpy(static_cast<void*>(&prepared), words, sizeof prepared);
  return prepared;
}
Plan planOf(const PreparedInstruction& pi) { return preparedOf(pi).plan; }

// A signed result written to a wider register is sign-extended to the
// register's width (PTX "relaxed type-checking rules"); others are
// zero-extended, which the slot already is.
inline uint64_t widen(const Extra& e, unsigned bits, uint64_t value) {
  if (!e.destSigned || e.destRegisterBits <= bits) return value;
  return static_cast<uint64_t>(cvt::signExtend(value, bits)) & cvt::widthMask(e.destRegisterBits);
}

void scalarHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const Prepared prepared = preparedOf(pi);
  const Plan& p = prepared.plan;
  const Extra& e = prepared.extra;
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = widen(e, p.dst.bits, cvt::convert(p, a[l])); });
}

template <unsigned kElemBits>
void pairHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const Plan p = planOf(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = (cvt::convert(p, a[l]) << kElemBits) | cvt::convert(p, b[l]); });
}

// One packed source: its upper element converts into the upper half of d.
template <unsigned kSrcBits, unsigned kDstBits>
void unpackHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const Plan p = planOf(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  constexpr uint64_t kMask = (uint64_t{1} << kSrcBits) - 1;
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = (cvt::convert(p, (a[l] >> kSrcBits) & kMask) << kDstBits) | cvt::convert(p, a[l] & kMask);
  });
}

// The element kind of a scalar type; false for packed and other types.
bool sideOf(DataType t, cvt::Side& side) {
  side.bits = static_cast<uint8_t>(isa::typeBits(t));
  side.isSigned = isa::typeKind(t) == isa::TypeKind::Signed;
  switch (t) {
    case DataType::F16: side.elem = Elem::F16; return true;
    case DataType::BF16: side.elem = Elem::BF16; return true;
    case DataType::TF32: side.elem = Elem::TF32; return true;
    case DataType::F32: side.elem = Elem::F32; return true;
    case DataType::F64: side.elem = Elem::F64; return true;
    default: break;
  }
  switch (isa::typeKind(t)) {
    case isa::TypeKind::Bits:
    case isa::TypeKind::Signed:
    case isa::TypeKind::Unsigned:
      side.elem = Elem::Int;
      return side.bits >= 8 && side.bits <= 64;
    default: return false;
  }
}

sf::Round roundOf(Mod m) {
  switch (m) {
    case Mod::Rz:
    case Mod::Rzi: return sf::Round::Zero;
    case Mod::Rm:
    case Mod::Rmi: return sf::Round::Down;
    case Mod::Rp:
    case Mod::Rpi: return sf::Round::Up;
    case Mod::Rna: return sf::Round::NearestAway;
    default: return sf::Round::Nearest;
  }
}

// The declared width of the destination register (a wider register than
// the type is allowed for cvt).
unsigned destRegisterBits(const isa::Instruction& inst, const SelectContext& sc, unsigned fallback) {
  const isa::Operand& op = sc.function.operands[inst.firstOperand];
  if (op.kind != isa::OperandKind::Register || op.index >= sc.function.registers.size()) return fallback;
  unsigned bits = isa::typeBits(sc.function.registers[op.index].type);
  return bits >= fallback && bits <= 64 ? bits : fallback;
}

// The packing forms: f16x2/bf16x2 from two f32, and the 8-bit float pairs.
bool selectPacked(const isa::Instruction& inst, PreparedInstruction& pi, Plan& p, Extra& e, std::string& why) {
  DataType dst = inst.types[0];
  DataType src = inst.types[1];
  Mod rounding = inst.modifiers.get(ModGroup::Rounding);
  bool f8dst = dst == DataType::E4M3x2 || dst == DataType::E5M2x2;
  bool f8src = src == DataType::E4M3x2 || src == DataType::E5M2x2;
  Elem f8 = (dst == DataType::E4M3x2 || src == DataType::E4M3x2) ? Elem::E4M3 : Elem::E5M2;
  if (inst.modifiers.hasGroup(ModGroup::Ftz) || p.sat) {
    why = ".ftz and .sat do not apply to packed conversions";
    return false;
  }
  if ((dst == DataType::F16x2 || dst == DataType::BF16x2) && src == DataType::F32) {
    if (rounding != Mod::Rn && rounding != Mod::Rz) {
      why = "packed f16x2/bf16x2 conversion needs .rn or .rz (.rs is sm_100a, not implemented)";
      return false;
    }
    if (inst.operandCount != 3) {
      why = "cvt to .f16x2/.bf16x2 takes two .f32 sources";
      return false;
    }
    p.mode = roundOf(rounding);
    p.src = {Elem::F32, 32, false};
    p.dst = {dst == DataType::F16x2 ? Elem::F16 : Elem::BF16, 16, false};
    e.shape = Shape::PairTo16x2;
    pi.handler = &pairHandler<16>;
    return true;
  }
  if (rounding != Mod::Rn) {
    why = "conversions with 8-bit float pairs need .rn";
    return false;
  }
  if (f8dst && (src == DataType::F32 || src == DataType::F16x2)) {
    if (!p.satfinite) {
      why = "conversion to .e4m3x2/.e5m2x2 needs .satfinite";
      return false;
    }
    p.dst = {f8, 8, false};
    if (src == DataType::F32) {
      if (inst.operandCount != 3) {
        why = "cvt to an 8-bit float pair from .f32 takes two sources";
        return false;
      }
      p.src = {Elem::F32, 32, false};
      e.shape = Shape::PairTo8x2;
      pi.handler = &pairHandler<8>;
    } else {
      p.src = {Elem::F16, 16, false};
      e.shape = Shape::Half2To8x2;
      pi.handler = &unpackHandler<16, 8>;
    }
    return inst.operandCount == 2 || e.shape == Shape::PairTo8x2 || (why = "one .f16x2 source", false);
  }
  if (dst == DataType::F16x2 && f8src) {
    if (p.satfinite || inst.operandCount != 2) {
      why = "cvt.rn{.relu}.f16x2.e4m3x2/e5m2x2 d, a is the only form from 8-bit float pairs";
      return false;
    }
    p.src = {f8, 8, false};
    p.dst = {Elem::F16, 16, false};
    e.shape = Shape::Byte2To16x2;
    pi.handler = &unpackHandler<8, 16>;
    return true;
  }
  why = "this packed conversion (e2m1x2, e2m3x2, e3m2x2 and ue8m0x2 are sm_100 formats, not implemented)";
  return false;
}

bool selectCvt(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  if (inst.typeCount != 2) {
    why = "cvt needs a destination and a source type";
    return false;
  }
  Plan p;
  Extra e;
  Mod rounding = inst.modifiers.get(ModGroup::Rounding);
  Mod intRounding = inst.modifiers.get(ModGroup::IntRounding);
  p.sat = inst.modifiers.has(Mod::Sat);
  p.satfinite = inst.modifiers.has(Mod::Satfinite);
  p.relu = inst.modifiers.has(Mod::Relu);
  p.ftz = inst.modifiers.has(Mod::Ftz);
  if (rounding == Mod::Rs) {
    why = "stochastic rounding .rs (sm_100a) is not implemented";
    return false;
  }
  cvt::Side dst;
  cvt::Side src;
  bool scalar = sideOf(inst.types[0], dst) && sideOf(inst.types[1], src);
  if (!scalar) {
    if (!selectPacked(inst, pi, p, e, why)) return false;
  } else {
    if (inst.operandCount != 2) {
      why = "a scalar cvt takes one source";
      return false;
    }
    p.src = src;
    p.dst = dst;
    bool srcFloat = src.elem != Elem::Int;
    bool dstFloat = dst.elem != Elem::Int;
    if (src.elem == Elem::TF32) {
      why = ".tf32 is only a destination type of cvt";
      return false;
    }
    if (dst.elem == Elem::TF32 && (src.elem != Elem::F32 || (rounding != Mod::Rna && rounding != Mod::Rn &&
                                                               rounding != Mod::Rz))) {
      why = "cvt to .tf32 is from .f32 with .rna, .rn or .rz";
      return false;
    }
    if (srcFloat && !dstFloat) {
      // Float to integer: integer rounding is required.
      if (intRounding == Mod::None) {
        why = "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi";
        return false;
      }
      p.mode = roundOf(intRounding);
    } else if (!srcFloat && dstFloat) {
      if (rounding == Mod::None) {
        why = "integer-to-float cvt needs .rn, .rz, .rm or .rp";
        return false;
      }
      p.mode = roundOf(rounding);
    } else if (srcFloat && dstFloat) {
      const sf::Format& sfmt = cvt::formatOf(src.elem);
      const sf::Format& dfmt = cvt::formatOf(dst.elem);
      bool narrowing = dfmt.manBits < sfmt.manBits || dfmt.expBits < sfmt.expBits;
      bool halfToHalf = (src.elem == Elem::F16 && dst.elem == Elem::BF16) ||
                        (src.elem == Elem::BF16 && dst.elem == Elem::F16);
      if (intRounding != Mod::None) {
        if (src.elem != dst.elem) {
          why = "integer rounding of a float needs the same source and destination type";
          return false;
        }
        p.integral = true;
        p.mode = roundOf(intRounding);
      } else if (narrowing && rounding == Mod::None && !halfToHalf) {
        why = "a narrowing float conversion needs a rounding modifier";
        return false;
      } else {
        // ptxas accepts cvt.bf16.f16 and cvt.f16.bf16 without a rounding
        // modifier and compiles them as .rn (the SASS of cvt.rn.bf16.f16:
        // F2F.BF16.F16).
        p.mode = roundOf(rounding);
      }
    }
    e.destSigned = dst.isSigned && dst.elem == Elem::Int;
    e.destRegisterBits = static_cast<uint8_t>(destRegisterBits(inst, sc, dst.bits));
    pi.handler = &scalarHandler;
  }
  Prepared prepared{p, e};
  uint64_t words[2] = {};
  std::memcpy(words, &prepared, sizeof prepared);
  pi.aux = words[0];
  pi.aux2 = words[1];
  return true;
}

}  // namespace

void registerConvertSemantics(SemanticsTable& table) { table.add(Opcode::Cvt, &selectCvt); }

}  // namespace ptxsim::sim::semantics
