// cvt.pack.sat: two s32 values saturated to a narrow integer type and packed
// into one 32-bit register, as int8 GEMM epilogues (cuBLASLt's among them)
// pack their results. The PTX ISA's semantics: a goes above b, each
// clamped to the destination type's range; for .u16/.s16 the two halves
// are all of d; for the 8-, 4- and 2-bit types the two elements take d's
// low 2n bits and the low bits of the .b32 operand c fill the rest, moved
// up by 2n (the H100's results: tests/cuda/programs/wmma_int8.expected).

#include <algorithm>
#include <cstdint>

#include "lane_ops.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::Opcode;

// The destination element: its width and signedness, kept in pi.aux.
struct Element {
  uint32_t bits;
  bool isSigned;
};

Element elementOf(const PreparedInstruction& pi) {
  return {static_cast<uint32_t>(pi.aux & 0xff), (pi.aux & 0x100) != 0};
}

uint32_t saturate(int32_t v, Element e) {
  int64_t lo = e.isSigned ? -(int64_t{1} << (e.bits - 1)) : 0;
  int64_t hi = e.isSigned ? (int64_t{1} << (e.bits - 1)) - 1 : (int64_t{1} << e.bits) - 1;
  uint64_t mask = (uint64_t{1} << e.bits) - 1;
  return static_cast<uint32_t>(static_cast<uint64_t>(std::clamp<int64_t>(v, lo, hi)) & mask);
}

struct PackPair {
  static uint32_t apply(const PreparedInstruction& pi, int32_t a, int32_t b) {
    Element e = elementOf(pi);
    return (saturate(a, e) << e.bits) | saturate(b, e);
  }
};

struct PackPairAbove {
  static uint32_t apply(const PreparedInstruction& pi, int32_t a, int32_t b, int32_t c) {
    Element e = elementOf(pi);
    return (static_cast<uint32_t>(c) << (2 * e.bits)) | PackPair::apply(pi, a, b);
  }
};

bool selectCvtPack(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Element e{};
  switch (inst.types[0]) {
    case DataType::U16: e = {16, false}; break;
    case DataType::S16: e = {16, true}; break;
    case DataType::U8: e = {8, false}; break;
    case DataType::S8: e = {8, true}; break;
    case DataType::U4: e = {4, false}; break;
    case DataType::S4: e = {4, true}; break;
    default: why = "cvt.pack to this type (.u2/.s2 are sm_100 forms)"; return false;
  }
  if (!inst.modifiers.has(Mod::Sat)) {
    why = "cvt.pack without .sat";
    return false;
  }
  pi.aux = e.bits | (e.isSigned ? 0x100 : 0);
  pi.handler = e.bits == 16 ? &binaryModeHandler<int32_t, PackPair, uint32_t>
                            : &ternaryModeHandler<int32_t, PackPairAbove, uint32_t>;
  return true;
}

}  // namespace

void registerConvertPackSemantics(SemanticsTable& table) { table.add(Opcode::CvtPack, &selectCvtPack); }

}  // namespace ptxsim::sim::semantics
