#pragma once

// A model of the H100's multi-function unit (MUFU) and of the instruction
// sequences ptxas builds around it for the .approx instructions (read from
// cuobjdump -sass of sm_90 code). RCP, SQRT, RSQ, EX2 and LG2 give the
// unit's own bits: its tables as read on an H100 (mufu_table.h), extended
// by rules checked there against every f32 input. SIN, COS and TANH are
// still modelled as correctly rounded values of the function, which
// differ from the unit in the last bit for some inputs (MUFU.TANH equals
// the correctly rounded tanh for 89% of inputs). Subnormal inputs and
// results flush to zero as MUFU does. The sequences around MUFU (range
// scaling of the non-.ftz forms, the revolution scaling of sin/cos, the
// upper-word-only f64 operations) are reproduced exactly.

#include <cmath>
#include <numbers>

#include "float_ieee.h"
#include "mufu_table.h"

namespace ptxsim::sim::semantics::mufu {

inline float canonicalNaN() { return fp::fromBitsOf<float>(0x7fffffffu); }
inline float rn(double x) { return fp::flush(static_cast<float>(x)); }

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
// MUFU.SIN/COS take the angle in revolutions, and read subnormal angles
// (sin.approx.f32 of 2^-126 is 2^-126 on an H100); huge angles are not
// reduced as the unit does (the H100 gives cos.approx(2^127) = 0x3f482b8f).
inline double turnsToRadians(float t) {
  double whole = std::nearbyint(static_cast<double>(t));
  return 2 * std::numbers::pi * (static_cast<double>(t) - whole);
}
inline float sin(float t) {
  if (std::isnan(t) || std::isinf(t)) return canonicalNaN();
  if (t == 0) return t;
  return rn(std::sin(turnsToRadians(t)));
}
inline float cos(float t) {
  if (std::isnan(t) || std::isinf(t)) return canonicalNaN();
  return rn(std::cos(turnsToRadians(t)));
}
// MUFU.TANH keeps subnormals (tanh.approx.f32 of 0x00000001 is 0x00000001).
inline float tanh(float x) {
  if (std::isnan(x)) return canonicalNaN();
  return static_cast<float>(std::tanh(static_cast<double>(x)));
}

// MUFU.RCP64H/RSQ64H: the function of the operand's upper 32 bits (sign,
// exponent, 20 fraction bits), to 20 fraction bits, lower 32 bits zero;
// subnormals flush. A NaN gives 0x7fffffff00000000 (measured on an H100).
template <typename F>
double upperWord(double a, F f) {
  if (std::isnan(a)) return fp::fromBitsOf<double>(0x7fffffff00000000ull);
  double upper = fp::fromBitsOf<double>(fp::bitsOf(fp::flush(a)) & 0xffffffff00000000ull);
  double r = f(upper);
  if (std::isnan(r)) return fp::fromBitsOf<double>(0x7fffffff00000000ull);
  if (std::isfinite(r)) {
    uint64_t b = (fp::bitsOf(r) + 0x80000000ull) & 0xffffffff00000000ull;  // nearest at bit 32
    r = fp::fromBitsOf<double>(b);
  }
  return fp::flush(r);
}
inline double rcp64h(double a) {
  return upperWord(a, [](double x) { return x == 0 ? fp::infinity<double>(fp::signOf(x)) : 1.0 / x; });
}
inline double rsq64h(double a) {
  return upperWord(a, [](double x) {
    if (x == 0) return fp::infinity<double>(fp::signOf(x));
    return x < 0 ? std::nan("") : 1.0 / std::sqrt(x);
  });
}

}  // namespace ptxsim::sim::semantics::mufu
