// Scalar video instructions: vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr
// and vset, with the .asel/.bsel part selectors, .sat, and either the
// secondary operation (.add .min .max with c) or the merge into c (d.dsel).
// vmad is in video_mad.cpp, the SIMD forms in video_simd.cpp.
//
// sm_90 has no video hardware: ptxas expands each instruction into an
// integer sequence, and that sequence is what an H100 computes (read from
// the SASS of every form in the conformance suite, and proved by its
// recording). The parts are extracted and extended per atype/btype to
// 64 bits and the primary operation is exact there; how .sat clamps and
// what the secondary operation compares then differ by instruction (see
// finish()). The merge is modelled for vset only.

#include "lane_ops.h"
#include "video_common.h"

namespace ptxsim::sim::semantics {

namespace video {

bool isSignedType(isa::DataType t) { return t == isa::DataType::S32; }

bool scalarPart(const isa::Operand& op, Part& part, std::string& why) {
  const isa::VideoSelector& s = op.select;
  if (s.kind == 0) {
    part = Part::Word;
    return true;
  }
  if (s.count == 1 && s.kind == 'b' && s.digits[0] <= 3) {
    part = static_cast<Part>(static_cast<unsigned>(Part::B0) + s.digits[0]);
    return true;
  }
  if (s.count == 1 && s.kind == 'h' && s.digits[0] <= 1) {
    part = static_cast<Part>(static_cast<unsigned>(Part::H0) + s.digits[0]);
    return true;
  }
  why = "a scalar video instruction's selector is one of .b0 .b1 .b2 .b3 .h0 .h1";
  return false;
}

bool noNegation(const isa::Instruction& inst, const SelectContext& sc, std::string& why) {
  for (unsigned i = 0; i < inst.operandCount; ++i) {
    if (operandOf(inst, sc, i).minus) {
      why = "a negated operand (-%r) outside vmad";
      return false;
    }
  }
  return true;
}

}  // namespace video

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using video::Part;

enum class Secondary : uint8_t { None, Add, Min, Max };

struct ScalarMode {
  bool aSigned = false, bSigned = false, dSigned = false, sat = false;
  Part asel = Part::Word, bsel = Part::Word;
  Part dsel = Part::Word;  // Word: no merge
  Secondary secondary = Secondary::None;
  Mod extra = Mod::None;  // vset: the comparison; vshl/vshr: .clamp or .wrap
};

// What the value after the primary operation and .sat looks like to the
// secondary operation, per instruction (measured in ptxas's sequences):
// vadd/vsub add in 32 bits and sign-extend the low word (SHF.R.S32.HI of
// the sum, also after .sat); vabsdiff/vmin/vmax keep the exact 64-bit value;
// vshl/vshr keep the 64-bit shifted value, but sign-extend the low word
// after .sat.
enum class Rewrap : uint8_t { Always, Never, AfterSat };

// The primary operations on the extended parts, exact in 64 bits (the parts
// have at most 33 significant bits). Each also names its Rewrap and whether
// an unsigned .sat clamps at both ends (vshl/vshr) or only below zero (the
// others: ptxas's sequence keeps the low word of a non-negative value, so
// vadd.u32.u32.u32.sat of 0xffffffff + 1 gives 0).
struct AddOp {
  static constexpr Rewrap kRewrap = Rewrap::Always;
  static constexpr bool kClampsUnsignedAbove = false;
  static int64_t apply(const ScalarMode&, int64_t a, int64_t b) { return a + b; }
};
struct SubOp {
  static constexpr Rewrap kRewrap = Rewrap::Always;
  static constexpr bool kClampsUnsignedAbove = false;
  static int64_t apply(const ScalarMode&, int64_t a, int64_t b) { return a - b; }
};
struct AbsDiffOp {
  static constexpr Rewrap kRewrap = Rewrap::Never;
  static constexpr bool kClampsUnsignedAbove = false;
  static int64_t apply(const ScalarMode&, int64_t a, int64_t b) { return a > b ? a - b : b - a; }
};
struct MinOp {
  static constexpr Rewrap kRewrap = Rewrap::Never;
  static constexpr bool kClampsUnsignedAbove = false;
  static int64_t apply(const ScalarMode&, int64_t a, int64_t b) { return a < b ? a : b; }
};
struct MaxOp {
  static constexpr Rewrap kRewrap = Rewrap::Never;
  static constexpr bool kClampsUnsignedAbove = false;
  static int64_t apply(const ScalarMode&, int64_t a, int64_t b) { return a > b ? a : b; }
};
// The shift amount is b's part taken unsigned; .clamp caps it at 32, .wrap
// keeps its low five bits. The shift is a 64-bit one (SHF.L.U64.HI,
// SHF.R.S64): a << 32 of a zero-extended a wraps into the sign bit.
inline unsigned shiftAmount(const ScalarMode& m, int64_t b) {
  return static_cast<unsigned>(m.extra == Mod::Clamp ? (b > 32 ? 32 : b) : b & 0x1f);
}
struct ShlOp {
  static constexpr Rewrap kRewrap = Rewrap::AfterSat;
  static constexpr bool kClampsUnsignedAbove = true;
  static int64_t apply(const ScalarMode& m, int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) << shiftAmount(m, b));
  }
};
struct ShrOp {
  static constexpr Rewrap kRewrap = Rewrap::AfterSat;
  static constexpr bool kClampsUnsignedAbove = true;
  // Arithmetic: an unsigned a is zero-extended, so non-negative.
  static int64_t apply(const ScalarMode& m, int64_t a, int64_t b) { return a >> shiftAmount(m, b); }
};
struct SetOp {
  static constexpr Rewrap kRewrap = Rewrap::Never;
  static constexpr bool kClampsUnsignedAbove = false;  // vset has no .sat
  static int64_t apply(const ScalarMode& m, int64_t a, int64_t b) {
    switch (m.extra) {
      case Mod::Eq: return a == b;
      case Mod::Ne: return a != b;
      case Mod::Lt: return a < b;
      case Mod::Le: return a <= b;
      case Mod::Gt: return a > b;
      default: return a >= b;  // Ge; the selector admits nothing else
    }
  }
};

unsigned partBits(Part p) {
  if (p == Part::Word) return 32;
  return p == Part::H0 || p == Part::H1 ? 16 : 8;
}

int64_t signExtendLow32(int64_t v) { return int64_t{static_cast<int32_t>(static_cast<uint32_t>(v))}; }

// .sat as ptxas expands it: the value is first taken as the ISA's .s34
// intermediate (its bits above 33 are dropped and bit 33 sign-extended:
// vshl of 0x7fffffff by 31 is negative there), then clamped to dtype's
// range; an unsigned clamp only lifts negative values to 0 unless the
// instruction clamps above too.
template <typename Op>
int64_t saturate(const ScalarMode& m, int64_t v) {
  v = static_cast<int64_t>(static_cast<uint64_t>(v) << 30) >> 30;
  if (m.dSigned) return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v;
  if (v < 0) return 0;
  return Op::kClampsUnsignedAbove && v > int64_t{UINT32_MAX} ? int64_t{UINT32_MAX} : v;
}

// optSaturate, then optSecOp or optMerge. vset's merge puts the result's low
// part at dsel's position, as the pseudocode says (measured,
// tests/cuda/semantics/video.cu); the merge of the arithmetic instructions
// is refused by the selector: the H100's results follow neither the
// pseudocode nor one simple rule yet (d.h1 took bits 16..31 of vadd's
// result, d.b1 the low byte of vsub's). The secondary operation .min/.max
// compares the 64-bit value (see Rewrap) with c sign-extended and signed
// when dtype is .s32, zero-extended and unsigned when .u32 (ISETP...EX on
// the value's high word), so for vadd.u32 a sum with bit 31 set is above
// every c.
template <typename Op>
uint32_t finish(const ScalarMode& m, int64_t v, uint32_t c) {
  if (m.dsel != Part::Word) {
    unsigned bits = partBits(m.dsel);
    unsigned shift = m.dsel == Part::H1 ? 16 : m.dsel == Part::H0 ? 0 : 8 * (static_cast<unsigned>(m.dsel) - 1);
    uint32_t field = (bits == 16 ? 0xffffu : 0xffu) << shift;
    return ((static_cast<uint32_t>(v) << shift) & field) | (c & ~field);
  }
  if (m.sat) v = saturate<Op>(m, v);
  if (Op::kRewrap == Rewrap::Always || (Op::kRewrap == Rewrap::AfterSat && m.sat)) v = signExtendLow32(v);
  int64_t cw = m.dSigned ? int64_t{static_cast<int32_t>(c)} : int64_t{c};
  bool less = m.dSigned ? v < cw : static_cast<uint64_t>(v) < static_cast<uint64_t>(cw);
  bool greater = m.dSigned ? v > cw : static_cast<uint64_t>(v) > static_cast<uint64_t>(cw);
  auto t = static_cast<uint32_t>(v);
  switch (m.secondary) {
    case Secondary::Add: return t + c;
    case Secondary::Min: return less ? t : c;
    case Secondary::Max: return greater ? t : c;
    case Secondary::None: break;
  }
  return t;
}

template <typename Op>
void scalarHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto m = video::loadMode<ScalarMode>(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = pi.operandCount > 3 ? ctx.row(pi.ops[3].row) : nullptr;
  forLanes(ctx.mask, [&](unsigned l) {
    int64_t ta = video::extractPart(static_cast<uint32_t>(a[l]), m.asel, m.aSigned);
    int64_t tb = video::extractPart(static_cast<uint32_t>(b[l]), m.bsel, m.bSigned);
    d[l] = finish<Op>(m, Op::apply(m, ta, tb), c != nullptr ? static_cast<uint32_t>(c[l]) : 0);
  });
}

template <typename Op>
bool selectScalar(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  if (!video::noNegation(inst, sc, why)) return false;
  ScalarMode m;
  if (inst.opcode == Opcode::Vset) {
    // vset.atype.btype.cmp: the 0/1 result, d and c are unsigned.
    m.aSigned = video::isSignedType(inst.types[0]);
    m.bSigned = video::isSignedType(inst.types[1]);
    // .min/.max compare c with the 0/1 result signed, c sign-extended, when
    // atype is .s32 and unsigned otherwise, whatever btype is (ptxas).
    m.dSigned = m.aSigned;
    m.extra = inst.modifiers.get(ModGroup::Compare);
    if (m.extra != Mod::Eq && m.extra != Mod::Ne && m.extra != Mod::Lt && m.extra != Mod::Le && m.extra != Mod::Gt &&
        m.extra != Mod::Ge) {
      why = "vset compares with .eq .ne .lt .le .gt .ge";
      return false;
    }
  } else {
    m.dSigned = video::isSignedType(inst.types[0]);
    m.aSigned = video::isSignedType(inst.types[1]);
    m.bSigned = video::isSignedType(inst.types[2]);
    m.sat = inst.modifiers.has(Mod::Sat);
  }
  if (inst.opcode == Opcode::Vshl || inst.opcode == Opcode::Vshr) {
    m.bSigned = false;  // the shift amount is .u32
    m.extra = inst.modifiers.get(ModGroup::ShiftClamp);
    if (m.extra == Mod::None) {
      why = "vshl/vshr without .clamp or .wrap";
      return false;
    }
  }
  if (!video::scalarPart(video::operandOf(inst, sc, 0), m.dsel, why) ||
      !video::scalarPart(video::operandOf(inst, sc, 1), m.asel, why) ||
      !video::scalarPart(video::operandOf(inst, sc, 2), m.bsel, why)) {
    return false;
  }
  switch (inst.modifiers.get(ModGroup::ReduceOp)) {
    case Mod::None: break;
    case Mod::RedAdd: m.secondary = Secondary::Add; break;
    case Mod::RedMin: m.secondary = Secondary::Min; break;
    case Mod::RedMax: m.secondary = Secondary::Max; break;
    default: why = "the secondary operation is one of .add .min .max"; return false;
  }
  if (inst.opcode != Opcode::Vset && m.dsel != Part::Word) {
    why = "a merge (d.dsel) of vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr: the H100's results differ from the PTX "
          "ISA's pseudocode and are not modelled yet";
    return false;
  }
  bool hasC = inst.operandCount > 3;
  if (m.dsel != Part::Word && m.secondary != Secondary::None) {
    why = "a merge (d.dsel) together with a secondary operation";
    return false;
  }
  if ((m.dsel != Part::Word || m.secondary != Secondary::None) != hasC) {
    why = hasC ? "a third operand c without a secondary operation or d.dsel merge"
               : "a secondary operation or d.dsel merge without the third operand c";
    return false;
  }
  video::storeMode(pi, m);
  pi.handler = &scalarHandler<Op>;
  return true;
}

}  // namespace

void registerVideoSemantics(SemanticsTable& table) {
  using C = TypeClass;
  table.add(Opcode::Vadd, C::Integer, &selectScalar<AddOp>);
  table.add(Opcode::Vsub, C::Integer, &selectScalar<SubOp>);
  table.add(Opcode::Vabsdiff, C::Integer, &selectScalar<AbsDiffOp>);
  table.add(Opcode::Vmin, C::Integer, &selectScalar<MinOp>);
  table.add(Opcode::Vmax, C::Integer, &selectScalar<MaxOp>);
  table.add(Opcode::Vshl, C::Integer, &selectScalar<ShlOp>);
  table.add(Opcode::Vshr, C::Integer, &selectScalar<ShrOp>);
  table.add(Opcode::Vset, C::Integer, &selectScalar<SetOp>);
  video::registerVideoMadSemantics(table);
  video::registerVideoSimdSemantics(table);
}

}  // namespace ptxsim::sim::semantics
