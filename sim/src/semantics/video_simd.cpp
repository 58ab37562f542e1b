// SIMD video instructions: vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2
// on half-word pairs and their byte-quad counterparts vadd4 .. vset4, with
// the per-element source selectors (.hxy, .bxyzw: element i takes part
// digit i, counted from the right, of the 64-bit {b, a}), .sat, the
// destination mask, and either the merge into c (elements outside the mask
// come from c) or the accumulate .add (the masked elements' exact results
// are added to c), as in the PTX ISA's pseudocode.

#include "lane_ops.h"
#include "video_common.h"

namespace ptxsim::sim::semantics::video {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct SimdMode {
  uint8_t elements = 2;  // 2 half-words or 4 bytes
  bool aSigned = false, bSigned = false, dSigned = false, sat = false, accumulate = false;
  uint8_t mask = 0;  // bit i: element i is written (merge) or added (.add)
  uint8_t cmp = 0;   // vset2/vset4: index into kCompares
  std::array<uint8_t, 4> asel{}, bsel{};
};

constexpr Mod kCompares[] = {Mod::Eq, Mod::Ne, Mod::Lt, Mod::Le, Mod::Gt, Mod::Ge};

struct AddOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) { return a + b; }
};
struct SubOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) { return a - b; }
};
// The average rounds half away from zero: (s + 1) >> 1 for s >= 0, s >> 1
// (floor) below.
struct AvrgOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) {
    int64_t s = a + b;
    return s >= 0 ? (s + 1) >> 1 : s >> 1;
  }
};
struct AbsDiffOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) { return a > b ? a - b : b - a; }
};
struct MinOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) { return a < b ? a : b; }
};
struct MaxOp {
  static int64_t apply(const SimdMode&, int64_t a, int64_t b) { return a > b ? a : b; }
};
struct SetOp {
  static int64_t apply(const SimdMode& m, int64_t a, int64_t b) {
    switch (kCompares[m.cmp]) {
      case Mod::Eq: return a == b;
      case Mod::Ne: return a != b;
      case Mod::Lt: return a < b;
      case Mod::Le: return a <= b;
      case Mod::Gt: return a > b;
      default: return a >= b;
    }
  }
};

// Part `index` (of `width` bits) of the 64-bit {b, a}, sign- or zero-extended.
int64_t field(uint64_t ab, unsigned index, unsigned width, bool isSigned) {
  uint64_t raw = (ab >> (index * width)) & ((uint64_t{1} << width) - 1);
  if (isSigned && (raw >> (width - 1)) != 0) return static_cast<int64_t>(raw) - (int64_t{1} << width);
  return static_cast<int64_t>(raw);
}

template <typename Op>
uint32_t simdLane(const SimdMode& m, uint32_t a, uint32_t b, uint32_t c) {
  uint64_t ab = (uint64_t{b} << 32) | a;
  unsigned width = 32 / m.elements;
  uint32_t fieldMask = width == 16 ? 0xffffu : 0xffu;
  uint32_t d = m.accumulate ? c : 0;
  for (unsigned i = 0; i < m.elements; ++i) {
    int64_t t = Op::apply(m, field(ab, m.asel[i], width, m.aSigned), field(ab, m.bsel[i], width, m.bSigned));
    if (m.sat) t = static_cast<int64_t>(clampToRange(t, width, m.dSigned));
    bool selected = ((m.mask >> i) & 1) != 0;
    if (m.accumulate) {
      if (selected) d += static_cast<uint32_t>(t);  // wraps modulo 2^32
    } else {
      uint32_t value = selected ? static_cast<uint32_t>(t) : c >> (i * width);
      d |= (value & fieldMask) << (i * width);
    }
  }
  return d;
}

template <typename Op>
void simdHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto m = loadMode<SimdMode>(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = simdLane<Op>(m, static_cast<uint32_t>(a[l]), static_cast<uint32_t>(b[l]), static_cast<uint32_t>(c[l]));
  });
}

// A source selector: one digit per element, each naming one of the
// 2*elements parts of {b, a}; absent, the default (a's parts for a, b's for b).
bool sourceSelector(const isa::Operand& op, const SimdMode& m, bool isB, std::array<uint8_t, 4>& sel,
                    std::string& why) {
  char kind = m.elements == 2 ? 'h' : 'b';
  for (unsigned i = 0; i < m.elements; ++i) sel[i] = static_cast<uint8_t>(i + (isB ? m.elements : 0));
  if (op.select.kind == 0) return true;
  bool ok = op.select.kind == kind && op.select.count == m.elements;
  for (unsigned i = 0; ok && i < m.elements; ++i) {
    ok = op.select.digits[i] < 2 * m.elements;
    sel[i] = op.select.digits[i];
  }
  if (!ok) why = m.elements == 2 ? "a vop2 source selector is .hxy with x, y in 0..3"
                                 : "a vop4 source selector is .bxyzw with digits in 0..7";
  return ok;
}

// The destination mask: element digits in descending order (.h10, .b310).
bool destinationMask(const isa::Operand& op, SimdMode& m, std::string& why) {
  m.mask = static_cast<uint8_t>((1u << m.elements) - 1);
  if (op.select.kind == 0) return true;
  bool ok = op.select.kind == (m.elements == 2 ? 'h' : 'b') && op.select.count <= m.elements;
  m.mask = 0;
  for (unsigned i = 0; ok && i < op.select.count; ++i) {
    unsigned digit = op.select.digits[i];
    ok = digit < m.elements && (i == 0 || digit > op.select.digits[i - 1]);
    m.mask = static_cast<uint8_t>(m.mask | (1u << digit));
  }
  if (!ok) why = m.elements == 2 ? "a vop2 destination mask is .h0 .h1 or .h10" : "a vop4 destination mask is .b3210 or a subset of its digits, in that order";
  return ok;
}

template <typename Op, unsigned Elements>
bool selectSimd(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  if (!noNegation(inst, sc, why)) return false;
  SimdMode m;
  m.elements = Elements;
  if (inst.opcode == Opcode::Vset2 || inst.opcode == Opcode::Vset4) {
    m.aSigned = isSignedType(inst.types[0]);
    m.bSigned = isSignedType(inst.types[1]);
    Mod cmp = inst.modifiers.get(ModGroup::Compare);
    unsigned k = 0;
    while (k < std::size(kCompares) && kCompares[k] != cmp) ++k;
    if (k == std::size(kCompares)) {
      why = "vset2/vset4 compare with .eq .ne .lt .le .gt .ge";
      return false;
    }
    m.cmp = static_cast<uint8_t>(k);
  } else {
    m.dSigned = isSignedType(inst.types[0]);
    m.aSigned = isSignedType(inst.types[1]);
    m.bSigned = isSignedType(inst.types[2]);
    m.sat = inst.modifiers.has(Mod::Sat);
  }
  Mod secondary = inst.modifiers.get(ModGroup::ReduceOp);
  if (secondary != Mod::None && secondary != Mod::RedAdd) {
    why = "the SIMD video instructions' secondary operation is .add only";
    return false;
  }
  m.accumulate = secondary == Mod::RedAdd;
  if (m.accumulate && m.sat) {
    why = ".sat with the accumulate .add (the PTX ISA does not allow it)";
    return false;
  }
  if (video::operandOf(inst, sc, 3).select.kind != 0) {
    why = "a selector on c";
    return false;
  }
  if (!destinationMask(operandOf(inst, sc, 0), m, why) ||
      !sourceSelector(operandOf(inst, sc, 1), m, false, m.asel, why) ||
      !sourceSelector(operandOf(inst, sc, 2), m, true, m.bsel, why)) {
    return false;
  }
  storeMode(pi, m);
  pi.handler = &simdHandler<Op>;
  return true;
}

}  // namespace

void registerVideoSimdSemantics(SemanticsTable& table) {
  using C = TypeClass;
  table.add(Opcode::Vadd2, C::Integer, &selectSimd<AddOp, 2>);
  table.add(Opcode::Vsub2, C::Integer, &selectSimd<SubOp, 2>);
  table.add(Opcode::Vavrg2, C::Integer, &selectSimd<AvrgOp, 2>);
  table.add(Opcode::Vabsdiff2, C::Integer, &selectSimd<AbsDiffOp, 2>);
  table.add(Opcode::Vmin2, C::Integer, &selectSimd<MinOp, 2>);
  table.add(Opcode::Vmax2, C::Integer, &selectSimd<MaxOp, 2>);
  table.add(Opcode::Vset2, C::Integer, &selectSimd<SetOp, 2>);
  table.add(Opcode::Vadd4, C::Integer, &selectSimd<AddOp, 4>);
  table.add(Opcode::Vsub4, C::Integer, &selectSimd<SubOp, 4>);
  table.add(Opcode::Vavrg4, C::Integer, &selectSimd<AvrgOp, 4>);
  table.add(Opcode::Vabsdiff4, C::Integer, &selectSimd<AbsDiffOp, 4>);
  table.add(Opcode::Vmin4, C::Integer, &selectSimd<MinOp, 4>);
  table.add(Opcode::Vmax4, C::Integer, &selectSimd<MaxOp, 4>);
  table.add(Opcode::Vset4, C::Integer, &selectSimd<SetOp, 4>);
}

}  // namespace ptxsim::sim::semantics::video
