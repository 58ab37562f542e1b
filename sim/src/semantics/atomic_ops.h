#pragma once

// The value computations of atom and red, one functor per operation and
// element type, on the raw bits of the memory element: `apply(old, b, ftz)`
// returns the new memory value. atomic.cpp applies them to memory.
//
// f16 and bf16 arithmetic rounds through double: the sum of two f16 or two
// bf16 values is exact in double, or (bf16 with far-apart exponents) rounded
// once to 53 bits, and rounding twice through a format with at least 2p+2
// bits gives the correctly rounded result for addition, so one final
// round-to-nearest-even to the element format is exact.

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ptxsim::sim::semantics::atomic_ops {

// The NaN an H100's f16, bf16 and f32 atomics write for a NaN result,
// whatever the inputs: every bit but the sign.
inline constexpr uint16_t kHalfNaN = 0x7fff;
inline constexpr uint32_t kF32NaN = 0x7fffffffu;

// f16 (5 exponent bits, 10 fraction bits) and bf16 (8, 7).
struct HalfFormat {
  unsigned expBits;
  unsigned manBits;
  constexpr int bias() const { return (1 << (expBits - 1)) - 1; }
  constexpr uint32_t expAllOnes() const { return (1u << expBits) - 1; }
  constexpr uint32_t infBits() const { return expAllOnes() << manBits; }
  constexpr uint32_t signBit() const { return 1u << (expBits + manBits); }
};
inline constexpr HalfFormat kF16{5, 10};
inline constexpr HalfFormat kBF16{8, 7};

inline bool isHalfNaN(uint16_t bits, HalfFormat f) {
  return (bits & ~f.signBit() & 0xffffu) > f.infBits();
}

inline double halfToDouble(uint16_t bits, HalfFormat f) {
  bool negative = (bits & f.signBit()) != 0;
  uint32_t e = (bits >> f.manBits) & f.expAllOnes();
  uint32_t m = bits & ((1u << f.manBits) - 1);
  double value;
  if (e == f.expAllOnes()) {
    value = m != 0 ? std::nan("") : INFINITY;
  } else if (e == 0) {
    value = std::ldexp(static_cast<double>(m), 1 - f.bias() - static_cast<int>(f.manBits));
  } else {
    value = std::ldexp(static_cast<double>(m | (1u << f.manBits)),
                       static_cast<int>(e) - f.bias() - static_cast<int>(f.manBits));
  }
  return negative ? -value : value;
}

// A double rounded to the nearest f16/bf16, ties to even; overflow gives
// infinity, NaN the canonical NaN.
inline uint16_t doubleToHalf(double x, HalfFormat f) {
  if (std::isnan(x)) return kHalfNaN;
  uint64_t bits = std::bit_cast<uint64_t>(x);
  uint32_t sign = (bits >> 63) != 0 ? f.signBit() : 0;
  uint64_t biased = (bits >> 52) & 0x7ff;
  if (biased == 0x7ff) return static_cast<uint16_t>(sign | f.infBits());
  if (biased == 0) return static_cast<uint16_t>(sign);  // zero (no f16/bf16 sum is a double subnormal)
  uint64_t sig = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  int e = static_cast<int>(biased) - 1023;  // x = sig * 2^(e - 52)
  int emin = 1 - f.bias();
  int shift = 52 - static_cast<int>(f.manBits) + (e < emin ? emin - e : 0);
  if (shift >= 54) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
  uint64_t q = sig >> shift;
  uint64_t rest = sig & ((uint64_t{1} << shift) - 1);
  uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (q & 1) != 0)) ++q;
  // A subnormal is its fraction alone; a normal adds its exponent field
  // under the hidden bit. A rounding carry moves into the exponent either way.
  uint64_t magnitude = e < emin ? q : (static_cast<uint64_t>(e + f.bias() - 1) << f.manBits) + q;
  if (magnitude >= f.infBits()) magnitude = f.infBits();
  return static_cast<uint16_t>(sign | magnitude);
}

inline uint16_t addHalf(uint16_t a, uint16_t b, HalfFormat f) {
  return doubleToHalf(halfToDouble(a, f) + halfToDouble(b, f), f);
}

// min/max of two f16/bf16 values as PTX min/max define them: a NaN operand
// yields the other, two NaNs the canonical NaN, and -0 orders below +0.
template <bool kMax>
uint16_t minMaxHalf(uint16_t a, uint16_t b, HalfFormat f) {
  bool nanA = isHalfNaN(a, f), nanB = isHalfNaN(b, f);
  if (nanA && nanB) return kHalfNaN;
  if (nanA) return b;
  if (nanB) return a;
  double x = halfToDouble(a, f), y = halfToDouble(b, f);
  if (x == y) {
    // Equal values differ only in the sign of a zero.
    bool aNegative = (a & f.signBit()) != 0;
    return (aNegative == kMax) ? b : a;
  }
  return (x > y) == kMax ? a : b;
}

// f32 with the global-memory atomics' flush of subnormal inputs and
// results to zero of the same sign.
inline uint32_t flushF32(uint32_t bits) { return (bits & 0x7f800000u) == 0 ? bits & 0x80000000u : bits; }

inline uint32_t addF32(uint32_t a, uint32_t b, bool ftz) {
  if (ftz) {
    a = flushF32(a);
    b = flushF32(b);
  }
  float sum = std::bit_cast<float>(a) + std::bit_cast<float>(b);
  if (std::isnan(sum)) return kF32NaN;
  uint32_t bits = std::bit_cast<uint32_t>(sum);
  return ftz ? flushF32(bits) : bits;
}

// f64 add as the H100's atomics do it (tests/cuda/semantics/atomic_float.cu):
// a NaN operand is returned unchanged, even a signaling one, the added
// value b ahead of the memory value a; an invalid sum (inf - inf) is the
// negative quiet NaN.
inline constexpr uint64_t kF64InvalidNaN = 0xfff8000000000000ull;

inline uint64_t addF64(uint64_t a, uint64_t b) {
  double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
  if (std::isnan(y)) return b;
  if (std::isnan(x)) return a;
  double sum = x + y;
  return std::isnan(sum) ? kF64InvalidNaN : std::bit_cast<uint64_t>(sum);
}

// Each operation: `Bits` is the memory element, apply(old, b, ftz) the new
// value (ftz: the access went to global memory, for f32 add).
template <typename T>
struct IntAdd {
  using Bits = std::make_unsigned_t<T>;
  static Bits apply(Bits old, Bits b, bool) { return static_cast<Bits>(old + b); }
};
template <typename T>
struct IntMin {
  using Bits = std::make_unsigned_t<T>;
  static Bits apply(Bits old, Bits b, bool) {
    return static_cast<T>(b) < static_cast<T>(old) ? b : old;
  }
};
template <typename T>
struct IntMax {
  using Bits = std::make_unsigned_t<T>;
  static Bits apply(Bits old, Bits b, bool) {
    return static_cast<T>(b) > static_cast<T>(old) ? b : old;
  }
};
// inc/dec count within [0, b] and wrap (PTX: inc(r, s) = r >= s ? 0 : r+1;
// dec(r, s) = (r == 0 || r > s) ? s : r-1), unsigned.
struct Inc {
  using Bits = uint32_t;
  static Bits apply(Bits old, Bits b, bool) { return old >= b ? 0 : old + 1; }
};
struct Dec {
  using Bits = uint32_t;
  static Bits apply(Bits old, Bits b, bool) { return (old == 0 || old > b) ? b : old - 1; }
};
template <typename B>
struct And {
  using Bits = B;
  static Bits apply(Bits old, Bits b, bool) { return old & b; }
};
template <typename B>
struct Or {
  using Bits = B;
  static Bits apply(Bits old, Bits b, bool) { return old | b; }
};
template <typename B>
struct Xor {
  using Bits = B;
  static Bits apply(Bits old, Bits b, bool) { return old ^ b; }
};
template <typename B>
struct Exch {
  using Bits = B;
  static Bits apply(Bits, Bits b, bool) { return b; }
};

struct AddF32 {
  using Bits = uint32_t;
  static Bits apply(Bits old, Bits b, bool ftz) { return addF32(old, b, ftz); }
};
// In shared memory sm_90 adds with a compare-and-swap loop around DADD
// b + old: a NaN comes back quieted, the memory value's ahead of b's (the
// conformance suite's memory set, atom/red.shared.add.f64).
inline uint64_t addF64Shared(uint64_t old, uint64_t b) {
  constexpr uint64_t kQuiet = 0x0008000000000000ull;
  if (std::isnan(std::bit_cast<double>(old))) return old | kQuiet;
  if (std::isnan(std::bit_cast<double>(b))) return b | kQuiet;
  return addF64(old, b);
}

struct AddF64 {
  using Bits = uint64_t;
  static Bits apply(Bits old, Bits b, bool global) { return global ? addF64(old, b) : addF64Shared(old, b); }
};

// f16/bf16 element operations, on one 16-bit value or on both halves of a
// packed pair (element 0 in the low half).
enum class HalfOp : uint8_t { Add, Min, Max };

inline uint16_t applyHalf(HalfOp op, uint16_t a, uint16_t b, HalfFormat f) {
  switch (op) {
    case HalfOp::Add: return addHalf(a, b, f);
    case HalfOp::Min: return minMaxHalf<false>(a, b, f);
    case HalfOp::Max: return minMaxHalf<true>(a, b, f);
  }
  return a;
}

template <HalfOp kOp, bool kIsBF16>
struct Half {
  using Bits = uint16_t;
  static Bits apply(Bits old, Bits b, bool) { return applyHalf(kOp, old, b, kIsBF16 ? kBF16 : kF16); }
};
template <HalfOp kOp, bool kIsBF16>
struct HalfPair {
  using Bits = uint32_t;
  static Bits apply(Bits old, Bits b, bool) {
    HalfFormat f = kIsBF16 ? kBF16 : kF16;
    uint32_t lo = applyHalf(kOp, static_cast<uint16_t>(old), static_cast<uint16_t>(b), f);
    uint32_t hi = applyHalf(kOp, static_cast<uint16_t>(old >> 16), static_cast<uint16_t>(b >> 16), f);
    return lo | (hi << 16);
  }
};

}  // namespace ptxsim::sim::semantics::atomic_ops
