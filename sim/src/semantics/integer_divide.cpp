// Integer division and sign/magnitude operations: div, rem, abs, neg, min,
// max (.relu on .s32). The f32/f64 and f16/bf16 forms of these mnemonics
// belong to the float and half families.
//
// The PTX ISA leaves division by zero machine-specific. An H100 (measured by
// tests/cuda/semantics/integer_divrem*.cu) returns all ones from both div
// and rem for every width and signedness, and MIN / -1 wraps to MIN with
// remainder 0.

#include <algorithm>
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

struct DivOp {
  template <typename T>
  static T apply(T a, T b) {
    if (b == 0) return static_cast<T>(~Unsigned<T>{0});
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) return a;
    }
    return static_cast<T>(a / b);
  }
};
struct RemOp {
  template <typename T>
  static T apply(T a, T b) {
    if (b == 0) return static_cast<T>(~Unsigned<T>{0});
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
    }
    return static_cast<T>(a % b);
  }
};
struct AbsOp {
  template <typename T>
  static T apply(T a) {
    // abs of the most negative value is itself, as two's complement negation wraps.
    return a < 0 ? static_cast<T>(Unsigned<T>{0} - static_cast<Unsigned<T>>(a)) : a;
  }
};
struct NegOp {
  template <typename T>
  static T apply(T a) {
    return static_cast<T>(Unsigned<T>{0} - static_cast<Unsigned<T>>(a));
  }
};
struct MinOp {
  template <typename T>
  static T apply(T a, T b) {
    return std::min(a, b);
  }
};
struct MaxOp {
  template <typename T>
  static T apply(T a, T b) {
    return std::max(a, b);
  }
};
// .relu clamps a negative result to 0.
template <typename Op>
struct ReluOp {
  static int32_t apply(int32_t a, int32_t b) { return std::max(Op::template apply<int32_t>(a, b), 0); }
};

template <typename Op>
bool selectBinary(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &binaryHandler<T, Op>; }) ||
         (why = "this type", false);
}

bool selectDiv(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectBinary<DivOp>(inst, pi, why);
}
bool selectRem(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectBinary<RemOp>(inst, pi, why);
}

template <typename Op>
bool selectSigned(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  if (isa::typeKind(inst.types[0]) != isa::TypeKind::Signed) {
    why = "this type";
    return false;
  }
  return dispatchInteger16to64(inst.types[0], [&]<typename T>() { pi.handler = &unaryHandler<T, Op>; }) ||
         (why = "this type", false);
}

bool selectAbs(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectSigned<AbsOp>(inst, pi, why);
}
bool selectNeg(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectSigned<NegOp>(inst, pi, why);
}

// Integer min/max take two sources (the three-source form of PTX 8.8 is
// f32-only in the ISA); .relu is .s32 only.
template <typename Op>
bool selectMinMax(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  if (inst.operandCount > 3) {
    why = "three-source integer min/max (the ISA has that form for f32 only)";
    return false;
  }
  if (inst.modifiers.has(Mod::Relu)) {
    if (inst.types[0] != DataType::S32) {
      why = ".relu applies to .s32 only";
      return false;
    }
    pi.handler = &binaryHandler<int32_t, ReluOp<Op>>;
    return true;
  }
  return selectBinary<Op>(inst, pi, why);
}

bool selectMin(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMinMax<MinOp>(inst, pi, why);
}
bool selectMax(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMinMax<MaxOp>(inst, pi, why);
}

}  // namespace

void registerIntegerDivideSemantics(SemanticsTable& table) {
  table.add(Opcode::Div, TypeClass::Integer, &selectDiv);
  table.add(Opcode::Rem, TypeClass::Integer, &selectRem);
  table.add(Opcode::Abs, TypeClass::Integer, &selectAbs);
  table.add(Opcode::Neg, TypeClass::Integer, &selectNeg);
  table.add(Opcode::Min, TypeClass::Integer, &selectMin);
  table.add(Opcode::Max, TypeClass::Integer, &selectMax);
}

}  // namespace ptxsim::sim::semantics
