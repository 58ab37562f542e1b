#pragma once

// A model of the H100's multi-function unit (MUFU) and of the instruction
// sequences ptxas builds around it for the .approx instructions (read from
// cuobjdump -sass of sm_90 code). Every function gives the unit's own
// bits: its tables as read on an H100 (mufu_table.h), extended by rules
// checked there against every input. Subnormal inputs and results flush
// to zero as MUFU does (tanh keeps them). The sequences around MUFU (range
// scaling of the non-.ftz forms, the revolution scaling of sin/cos) are
// reproduced exactly.

#include <cmath>

#include "float_ieee.h"
#include "mufu_table.h"

namespace ptxsim::sim::semantics::mufu {

inline float canonicalNaN() { return fp::fromBitsOf<float>(0x7fffffffu); }

// The unit's own value for a positive normal f32: the table of the
// mantissa, scaled exactly (sim/data/mufu/README.md gives each rule and how
// it was checked against all 2^32 inputs on an H100).
inline uint32_t mantissaOf(float x) { return fp::bitsOf(x) & 0x7fffffu; }
inline int exponentOf(float x) { return static_cast<int>((fp::bitsOf(x) >> 23) & 0xff) - 127; }
inline float at(TableId id, uint32_t index) { return fp::fromBitsOf<float>(entry(id, index)); }

inline float rcp(float x) {
  x = fp::flush(x);
  if (std::isnan(x)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(fp::signOf(x));
  if (std::isinf(x)) return std::copysign(0.0f, x);
  float r = fp::flush(std::ldexp(at(TableId::Rcp, mantissaOf(x)), -exponentOf(x)));
  return std::copysign(r, x);
}
// sqrt and rsqrt: one table for each parity of the exponent.
inline float sqrt(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  if (x == 0 || std::isinf(x)) return x;
  int e = exponentOf(x), odd = e & 1;
  return std::ldexp(at(odd ? TableId::SqrtE1 : TableId::SqrtE0, mantissaOf(x)), (e - odd) / 2);
}
inline float rsqrt(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(fp::signOf(x));
  if (std::isinf(x)) return 0.0f;
  int e = exponentOf(x), odd = e & 1;
  return std::ldexp(at(odd ? TableId::RsqrtE1 : TableId::RsqrtE0, mantissaOf(x)), -(e - odd) / 2);
}
// MUFU.EX2 reads its input as a sign and a magnitude n + f, f truncated to
// 23 fraction bits, and looks 2^f (or 2^-f) up.
inline float ex2(float x) {
  x = fp::flush(x);
  if (std::isnan(x)) return canonicalNaN();
  if (x >= 128.0f) return fp::infinity<float>(false);
  if (x <= -127.0f) return 0.0f;
  float magnitude = std::fabs(x), whole = std::floor(magnitude);
  auto fraction = static_cast<uint32_t>(std::ldexp(magnitude - whole, 23));  // exact, then truncated
  int n = static_cast<int>(whole);
  if (!std::signbit(x)) return std::ldexp(at(TableId::Ex2Pos, fraction), n);
  return fp::flush(std::ldexp(at(TableId::Ex2Neg, fraction), -n));
}
// MUFU.LG2 adds the exponent to the table's value and rounds toward zero;
// below 1 its table is another (lg2(0.5) is -0.99999988, not -1).
inline float lg2(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(true);
  if (std::isinf(x)) return x;
  int e = exponentOf(x);
  double sum = e >= 0 ? e + static_cast<double>(at(TableId::Lg2E0, mantissaOf(x)))
                      : (e + 1) + static_cast<double>(at(TableId::Lg2Em1, mantissaOf(x)));
  if (sum == 0) return 0.0f;
  return fp::roundExact<float>(fp::decompose(sum), fp::Round::Zero);
}
// MUFU.SIN/COS take the angle t in revolutions and read frac(|t|) as a
// fixed-point number of 25 fraction bits, truncated: sin(2 pi q 2^-25)
// from a table of half a period (sin(t + 1/2) = -sin t and cos t =
// sin(t + 1/4) hold for every entry), the sign of t for sin. Checked
// against all 2^32 inputs of sin/cos.approx.f32 on an H100
// (tests/gpu_truth/probes/mufu_trig_probe.cu): subnormal and huge angles
// included (the H100 gives cos.approx(2^127) = 0x3f482b8f).
constexpr uint32_t kTurnFractionBits = 25;
inline uint32_t turnIndex(float t) {
  double magnitude = std::fabs(static_cast<double>(t));
  return static_cast<uint32_t>(std::ldexp(magnitude - std::floor(magnitude), kTurnFractionBits));  // exact, then truncated
}
inline uint32_t sinOfTurnIndex(uint32_t q) {
  constexpr uint32_t kHalfTurn = 1u << (kTurnFractionBits - 1);
  return q < kHalfTurn ? entry(TableId::SinHalf, q) : entry(TableId::SinHalf, q - kHalfTurn) ^ 0x80000000u;
}
inline float sin(float t) {
  if (std::isnan(t) || std::isinf(t)) return canonicalNaN();
  return fp::fromBitsOf<float>(sinOfTurnIndex(turnIndex(t)) ^ (fp::bitsOf(t) & 0x80000000u));
}
inline float cos(float t) {
  if (std::isnan(t) || std::isinf(t)) return canonicalNaN();
  constexpr uint32_t kQuarterTurn = 1u << (kTurnFractionBits - 2), kTurnMask = (1u << kTurnFractionBits) - 1;
  return fp::fromBitsOf<float>(sinOfTurnIndex((turnIndex(t) + kQuarterTurn) & kTurnMask));
}
// MUFU.TANH: odd; x itself below 2^-8 (subnormals kept), 1 from 8 up, and
// between them a table of each binade's top fraction bits (mufu_table.h).
// Checked against all 2^32 inputs (mufu_explore_probe.cu).
inline float tanh(float x) {
  if (std::isnan(x)) return canonicalNaN();
  const uint32_t bits = fp::bitsOf(x), sign = bits & 0x80000000u, magnitude = bits & 0x7fffffffu;
  const int e = static_cast<int>(magnitude >> 23) - 127;
  if (e < kTanhFirstBinade) return x;
  if (e > kTanhLastBinade) return fp::fromBitsOf<float>(sign | 0x3f800000u);
  const uint32_t index = tanhBinadeOffset(e) + ((magnitude & 0x7fffffu) >> (23 - tanhFractionBits(e)));
  return fp::fromBitsOf<float>(sign | entry(TableId::TanhF32, index));
}

// MUFU.RCP64H/RSQ64H read only the operand's upper 32 bits (sign, 11
// exponent bits, 20 fraction bits) and write the result's, the lower 32
// zero: a table of the 20 fraction bits (and, for rsqrt, the exponent's
// parity) scaled by the exponent; results below the normal range flush. A
// NaN upper word (and rsqrt of a negative number) gives 0x7fffffff;
// subnormal and zero upper words give infinity of their sign. Checked
// against all 2^32 upper words on an H100 (mufu_explore_probe.cu).
constexpr uint64_t kNaNUpperWord = 0x7fffffff00000000ull;
struct UpperWord {
  uint32_t sign, exponent, fraction;  // exponent biased by 1023
};
inline UpperWord upperWordOf(double a) {
  const uint32_t high = static_cast<uint32_t>(fp::bitsOf(a) >> 32);
  return {high & 0x80000000u, (high >> 20) & 0x7ffu, high & 0xfffffu};
}
// The table entry (an upper word) with its exponent lowered by `by`.
inline double scaledUpperWord(uint32_t sign, uint32_t entryWord, int by) {
  const int exponent = static_cast<int>((entryWord >> 20) & 0x7ffu) - by;
  if (exponent <= 0) return fp::fromBitsOf<double>(uint64_t{sign} << 32);
  const uint32_t high = sign | (static_cast<uint32_t>(exponent) << 20) | (entryWord & 0xfffffu);
  return fp::fromBitsOf<double>(uint64_t{high} << 32);
}
inline double rcp64h(double a) {
  const UpperWord w = upperWordOf(a);
  if (w.exponent == 0x7ff) return fp::fromBitsOf<double>(w.fraction ? kNaNUpperWord : uint64_t{w.sign} << 32);
  if (w.exponent == 0) return fp::infinity<double>(w.sign != 0);
  return scaledUpperWord(w.sign, entry(TableId::Rcp64H, w.fraction), static_cast<int>(w.exponent) - 1023);
}
inline double rsq64h(double a) {
  const UpperWord w = upperWordOf(a);
  if (w.exponent == 0x7ff) return fp::fromBitsOf<double>(w.fraction || w.sign ? kNaNUpperWord : 0);
  if (w.exponent == 0) return fp::infinity<double>(w.sign != 0);
  if (w.sign) return fp::fromBitsOf<double>(kNaNUpperWord);
  const int power = static_cast<int>(w.exponent) - 1023, odd = power & 1;
  const uint32_t entryWord = entry(odd ? TableId::Rsqrt64HE1 : TableId::Rsqrt64HE0, w.fraction);
  return scaledUpperWord(0, entryWord, (power - odd) / 2);
}

}  // namespace ptxsim::sim::semantics::mufu
