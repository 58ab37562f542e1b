#pragma once

// The f32/f64 operations of one lane, correctly rounded in a given
// direction. Round-to-nearest uses the host's own IEEE arithmetic (the
// common case, and fast); the directed modes use the exact arithmetic of
// float_ieee.h. Either way a NaN result gets the GPU's bits: the operands
// are listed to nanResult in the order the H100 prefers their NaNs.

#include <cmath>

#include "float_ieee.h"

namespace ptxsim::sim::semantics {

template <typename T>
T withGpuNaN(T result, std::initializer_list<T> inputs) {
  return std::isnan(result) ? fp::nanResult<T>(inputs) : result;
}

struct AddOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(a + b, {b, a}) : fp::add(a, b, r);
  }
};
struct SubOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    // sub is add of the negated operand (sm_90 runs sub.f64 as DADD with a
    // negated b), but a NaN b comes out with its own sign: sub.f64 of 1 and
    // 0x7ff8000000000000 is 0x7ff8000000000000 on an H100.
    if (std::isnan(a) || std::isnan(b)) return fp::nanResult<T>({b, a});
    return AddOp::apply(a, -b, r);
  }
};
struct MulOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(a * b, {b, a}) : fp::mul(a, b, r);
  }
};
struct FmaOp {
  template <typename T>
  static T apply(T a, T b, T c, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(std::fma(a, b, c), {b, c, a}) : fp::fma(a, b, c, r);
  }
};
struct DivOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(a / b, {a, b}) : fp::div(a, b, r);
  }
};
struct SqrtOp {
  template <typename T>
  static T apply(T a, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(std::sqrt(a), {a}) : fp::sqrt(a, r);
  }
};

}  // namespace ptxsim::sim::semantics
