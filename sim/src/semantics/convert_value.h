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
  // The H100 does not flush f32 inputs of cvt.ftz to f16 (measured:
  // cvt.rp.ftz.f16.f32 of the smallest subnormal gives 0x0001); to bf16,
  // which sm_90 converts with F2F.FTZ.BF16.F32, it does (cvt.rp.ftz.bf16.f32
  // of 0x00000001 is 0x0000).
  if (p.ftz && p.src.elem == Elem::F32 && p.dst.elem != Elem::F16 && sf::isSubnormalBits(bits, f))
    bits &= f.signBit();
  return sf::decode(bits, f);
}

// Conversions that sm_90 runs as a move or a shift, so that every bit
// passes, a NaN's (signaling included) too: cvt.f32.f32 and cvt.f64.f64
// without modifiers are a MOV, cvt.f32.bf16 without .ftz a shift left by
// 16 (H100 conformance records).
inline bool bitExact(const Plan& p, uint64_t bits, uint64_t& result) {
  bool plain = !p.integral && !p.sat && !p.ftz;
  if (plain && p.src.elem == p.dst.elem && (p.src.elem == Elem::F32 || p.src.elem == Elem::F64)) {
    result = bits & widthMask(p.src.bits);
    return true;
  }
  if (plain && p.src.elem == Elem::BF16 && p.dst.elem == Elem::F32) {
    result = (bits & 0xffff) << 16;
    return true;
  }
  return false;
}

// A NaN between two IEEE formats as F2F converts it: the sign kept, the
// quiet bit set, the payload's upper bits kept (left-aligned).
inline uint64_t convertedNaN(uint64_t bits, const sf::Format& from, const sf::Format& to) {
  uint64_t payload = bits & ((uint64_t{1} << from.manBits) - 1);
  payload = to.manBits >= from.manBits ? payload << (to.manBits - from.manBits)
                                       : payload >> (from.manBits - to.manBits);
  uint64_t exponent = ((uint64_t{1} << to.expBits) - 1) << to.manBits;
  uint64_t quiet = uint64_t{1} << (to.manBits - 1);
  return (((bits >> (from.width() - 1)) & 1) << (to.width() - 1)) | exponent | quiet | payload;
}

// NaN results the H100 writes that keep the source's sign and payload (as
// IEEE conversions do), measured by tests/cuda/semantics/convert_*.cu and
// the conformance records: conversions between f16, bf16, f32 and f64 on
// F2F (f32 <-> f64, f16/bf16 -> f64, f64 -> f16/bf16) and f64 integral
// rounding set the quiet bit and keep the payload's upper bits; with .ftz,
// cvt.ftz.f64.f32 first runs FMUL.FTZ by 1, which makes any NaN the
// canonical f32 NaN, widened to 0x7fffffffe0000000. To tf32: .rn and .rz
// (F2FP.TF32.F32.PACK_B) write 0x7fffe000, the canonical f32 NaN's tf32
// bits; .rna is an integer sequence that rounds only finite values, so a
// NaN keeps its upper 19 bits, and .rna.satfinite then takes 0x2000 off
// any non-finite result (turning infinity into the largest finite value).
// Other conversions write the destination's canonical NaN.
inline bool payloadNaN(const Plan& p, uint64_t bits, uint64_t& result) {
  if (p.src.elem == Elem::Int || p.dst.elem == Elem::Int) return false;
  const sf::Format& from = formatOf(p.src.elem);
  if (!sf::decode(bits & widthMask(from.width()), from).isNaN()) return false;
  if (p.src.elem == Elem::F32 && p.dst.elem == Elem::F64 && p.ftz) {
    result = 0x7fffffffe0000000;
  } else if (p.src.elem == Elem::F64 && p.dst.elem == Elem::F64) {
    result = bits | 0x0008000000000000;
  } else if ((p.src.elem == Elem::F64 && p.dst.elem != Elem::TF32) ||
             (p.src.elem == Elem::F32 && p.dst.elem == Elem::F64) ||
             ((p.src.elem == Elem::F16 || p.src.elem == Elem::BF16) && p.dst.elem == Elem::F64)) {
    result = convertedNaN(bits, from, formatOf(p.dst.elem));
  } else if (p.src.elem == Elem::F32 && p.dst.elem == Elem::TF32) {
    uint64_t truncated = bits & 0xffffe000;
    if (p.mode != sf::Round::NearestAway) {
      result = 0x7fffe000;
    } else {
      result = p.satfinite ? truncated - 0x2000 : truncated;
    }
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
  uint64_t exact = 0;
  if (bitExact(p, bits, exact)) return exact;
  uint64_t nan = 0;
  if (!p.sat && payloadNaN(p, bits, nan)) return nan;
  sf::Unpacked u = decodeSource(p, bits);
  if (p.dst.elem == Elem::Int) return floatToInt(p, u) & widthMask(p.dst.bits);
  if (p.integral) u = sf::roundToIntegral(u, p.mode);
  return encodeFloat(p, clampForModifiers(p, u));
}

}  // namespace ptxsim::sim::semantics::cvt
