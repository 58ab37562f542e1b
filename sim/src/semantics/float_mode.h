#pragma once

// The modifiers of an f32/f64 instruction that its handler applies to each
// lane (rounding direction, .ftz, .sat), decided at prepare time and kept in
// PreparedInstruction::aux.

#include <string>

#include "float_ieee.h"
#include "ptxsim/isa/module.h"

namespace ptxsim::sim::semantics {

struct FloatMode {
  fp::Round round = fp::Round::Nearest;
  bool ftz = false;
  bool sat = false;
  // fma only: the product or the addend negated, as the fused form of a
  // contracted sub reads them (isa/contraction.h).
  bool negateProduct = false;
  bool negateAddend = false;

  uint64_t pack() const {
    return static_cast<uint64_t>(round) | (ftz ? 4u : 0u) | (sat ? 8u : 0u) | (negateProduct ? 16u : 0u) |
           (negateAddend ? 32u : 0u);
  }
  static FloatMode unpack(uint64_t aux) {
    return FloatMode{static_cast<fp::Round>(aux & 3), (aux & 4) != 0, (aux & 8) != 0, (aux & 16) != 0,
                     (aux & 32) != 0};
  }

  // A source operand as the instruction sees it: .ftz reads a subnormal as
  // a zero of the same sign.
  template <typename T>
  T in(T x) const {
    return ftz ? fp::flush(x) : x;
  }
  // The result of a rounded operation, given its result rounded toward zero
  // as well: .ftz flushes every result whose exact value is below 2^-126 in
  // magnitude, also one that rounds up to 2^-126 (tininess before rounding;
  // measured on an H100: mul.rn.ftz.f32 of (1 - 2^-24) and 2^-126 is 0).
  template <typename T, typename TowardZero>
  T out(T x, TowardZero towardZero) const {
    if (ftz && std::fabs(x) == std::numeric_limits<T>::min() && fp::isSubnormal(towardZero())) {
      x = fp::signedZero<T>(fp::signOf(x));
    }
    return out(x);
  }
  // The result written: .ftz flushes a subnormal result, then .sat clamps
  // to [0, 1] with NaN and -0 becoming +0.
  template <typename T>
  T out(T x) const {
    if (ftz) x = fp::flush(x);
    if (sat) {
      if (std::isnan(x) || x <= 0) return T(0);
      if (x > 1) return T(1);
    }
    return x;
  }
};

// The rounding direction an .rn/.rz/.rm/.rp modifier names; false for none
// or for .rna/.rs, which these instructions do not take.
inline bool roundingOf(isa::Mod mod, fp::Round& round) {
  switch (mod) {
    case isa::Mod::Rn: round = fp::Round::Nearest; return true;
    case isa::Mod::Rz: round = fp::Round::Zero; return true;
    case isa::Mod::Rm: round = fp::Round::Down; return true;
    case isa::Mod::Rp: round = fp::Round::Up; return true;
    default: return false;
  }
}

}  // namespace ptxsim::sim::semantics
