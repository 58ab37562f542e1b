// The packed 16-bit integer forms of PTX 8.0 (sm_90): add, min and max on
// .u16x2 and .s16x2, and min/max .relu on .s16x2. Each 16-bit half of the
// 32-bit operands is one element, computed on its own: an add wraps within
// its half (no carry into the other), min/max compare the halves as .u16 or
// .s16, and .relu clamps a negative half to 0. The ISA has no sub on these
// types (nvcc writes __vsub2 as add.s16x2 of a negation). Measured on an
// H100 by tests/cuda/semantics/simd16.cu.

#include <algorithm>
#include <cstdint>

#include "integer_common.h"
#include "lane_ops.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::Opcode;

struct AddHalf {
  template <typename H>
  static H apply(H a, H b) {
    return static_cast<H>(static_cast<uint16_t>(static_cast<uint16_t>(a) + static_cast<uint16_t>(b)));
  }
};
struct MinHalf {
  template <typename H>
  static H apply(H a, H b) {
    return std::min(a, b);
  }
};
struct MaxHalf {
  template <typename H>
  static H apply(H a, H b) {
    return std::max(a, b);
  }
};
template <typename Op>
struct ReluHalf {
  template <typename H>
  static H apply(H a, H b) {
    return std::max(Op::template apply<H>(a, b), H{0});
  }
};

// Op applied to each half, H (uint16_t or int16_t) being the element type.
template <typename H, typename Op>
struct PerHalf {
  static uint32_t apply(uint32_t a, uint32_t b) {
    auto half = [](uint32_t v, unsigned i) { return static_cast<H>(static_cast<uint16_t>(v >> (16 * i))); };
    uint32_t low = static_cast<uint16_t>(Op::template apply<H>(half(a, 0), half(b, 0)));
    uint32_t high = static_cast<uint16_t>(Op::template apply<H>(half(a, 1), half(b, 1)));
    return low | (high << 16);
  }
};

template <typename Op>
void bindForType(DataType type, PreparedInstruction& pi) {
  pi.handler = type == DataType::S16x2 ? &binaryHandler<uint32_t, PerHalf<int16_t, Op>>
                                       : &binaryHandler<uint32_t, PerHalf<uint16_t, Op>>;
}

bool selectAdd(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  bindForType<AddHalf>(inst.types[0], pi);
  return true;
}

template <typename Op>
bool selectMinMax(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!inst.modifiers.has(Mod::Relu)) {
    bindForType<Op>(inst.types[0], pi);
    return true;
  }
  if (inst.types[0] != DataType::S16x2) {
    why = ".relu applies to .s16x2 only";
    return false;
  }
  pi.handler = &binaryHandler<uint32_t, PerHalf<int16_t, ReluHalf<Op>>>;
  return true;
}

}  // namespace

void registerPackedIntegerSemantics(SemanticsTable& table) {
  table.add(Opcode::Add, TypeClass::PackedInteger, &selectAdd);
  table.add(Opcode::Min, TypeClass::PackedInteger, &selectMinMax<MinHalf>);
  table.add(Opcode::Max, TypeClass::PackedInteger, &selectMinMax<MaxHalf>);
}

}  // namespace ptxsim::sim::semantics
