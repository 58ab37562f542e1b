#pragma once

// One f16 or bf16 element of the half-precision instructions: exact host
// values, rounding once to the format, and the modifiers' clamps. Packed
// .f16x2/.bf16x2 forms apply these to each 16-bit half, element 0 in the
// low bits.

#include <bit>
#include <cmath>
#include <cstdint>

#include "small_float.h"

namespace ptxsim::sim::semantics::half {

// The modifiers one instruction carries, decided at prepare time (pi.aux).
struct Mode {
  bool bf16 = false;
  bool ftz = false;      // f16: subnormal inputs and results flush to signed zero
  bool sat = false;      // clamp to [0, 1], NaN to +0
  bool relu = false;     // negative to +0, NaN stays NaN
  bool oob = false;      // fma.oob: an OOB NaN operand forces +0
  bool nanMode = false;  // min/max .NaN: a NaN operand gives NaN
  bool xorsign = false;  // min/max .xorsign.abs
  bool packed = false;   // .f16x2/.bf16x2
};

inline const sf::Format& formatOf(const Mode& m) { return m.bf16 ? sf::kBF16 : sf::kF16; }

inline bool isNaNBits(uint64_t bits, const Mode& m) {
  return sf::decode(bits & 0xffff, formatOf(m)).isNaN();
}

// The element's bits after .ftz (subnormal to zero of the same sign).
inline uint64_t flushed(uint64_t bits, const Mode& m) {
  bits &= 0xffff;
  if (m.ftz && sf::isSubnormalBits(bits, formatOf(m))) return bits & 0x8000;
  return bits;
}

// The exact value of an element as a host double (f16 and bf16 fit).
inline double toDouble(uint64_t bits, const Mode& m) {
  sf::Unpacked u = sf::decode(flushed(bits, m), formatOf(m));
  double sign = u.negative ? -1.0 : 1.0;
  switch (u.cls) {
    case sf::Class::NaN: return std::nan("");
    case sf::Class::Inf: return sign * INFINITY;
    case sf::Class::Zero: return sign * 0.0;
    case sf::Class::Finite: break;
  }
  // sig has at most 11 significant bits and exp - 63 stays far inside
  // double's range, so the power of two can be built from its bits and the
  // product is exact (std::ldexp is much slower in this hot path).
  int scale = u.exp - 63;
  if (scale < -1022 || scale > 1023) return sign * std::ldexp(static_cast<double>(u.sig), scale);
  double power = std::bit_cast<double>(static_cast<uint64_t>(1023 + scale) << 52);
  return sign * static_cast<double>(u.sig) * power;
}

// Rounds an exact result to the element format (.rn), applying .sat,
// .relu and .ftz.
inline uint64_t finish(const Mode& m, sf::Unpacked u) {
  if (m.sat) {
    if (u.isNaN() || u.negative) return 0;
    if (u.cls == sf::Class::Inf || (u.cls == sf::Class::Finite && u.exp >= 0)) u = sf::fromUnsigned(1);
  }
  if (m.relu && !u.isNaN() && u.negative) return 0;
  return sf::encode(u, formatOf(m), sf::EncodeOptions{sf::Round::Nearest, false, m.ftz});
}

}  // namespace ptxsim::sim::semantics::half
