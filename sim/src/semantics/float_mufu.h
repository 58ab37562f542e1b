#pragma once

// A model of the H100's multi-function unit (MUFU) and of the instruction
// sequences ptxas builds around it for the .approx instructions (read from
// cuobjdump -sass of sm_90 code). Each MUFU operation here returns the
// correctly rounded value of its function (LG2: rounded toward zero, see
// lg2 below), with subnormal inputs and results flushed to zero as MUFU
// does; the real unit's tables are not public and differ in the last bit
// for some inputs (measured on an H100: MUFU.RCP equals the correctly
// rounded reciprocal for 87% of inputs, MUFU.SQRT 83%, MUFU.RSQ 78%,
// MUFU.EX2 94% of positive inputs (but 63% of those in (-1, 1):
// float_sweep.cu), MUFU.TANH 89%; all within the PTX ISA's bounds). The sequences around MUFU (range
// scaling of the non-.ftz forms, the revolution scaling of sin/cos, the
// upper-word-only f64 operations) are reproduced exactly.

#include <cmath>
#include <numbers>

#include "float_ieee.h"

namespace ptxsim::sim::semantics::mufu {

inline float canonicalNaN() { return fp::fromBitsOf<float>(0x7fffffffu); }
inline float rn(double x) { return fp::flush(static_cast<float>(x)); }

inline float rcp(float x) {
  x = fp::flush(x);
  if (std::isnan(x)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(fp::signOf(x));
  return rn(1.0 / static_cast<double>(x));  // a double quotient rounds to the correctly rounded f32 here
}
inline float sqrt(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  return rn(std::sqrt(static_cast<double>(x)));
}
inline float rsqrt(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(fp::signOf(x));
  return rn(1.0 / std::sqrt(static_cast<double>(x)));
}
inline float ex2(float x) {
  x = fp::flush(x);
  if (std::isnan(x)) return canonicalNaN();
  return rn(std::exp2(static_cast<double>(x)));
}
// MUFU.LG2 truncates its result (rounds toward zero) where the others
// round to nearest: of 256 lg2.approx.f32 results between -150 and -125
// (tests/cuda/semantics/float_sweep.cu), 251 are log2(x) rounded toward
// zero and 139 rounded to nearest; the other 5 lie within 0.006 ulp above
// a rounding boundary, where the unit's own approximation falls below it.
inline float lg2(float x) {
  x = fp::flush(x);
  if (std::isnan(x) || (x < 0)) return canonicalNaN();
  if (x == 0) return fp::infinity<float>(true);
  double exact = std::log2(static_cast<double>(x));
  if (exact == 0 || std::isinf(exact)) return static_cast<float>(exact);
  return fp::roundExact<float>(fp::decompose(exact), fp::Round::Zero);
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
