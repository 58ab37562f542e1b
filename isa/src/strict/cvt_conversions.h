#pragma once

// Private to cvt_rules.cpp: what each pair of cvt types takes, as ptxas 13.0
// (sm_90) has it. The PTX ISA's "cvt" section gives the shape (integer
// rounding for float-to-integer and float-to-same-float, an IEEE direction
// for anything that loses precision, none for what is exact); ptxas's
// recorded verdicts fill in the corners (bf16, the packed pairs, tf32).

#include <cstdint>

#include "ptxsim/isa/data_type.h"
#include "ptxsim/isa/modifier.h"

namespace ptxsim::isa::strict {

// A set of cvt rounding modifiers (.rn .rz .rm .rp .rna .rni .rzi .rmi .rpi).
class RoundingSet {
 public:
  constexpr RoundingSet() = default;
  constexpr RoundingSet(std::initializer_list<Mod> mods) {
    for (Mod mod : mods) bits_ |= bit(mod);
  }
  constexpr bool has(Mod mod) const { return (bits_ & bit(mod)) != 0; }
  constexpr RoundingSet operator&(RoundingSet other) const { return RoundingSet(bits_ & other.bits_); }

 private:
  constexpr explicit RoundingSet(uint16_t bits) : bits_(bits) {}
  static constexpr uint16_t bit(Mod mod) {
    return static_cast<uint16_t>(1u << (static_cast<unsigned>(mod) - static_cast<unsigned>(Mod::Rn)));
  }
  uint16_t bits_ = 0;
};

inline constexpr RoundingSet kIeeeRoundings{Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp};
inline constexpr RoundingSet kIntegerRoundings{Mod::Rni, Mod::Rzi, Mod::Rmi, Mod::Rpi};
inline constexpr RoundingSet kNearestOrZero{Mod::Rn, Mod::Rz};

// Which roundings a conversion takes, and whether it needs one.
struct RoundingRule {
  RoundingSet allowed;
  bool required = false;
};

// How ptxas answers .ftz on a conversion.
enum class FtzVerdict : uint8_t {
  Takes,         // an f32 on either side
  Illegal,       // "Illegal modifier '.ftz'": integer to integer, bf16 without f32
  DoesNotApply,  // "Modifier '.ftz' does not apply to this type of convert operation"
};

// The packed pairs, tf32 and their partners (takes no element rules).
bool isSpecialConversion(DataType dest, DataType source);
RoundingRule conversionRounding(DataType dest, DataType source);
FtzVerdict conversionFtz(DataType dest, DataType source);
// Integer to integer: .sat only where the source can overflow the destination.
bool integerSatApplies(DataType dest, DataType source);

}  // namespace ptxsim::isa::strict
