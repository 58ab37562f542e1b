#pragma once

// Shared by the video family's files (video_*.cpp): the prepare-time mode
// of one video instruction, kept in pi.aux/pi.aux2, and the operand part
// extraction of the PTX ISA's pseudocode (partSelectSignExtend and
// extractAndSignExt_2/_4). Values are computed exactly in wide signed
// integers: the ISA describes .s33 inputs and .s34 intermediates.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "integer_common.h"
#include "semantics.h"

namespace ptxsim::sim::semantics::video {

// A mode struct of at most 16 bytes travels in aux and aux2.
template <typename Mode>
void storeMode(PreparedInstruction& pi, const Mode& mode) {
  static_assert(sizeof(Mode) <= 16 && std::is_trivially_copyable_v<Mode>);
  uint64_t words[2] = {0, 0};
  std::memcpy(words, &mode, sizeof(Mode));
  pi.aux = words[0];
  pi.aux2 = words[1];
}
template <typename Mode>
Mode loadMode(const PreparedInstruction& pi) {
  uint64_t words[2] = {pi.aux, pi.aux2};
  Mode mode;
  std::memcpy(&mode, words, sizeof(Mode));
  return mode;
}

// A scalar operand part: the whole word, byte 0..3 or half-word 0..1.
enum class Part : uint8_t { Word, B0, B1, B2, B3, H0, H1 };

// partSelectSignExtend: the part of a 32-bit value, sign- or zero-extended.
inline int64_t extractPart(uint32_t x, Part part, bool isSigned) {
  switch (part) {
    case Part::Word: return isSigned ? int64_t{static_cast<int32_t>(x)} : int64_t{x};
    case Part::H0:
    case Part::H1: {
      auto h = static_cast<uint16_t>(x >> (part == Part::H1 ? 16 : 0));
      return isSigned ? int64_t{static_cast<int16_t>(h)} : int64_t{h};
    }
    default: {
      unsigned shift = 8 * (static_cast<unsigned>(part) - static_cast<unsigned>(Part::B0));
      auto b = static_cast<uint8_t>(x >> shift);
      return isSigned ? int64_t{static_cast<int8_t>(b)} : int64_t{b};
    }
  }
}

// Clamps to the signed or unsigned range of `bits` bits (.sat).
inline Int128 clampToRange(Int128 v, unsigned bits, bool isSigned) {
  Int128 lo = isSigned ? -(Int128{1} << (bits - 1)) : 0;
  Int128 hi = isSigned ? (Int128{1} << (bits - 1)) - 1 : (Int128{1} << bits) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}

// The source operand's selector as a scalar Part; false (with why) for a
// selector of another shape. dsel takes the same spellings.
bool scalarPart(const isa::Operand& op, Part& part, std::string& why);

inline const isa::Operand& operandOf(const isa::Instruction& inst, const SelectContext& sc, unsigned i) {
  return sc.function.operands[inst.firstOperand + i];
}

bool isSignedType(isa::DataType t);

// Reason text for a negated (-%r) operand anywhere but vmad's sources; the
// lowering already refuses those, so this only guards the IR's invariant.
bool noNegation(const isa::Instruction& inst, const SelectContext& sc, std::string& why);

void registerVideoMadSemantics(SemanticsTable& table);
void registerVideoSimdSemantics(SemanticsTable& table);

}  // namespace ptxsim::sim::semantics::video
