#pragma once

// One cvt element conversion, for one lane: the plan the selector decides
// (source and destination element kinds, rounding, saturation) and the
// function that applies it to a value's bits. The packing forms
// (f16x2/bf16x2 from two f32, the 8-bit float pairs) apply it per element.

#include <cstdint>

#include "small_float.h"

namespace ptxsim::sim::semantics::cvt {

enum class Elem : uint8_t { Int, F16, BF16, TF32, F32, F64, E4M3, E5M2 };

struct Side {
  Elem elem = Elem::Int;
  uint8_t bits = 0;  // storage width: 8..64
  bool isSigned = false;
};

struct Plan {
  Side src;
  Side dst;
  sf::Round mode = sf::Round::Nearest;
  bool integral = false;   // .rni/.rzi/.rmi/.rpi: round to an integral value
  bool sat = false;        // .sat
  bool satfinite = false;  // .satfinite
  bool relu = false;       // .relu
  bool ftz = false;        // .ftz: f32 subnormal inputs and results flush to zero
};

inline const sf::Format& formatOf(Elem e) {
  switch (e) {
    case Elem::F16: return sf::kF16;
    case Elem::BF16: return sf::kBF16;
    case Elem::TF32: return sf::kTF32;
    case Elem::F32: return sf::kF32;
    case Elem::E4M3: return sf::kE4M3;
    case Elem::E5M2: return sf::kE5M2;
    default: return sf::kF64;
  }
}

inline uint64_t widthMask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

inline int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t m = uint64_t{1} << (bits - 1);
  v &= widthMask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

__extension__ typedef __int128 Int128;

// Integer to integer: extension or truncation, or with .sat a clamp to the
// destination's range.
inline uint64_t intToInt(const Plan& p, uint64_t bits) {
  Int128 v = p.src.isSigned ? Int128{signExtend(bits, p.src.bits)} : Int128{bits & widthMask(p.src.bits)};
  if (p.sat) {
    Int128 hi = p.dst.isSigned ? Int128{static_cast<int64_t>(widthMask(p.dst.bits - 1))} : Int128{widthMask(p.dst.bits)};
    Int128 lo = p.dst.isSigned ? -hi - 1 : 0;
    if (v > hi) v = hi;
    if (v < lo) v = lo;
  }
  return static_cast<uint64_t>(v) & widthMask(p.dst.bits);
}

inline sf::Unpacked decodeSource(const Plan& p, uint64_t bits) {
  if (p.src.elem == Elem::Int) {
    return p.src.isSigned ? sf::fromSigned(signExtend(bits, p.src.bits))
                          : sf::fromUnsigned(bits & widthMask(p.src.bits));
  }
  const sf::Format& f = formatOf(p.src.elem);
  bits &= widthMask(f.width());
  // The H100 does not flush f32 inputs of cvt.ftz to f16/bf16 (measured:
  // cvt.rp.ftz.f16.f32 of the smallest subnormal gives 0x0001).
  bool narrowDest = p.dst.elem == Elem::F16 || p.dst.elem == Elem::BF16;
  if (p.ftz && p.src.elem == Elem::F32 && !narrowDest && sf::isSubnormalBits(bits, f)) bits &= f.signBit();
  return sf::decode(bits, f);
}

// NaN results the H100 writes that keep the source's sign and payload (as
// IEEE conversions do), measured by tests/cuda/semantics/convert_*.cu:
// f32 <-> f64 and f64 integral rounding set the quiet bit and keep the
// payload's upper bits; cvt to tf32 rounds a NaN's bits like any other's.
// Other conversions write the destination's canonical NaN.
inline bool payloadNaN(const Plan& p, uint64_t bits, uint64_t& result) {
  if (p.src.elem == Elem::F32 && !sf::decode(bits & 0xffffffff, sf::kF32).isNaN()) return false;
  if (p.src.elem == Elem::F64 && !sf::decode(bits, sf::kF64).isNaN()) return false;
  if (p.src.elem == Elem::F64 && p.dst.elem == Elem::F64) {
    result = bits | 0x0008000000000000;
  } else if (p.src.elem == Elem::F64 && p.dst.elem == Elem::F32) {
    result = ((bits >> 32) & 0x80000000) | 0x7fc00000 | ((bits & 0x000fffffffffffff) >> 29);
  } else if (p.src.elem == Elem::F32 && p.dst.elem == Elem::F64) {
    result = ((bits & 0x80000000) << 32) | 0x7ff8000000000000 | ((bits & 0x007fffff) << 29);
  } else if (p.src.elem == Elem::F32 && p.dst.elem == Elem::TF32) {
    uint64_t b = bits & 0xffffffff;
    uint64_t increment = p.mode == sf::Round::NearestAway ? 0x1000
                         : p.mode == sf::Round::Nearest    ? 0xfff + ((b >> 13) & 1)
                                                           : 0;
    result = (b + increment) & 0xffffe000;
  } else {
    return false;
  }
  return true;
}

// Float to integer: rounded as the mode says, clamped to the range. A NaN
// gives 0, except from .f64 or to a 64-bit integer, where the ISA gives
// 1 << (width - 1).
inline uint64_t floatToInt(const Plan& p, const sf::Unpacked& u) {
  if (u.isNaN()) return (p.src.elem == Elem::F64 || p.dst.bits == 64) ? uint64_t{1} << (p.dst.bits - 1) : 0;
  return sf::toInteger(u, p.mode, p.dst.bits, p.dst.isSigned);
}

// .sat: clamp to [0.0, 1.0], NaN to +0. .relu: negative values to +0.
inline sf::Unpacked clampForModifiers(const Plan& p, sf::Unpacked u) {
  if (p.sat) {
    if (u.isNaN() || u.negative) return sf::Unpacked{};
    if (u.cls == sf::Class::Inf || (u.cls == sf::Class::Finite && u.exp >= 0)) return sf::fromUnsigned(1);
  }
  if (p.relu && !u.isNaN() && u.negative) return sf::Unpacked{};
  return u;
}

inline uint64_t encodeFloat(const Plan& p, const sf::Unpacked& u) {
  const sf::Format& f = formatOf(p.dst.elem);
  sf::EncodeOptions o{p.mode, p.satfinite, p.ftz && p.dst.elem == Elem::F32};
  uint64_t bits = sf::encode(u, f, o);
  return p.dst.elem == Elem::TF32 ? sf::tf32ToF32Bits(bits) : bits;
}

// The destination element's bits for one source element's bits.
inline uint64_t convert(const Plan& p, uint64_t bits) {
  if (p.src.elem == Elem::Int && p.dst.elem == Elem::Int) return intToInt(p, bits);
  uint64_t nan = 0;
  if (!p.sat && p.dst.elem != Elem::Int && payloadNaN(p, bits, nan)) return nan;
  sf::Unpacked u = decodeSource(p, bits);
  if (p.dst.elem == Elem::Int) return floatToInt(p, u) & widthMask(p.dst.bits);
  if (p.integral) u = sf::roundToIntegral(u, p.mode);
  return encodeFloat(p, clampForModifiers(p, u));
}

}  // namespace ptxsim::sim::semantics::cvt
