// Scalar video instructions: vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr
// and vset, with the .asel/.bsel part selectors, .sat, and either the
// secondary operation (.add .min .max with c) or the merge into c (d.dsel).
// vmad is in video_mad.cpp, the SIMD forms in video_simd.cpp.
//
// The PTX ISA's pseudocode where an H100 agrees with it: the parts are
// extracted and extended to .s33, the primary operation gives an exact
// intermediate and .sat clamps it to dtype's range. Where the H100 differs
// (the merge, the secondary operation; see finish()) the hardware's
// behaviour is modelled, and the forms whose rule is not established are
// refused.

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

// The primary operations on the extended parts; the result is exact.
struct AddOp {
  static Int128 apply(const ScalarMode&, int64_t a, int64_t b) { return Int128{a} + b; }
};
struct SubOp {
  static Int128 apply(const ScalarMode&, int64_t a, int64_t b) { return Int128{a} - b; }
};
struct AbsDiffOp {
  static Int128 apply(const ScalarMode&, int64_t a, int64_t b) { return a > b ? Int128{a} - b : Int128{b} - a; }
};
struct MinOp {
  static Int128 apply(const ScalarMode&, int64_t a, int64_t b) { return a < b ? a : b; }
};
struct MaxOp {
  static Int128 apply(const ScalarMode&, int64_t a, int64_t b) { return a > b ? a : b; }
};
// The shift amount is b's part taken unsigned; .clamp caps it at 32, .wrap
// keeps its low five bits. a << 32 needs 65 bits, hence Int128.
inline int64_t shiftAmount(const ScalarMode& m, int64_t b) { return m.extra == Mod::Clamp ? (b > 32 ? 32 : b) : b & 0x1f; }
struct ShlOp {
  static Int128 apply(const ScalarMode& m, int64_t a, int64_t b) { return Int128{a} * (Int128{1} << shiftAmount(m, b)); }
};
struct ShrOp {
  // Arithmetic: an unsigned a is zero-extended, so non-negative.
  static Int128 apply(const ScalarMode& m, int64_t a, int64_t b) { return Int128{a} >> shiftAmount(m, b); }
};
struct SetOp {
  static Int128 apply(const ScalarMode& m, int64_t a, int64_t b) {
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

// optSaturate, then optSecOp or optMerge. Measured on an H100
// (tests/cuda/semantics/video.cu): vset's merge puts the result's low part
// at dsel's position, as the pseudocode says; the secondary operation works
// on the intermediate's low 32 bits, compared signed or unsigned per dtype.
// The merge of the arithmetic instructions is refused by the selector: the
// H100's results follow neither the pseudocode nor one simple rule yet
// (d.h1 took bits 16..31 of vadd's result, d.b1 the low byte of vsub's).
// So is .sat with a merge or a secondary operation.
uint32_t finish(const ScalarMode& m, Int128 tmp, uint32_t c) {
  if (m.dsel != Part::Word) {
    unsigned bits = partBits(m.dsel);
    unsigned shift = m.dsel == Part::H1 ? 16 : m.dsel == Part::H0 ? 0 : 8 * (static_cast<unsigned>(m.dsel) - 1);
    uint32_t field = (bits == 16 ? 0xffffu : 0xffu) << shift;
    return ((static_cast<uint32_t>(tmp) << shift) & field) | (c & ~field);
  }
  if (m.sat) tmp = video::clampToRange(tmp, 32, m.dSigned);
  auto t = static_cast<uint32_t>(tmp);
  bool less = m.dSigned ? static_cast<int32_t>(t) < static_cast<int32_t>(c) : t < c;
  switch (m.secondary) {
    case Secondary::Add: return t + c;
    case Secondary::Min: return less ? t : c;
    case Secondary::Max: return less ? c : t;
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
    d[l] = finish(m, Op::apply(m, ta, tb), c != nullptr ? static_cast<uint32_t>(c[l]) : 0);
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
  if (m.sat && (m.dsel != Part::Word || m.secondary != Secondary::None)) {
    why = ".sat with a merge (d.dsel) or a secondary operation: the H100 does not clamp as the PTX ISA's "
          "pseudocode says, and its rule is not modelled yet";
    return false;
  }
  if (inst.opcode != Opcode::Vset && m.dsel != Part::Word) {
    why = "a merge (d.dsel) of vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr: the H100's results differ from the PTX "
          "ISA's pseudocode and are not modelled yet";
    return false;
  }
  if (inst.opcode == Opcode::Vshl && m.sat) {
    why = "vshl.sat: the H100 does not clamp the shifted value as the PTX ISA's pseudocode says, and its rule is "
          "not modelled yet";
    return false;
  }
  if (inst.opcode == Opcode::Vset) {
    // Measured: vset.s32.s32 compares c signed in .min/.max, vset.u32.u32
    // unsigned; the mixed forms are not measured.
    m.dSigned = m.aSigned && m.bSigned;
    if (m.aSigned != m.bSigned && (m.secondary == Secondary::Min || m.secondary == Secondary::Max)) {
      why = "vset with mixed .u32/.s32 sources and .min/.max: the signedness of c on the H100 is not measured";
      return false;
    }
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
