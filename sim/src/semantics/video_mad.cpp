// vmad: (a*b) + c on the selected parts, with the negated forms -(a*b)
// (exactly one of -a, -b) and -c, the plus-one mode .po, the final scaling
// .shr7/.shr15 and .sat.
//
// Without a negation, as ptxas expands it for sm_90 (which has no video
// hardware; read from the SASS of every form and proved by the conformance
// recording): the 32-bit parts multiply as signed values whatever their
// types (IMAD.WIDE, so a whole .u32 word 0xffffffff counts as -1), c is
// sign-extended, .po adds one, all exact in 64 bits; the final result is
// signed when a source is .s32 and unsigned when both are .u32 (dtype plays
// no part): that picks the scaling's shift (SHF.R.S64 or SHF.R.U64) and
// .sat's range. With a negation, the PTX ISA's pseudocode, which the H100
// follows for two .s32 sources (tests/cuda/semantics/video.cu).

#include "lane_ops.h"
#include "video_common.h"

namespace ptxsim::sim::semantics::video {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

struct MadMode {
  bool aSigned = false, bSigned = false;
  bool negateProduct = false, negateC = false, plusOne = false, sat = false;
  uint8_t shift = 0;  // .shr7, .shr15
  Part asel = Part::Word, bsel = Part::Word;
};

bool signedFinal(const MadMode& m) { return m.aSigned || m.bSigned || m.negateProduct || m.negateC; }

// A part as ptxas hands it to the multiplier: extended per its type to 32
// bits, then taken as a signed 32-bit value.
int64_t multiplierInput(uint32_t x, Part part, bool isSigned) {
  return int64_t{static_cast<int32_t>(static_cast<uint32_t>(extractPart(x, part, isSigned)))};
}

uint32_t madLane(const MadMode& m, uint32_t a, uint32_t b, uint32_t c) {
  bool isSigned = signedFinal(m);
  Int128 tmp;
  if (!m.negateProduct && !m.negateC) {
    tmp = Int128{multiplierInput(a, m.asel, m.aSigned) * multiplierInput(b, m.bsel, m.bSigned)} +
          static_cast<int32_t>(c) + (m.plusOne ? 1 : 0);
  } else {
    // The pseudocode: a negation is the one's complement plus one.
    tmp = Int128{extractPart(a, m.asel, m.aSigned)} * extractPart(b, m.bsel, m.bSigned);
    if (m.negateProduct) {
      tmp = ~tmp;
    } else {
      c = ~c;
    }
    tmp = tmp + static_cast<int32_t>(c) + 1;
  }
  // Arithmetic for a signed result; logical on the 64-bit value otherwise
  // (so an unscaled negative unsigned result stays negative for .sat).
  if (isSigned || m.shift == 0) {
    tmp >>= m.shift;
  } else {
    tmp = Int128{static_cast<uint64_t>(tmp) >> m.shift};
  }
  if (m.sat) tmp = clampToRange(tmp, 32, isSigned);
  return static_cast<uint32_t>(tmp);
}

void madHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto m = loadMode<MadMode>(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = madLane(m, static_cast<uint32_t>(a[l]), static_cast<uint32_t>(b[l]), static_cast<uint32_t>(c[l]));
  });
}

bool selectMad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  MadMode m;
  // vmad.dtype.atype.btype: the final result's sign follows the operands
  // and negations, not dtype (the ISA's table of combinations).
  m.aSigned = isSignedType(inst.types[1]);
  m.bSigned = isSignedType(inst.types[2]);
  m.sat = inst.modifiers.has(Mod::Sat);
  m.plusOne = inst.modifiers.has(Mod::PlusOne);
  Mod scale = inst.modifiers.get(ModGroup::ShiftAmount);
  m.shift = scale == Mod::Shr7 ? 7 : scale == Mod::Shr15 ? 15 : 0;
  if (scale != Mod::None && m.shift == 0) {
    why = "vmad's scale is .shr7 or .shr15";
    return false;
  }
  if (operandOf(inst, sc, 0).select.kind != 0 || operandOf(inst, sc, 3).select.kind != 0) {
    why = "vmad takes selectors on a and b only";
    return false;
  }
  if (!scalarPart(operandOf(inst, sc, 1), m.asel, why) || !scalarPart(operandOf(inst, sc, 2), m.bsel, why)) {
    return false;
  }
  if (operandOf(inst, sc, 0).minus) {
    why = "a negated destination";
    return false;
  }
  m.negateProduct = operandOf(inst, sc, 1).minus != operandOf(inst, sc, 2).minus;
  m.negateC = operandOf(inst, sc, 3).minus;
  if (m.negateProduct && m.negateC) {
    why = "vmad negating both the product and c (PTX allows one of them)";
    return false;
  }
  if (m.plusOne && (operandOf(inst, sc, 1).minus || operandOf(inst, sc, 2).minus || m.negateC)) {
    why = "vmad.po with a negated operand";
    return false;
  }
  // -a -b cancel; where nothing is scaled or clamped the low word is ab + c
  // under any reading of the signs.
  bool bothNegatedPlain = operandOf(inst, sc, 1).minus && !m.negateProduct && !m.negateC && !m.sat && m.shift == 0;
  bool anyNegation = operandOf(inst, sc, 1).minus || operandOf(inst, sc, 2).minus || m.negateC;
  if (anyNegation && !(m.aSigned && m.bSigned) && !bothNegatedPlain) {
    why = "vmad negating an operand with a .u32 source: neither measured on an H100 nor read from ptxas's "
          "sequence (the conformance suite has no negated operands)";
    return false;
  }
  storeMode(pi, m);
  pi.handler = &madHandler;
  return true;
}

}  // namespace

void registerVideoMadSemantics(SemanticsTable& table) { table.add(Opcode::Vmad, TypeClass::Integer, &selectMad); }

}  // namespace ptxsim::sim::semantics::video
