#pragma once

// The comparison operators of setp and set (PTX ISA "Comparison
// Operators"), once for every type: ordered and unordered float
// comparisons (NaN makes every ordered one false and every unordered one
// true), and signed or unsigned integer ones.

#include <cmath>
#include <type_traits>

#include "ptxsim/isa/modifier.h"

namespace ptxsim::sim::semantics {

template <typename T>
inline bool compare(isa::Mod op, T a, T b) {
  using isa::Mod;
  if constexpr (std::is_floating_point_v<T>) {
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (op) {
      case Mod::Eq: return !unordered && a == b;
      case Mod::Ne: return !unordered && a != b;
      case Mod::Lt: return !unordered && a < b;
      case Mod::Le: return !unordered && a <= b;
      case Mod::Gt: return !unordered && a > b;
      case Mod::Ge: return !unordered && a >= b;
      case Mod::Equ: return unordered || a == b;
      case Mod::Neu: return unordered || a != b;
      case Mod::Ltu: return unordered || a < b;
      case Mod::Leu: return unordered || a <= b;
      case Mod::Gtu: return unordered || a > b;
      case Mod::Geu: return unordered || a >= b;
      case Mod::Num: return !unordered;
      case Mod::Nan: return unordered;
      default: return false;
    }
  } else {
    using Un = std::make_unsigned_t<T>;
    switch (op) {
      case Mod::Eq: return a == b;
      case Mod::Ne: return a != b;
      case Mod::Lt: return a < b;
      case Mod::Le: return a <= b;
      case Mod::Gt: return a > b;
      case Mod::Ge: return a >= b;
      case Mod::CmpLo: return static_cast<Un>(a) < static_cast<Un>(b);
      case Mod::Ls: return static_cast<Un>(a) <= static_cast<Un>(b);
      case Mod::CmpHi: return static_cast<Un>(a) > static_cast<Un>(b);
      case Mod::Hs: return static_cast<Un>(a) >= static_cast<Un>(b);
      default: return false;
    }
  }
}

}  // namespace ptxsim::sim::semantics
