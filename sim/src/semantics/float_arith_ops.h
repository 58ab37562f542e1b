#pragma once

// The f32/f64 operations of one lane, correctly rounded in a given
// direction. Round-to-nearest uses the host's own IEEE arithmetic (the
// common case, and fast); the directed modes use the exact arithmetic of
// float_ieee.h. Either way a NaN result gets the GPU's bits.

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
    return r == fp::Round::Nearest ? withGpuNaN<T>(a + b, {a, b}) : fp::add(a, b, r);
  }
};
struct SubOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    // sub is add of the negated operand, NaN included: sub.f64 1, q returns
    // q with its sign flipped (measured on an H100).
    return AddOp::apply(a, -b, r);
  }
};
struct MulOp {
  template <typename T>
  static T apply(T a, T b, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(a * b, {a, b}) : fp::mul(a, b, r);
  }
};
struct FmaOp {
  template <typename T>
  static T apply(T a, T b, T c, fp::Round r) {
    return r == fp::Round::Nearest ? withGpuNaN<T>(std::fma(a, b, c), {a, b, c}) : fp::fma(a, b, c, r);
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
