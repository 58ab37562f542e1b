#pragma once

// Floating-point formats narrower or wider than the host's, encoded and
// decoded exactly with every PTX rounding mode: f16, bf16, tf32, e4m3, e5m2,
// and f32/f64 too, so that conversions between any two of them, and from
// and to 64-bit integers, are one decode and one rounding. Written once for
// the half-precision arithmetic and for cvt.
//
// A value is unpacked into sign, exponent and a 64-bit significand with its
// leading one at bit 63; every source the simulator converts (f64, 64-bit
// integers) fits that exactly, so a rounding happens once, where the
// destination format says, never through a host rounding mode.

#include <bit>
#include <cmath>
#include <cstdint>

namespace ptxsim::sim::semantics::sf {

enum class Round : uint8_t { Nearest, Zero, Down, Up, NearestAway };

// How a format spells infinity and NaN.
enum class Special : uint8_t {
  Ieee,        // all-ones exponent: infinity (mantissa 0) or NaN
  NanOnlyMax,  // e4m3: no infinity; all-ones exponent and mantissa is NaN
};

struct Format {
  uint8_t expBits;
  uint8_t manBits;
  Special special;
  uint64_t nan;  // the NaN the GPU writes for a NaN result (sign clear)

  constexpr unsigned width() const { return 1u + expBits + manBits; }
  constexpr int bias() const { return (1 << (expBits - 1)) - 1; }
  constexpr uint64_t signBit() const { return uint64_t{1} << (expBits + manBits); }
  constexpr uint64_t expAllOnes() const { return (uint64_t{1} << expBits) - 1; }
  constexpr uint64_t manMask() const { return (uint64_t{1} << manBits) - 1; }
  constexpr uint64_t infBits() const { return expAllOnes() << manBits; }
  // The largest finite magnitude's bits.
  constexpr uint64_t maxFinite() const {
    return special == Special::Ieee ? ((expAllOnes() - 1) << manBits) | manMask()
                                    : (expAllOnes() << manBits) | (manMask() - 1);
  }
};

// The NaNs the H100 produces for a NaN result (tests/cuda/semantics record
// them): all ones but the sign, for every format.
inline constexpr Format kF16{5, 10, Special::Ieee, 0x7fff};
inline constexpr Format kBF16{8, 7, Special::Ieee, 0x7fff};
inline constexpr Format kF32{8, 23, Special::Ieee, 0x7fffffff};
inline constexpr Format kF64{11, 52, Special::Ieee, 0x7fffffffffffffff};
// tf32 is an f32 with its 13 low mantissa bits zero; encode() gives the 19
// bits, tf32ToF32Bits() places them.
inline constexpr Format kTF32{8, 10, Special::Ieee, 0x3ffff};
inline constexpr Format kE4M3{4, 3, Special::NanOnlyMax, 0x7f};
inline constexpr Format kE5M2{5, 2, Special::Ieee, 0x7f};

enum class Class : uint8_t { Zero, Finite, Inf, NaN };

// value = sig * 2^(exp - 63) for Finite, with bit 63 of sig set.
struct Unpacked {
  Class cls = Class::Zero;
  bool negative = false;
  int32_t exp = 0;
  uint64_t sig = 0;

  bool isNaN() const { return cls == Class::NaN; }
};

inline Unpacked finite(bool negative, int32_t exp, uint64_t sig) {
  // Normalise so bit 63 is the leading one; sig != 0.
  int lead = std::countl_zero(sig);
  return Unpacked{Class::Finite, negative, exp - lead, sig << lead};
}

inline Unpacked decode(uint64_t bits, const Format& f) {
  bool negative = (bits & f.signBit()) != 0;
  uint64_t e = (bits >> f.manBits) & f.expAllOnes();
  uint64_t m = bits & f.manMask();
  if (e == f.expAllOnes()) {
    if (f.special == Special::Ieee) return Unpacked{m == 0 ? Class::Inf : Class::NaN, negative, 0, 0};
    if (m == f.manMask()) return Unpacked{Class::NaN, negative, 0, 0};
  }
  if (e == 0) {
    if (m == 0) return Unpacked{Class::Zero, negative, 0, 0};
    // Subnormal: m * 2^(1 - bias - manBits); finite() counts the leading zeros.
    return finite(negative, 1 - f.bias() - f.manBits + 63, m);
  }
  uint64_t sig = (m | (uint64_t{1} << f.manBits)) << (63 - f.manBits);
  return Unpacked{Class::Finite, negative, static_cast<int32_t>(e) - f.bias(), sig};
}

inline Unpacked fromUnsigned(uint64_t v) {
  if (v == 0) return Unpacked{};
  return finite(false, 63, v);
}

inline Unpacked fromSigned(int64_t v) {
  if (v == 0) return Unpacked{};
  uint64_t magnitude = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return finite(v < 0, 63, magnitude);
}

inline Unpacked fromDouble(double d) { return decode(std::bit_cast<uint64_t>(d), kF64); }

// Where the bits shifted out of a significand lie relative to half a unit of
// the kept part: decides every rounding.
enum class Rest : uint8_t { Zero, BelowHalf, Half, AboveHalf };

// sig >> shift (shift may exceed 63) with the rest classified.
inline uint64_t shiftRight(uint64_t sig, int shift, Rest& rest) {
  if (shift <= 0) {
    rest = Rest::Zero;
    return sig;
  }
  if (shift > 64) {
    rest = sig == 0 ? Rest::Zero : Rest::BelowHalf;
    return 0;
  }
  uint64_t kept = shift == 64 ? 0 : sig >> shift;
  uint64_t dropped = shift == 64 ? sig : sig & ((uint64_t{1} << shift) - 1);
  uint64_t half = uint64_t{1} << (shift - 1);
  rest = dropped == 0 ? Rest::Zero : dropped < half ? Rest::BelowHalf : dropped == half ? Rest::Half : Rest::AboveHalf;
  return kept;
}

// Whether a magnitude q with the rest dropped rounds up to q + 1.
inline bool roundsUp(uint64_t q, Rest rest, bool negative, Round mode) {
  if (rest == Rest::Zero) return false;
  switch (mode) {
    case Round::Nearest: return rest == Rest::AboveHalf || (rest == Rest::Half && (q & 1) != 0);
    case Round::NearestAway: return rest == Rest::AboveHalf || rest == Rest::Half;
    case Round::Zero: return false;
    case Round::Down: return negative;
    case Round::Up: return !negative;
  }
  return false;
}

struct EncodeOptions {
  Round mode = Round::Nearest;
  bool satfinite = false;  // overflow and infinity give the largest finite value
  bool ftz = false;        // subnormal results become zero of the same sign
};

// The rounded value's bits in format f (sign included). A NaN gives f.nan.
inline uint64_t encode(const Unpacked& u, const Format& f, EncodeOptions o) {
  uint64_t sign = u.negative ? f.signBit() : 0;
  switch (u.cls) {
    case Class::NaN: return f.nan;
    case Class::Zero: return sign;
    case Class::Inf:
      if (o.satfinite) return sign | f.maxFinite();
      return f.special == Special::Ieee ? sign | f.infBits() : f.nan;
    case Class::Finite: break;
  }
  const int emin = 1 - f.bias();
  // The exponent of the result's last mantissa bit.
  int ulpExp = (u.exp < emin ? emin : u.exp) - f.manBits;
  Rest rest;
  uint64_t q = shiftRight(u.sig, 63 - (u.exp - ulpExp), rest);
  if (roundsUp(q, rest, u.negative, o.mode)) ++q;
  const uint64_t hidden = uint64_t{1} << f.manBits;
  uint64_t bits;
  if (q < hidden) {
    // Subnormal or zero (the exponent field is 0).
    if (o.ftz) return sign;
    bits = q;
  } else {
    if (q == hidden << 1) {
      q >>= 1;
      ++ulpExp;
    }
    int64_t biased = int64_t{ulpExp} + f.manBits + f.bias();
    uint64_t candidate = (static_cast<uint64_t>(biased) << f.manBits) | (q & f.manMask());
    if (biased >= static_cast<int64_t>(f.expAllOnes()) + (f.special == Special::Ieee ? 0 : 1) ||
        candidate > f.maxFinite()) {
      // Overflow: infinity or the largest finite value, as the mode rounds.
      bool toMax = o.satfinite || o.mode == Round::Zero || (o.mode == Round::Down && !u.negative) ||
                   (o.mode == Round::Up && u.negative);
      if (toMax) return sign | f.maxFinite();
      return f.special == Special::Ieee ? sign | f.infBits() : f.nan;
    }
    bits = candidate;
  }
  return sign | bits;
}

// The value rounded to an integral value (cvt's .rni/.rzi/.rmi/.rpi),
// still unpacked; NaN, infinity and zero are returned unchanged.
inline Unpacked roundToIntegral(const Unpacked& u, Round mode) {
  if (u.cls != Class::Finite || u.exp >= 63) return u;
  Rest rest;
  uint64_t q = shiftRight(u.sig, 63 - u.exp, rest);
  if (roundsUp(q, rest, u.negative, mode)) ++q;
  if (q == 0) return Unpacked{Class::Zero, u.negative, 0, 0};
  return finite(u.negative, 63, q);
}

// The value rounded to an integer of `bits` bits, clamped to its range
// (float-to-integer cvt saturates by default). NaN is the caller's.
inline uint64_t toInteger(const Unpacked& u, Round mode, unsigned bits, bool isSigned) {
  const uint64_t umax = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t smax = umax >> 1;
  const uint64_t smin = smax + 1;  // magnitude of the most negative value
  const uint64_t mask = umax;
  if (u.cls == Class::Zero) return 0;
  uint64_t magnitude;
  bool huge = u.cls == Class::Inf || (u.cls == Class::Finite && u.exp >= 64);
  if (huge) {
    magnitude = ~uint64_t{0};
  } else {
    Unpacked r = roundToIntegral(u, mode);
    if (r.cls == Class::Zero) return 0;
    magnitude = r.sig >> (63 - r.exp);  // r.exp <= 63: u.exp < 64 and rounding adds at most one bit
  }
  if (isSigned) {
    if (u.negative) return (magnitude >= smin ? uint64_t{0} - smin : uint64_t{0} - magnitude) & mask;
    return magnitude > smax ? smax : magnitude;
  }
  if (u.negative) return 0;
  return magnitude > umax ? umax : magnitude;
}

// The exact value of a + b (host doubles holding narrower values whose sum
// cannot overflow), unpacked without rounding to double: TwoSum gives the
// rounding error, which is folded into the lowest significand bit; a target
// format narrower than 52 bits then rounds once, correctly.
inline Unpacked exactSum(double a, double b) {
  double s = a + b;
  if (std::isnan(s) || std::isinf(s)) return fromDouble(s);
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  Unpacked u = fromDouble(s);
  if (err == 0 || u.cls != Class::Finite) return u;
  // The significand of a double fills bits 63..11: one unit in bit 0 is
  // far below any rounding boundary of the narrower destination.
  if (std::signbit(err) == u.negative) {
    u.sig |= 1;
  } else {
    u.sig -= 1;
    if ((u.sig >> 63) == 0) {
      u.sig <<= 1;
      u.exp -= 1;
    }
  }
  return u;
}

// tf32 bits from encode(…, kTF32, …) as the f32 bit pattern cvt writes.
inline uint32_t tf32ToF32Bits(uint64_t tf32) { return static_cast<uint32_t>(tf32 << 13); }

inline bool isSubnormalBits(uint64_t bits, const Format& f) {
  return ((bits >> f.manBits) & f.expAllOnes()) == 0 && (bits & f.manMask()) != 0;
}

}  // namespace ptxsim::sim::semantics::sf
