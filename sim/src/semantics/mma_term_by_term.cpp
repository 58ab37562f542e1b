#include "mma_term_by_term.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>

#include "small_float.h"

namespace ptxsim::sim::semantics::mma {

namespace {

constexpr uint32_t kF32NaN = 0x7fffffffu;
constexpr uint32_t kF32Inf = 0x7f800000u;
constexpr uint32_t kF32Sign = 0x80000000u;

// One step of the fp8 path: the terms (exact values and their raw
// exponents) aligned to the largest raw exponent, truncated toward zero 25
// bits below it, summed exactly and rounded toward zero to f32. Every term
// is below 2^(anchor + 2), so each aligned term is under 2^27 units and
// the sum of 17 fits an int64 and, scaled back, a double.
uint32_t fp8Step(const double* values, const int* exponents, unsigned count) {
  int anchor = INT_MIN;
  for (unsigned i = 0; i < count; ++i) {
    if (values[i] != 0) anchor = std::max(anchor, exponents[i]);
  }
  if (anchor == INT_MIN) return 0;
  int lsb = anchor - 25;
  int64_t sum = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (values[i] != 0) sum += static_cast<int64_t>(std::trunc(std::ldexp(values[i], -lsb)));
  }
  if (sum == 0) return 0;
  return f32TowardZero(std::ldexp(static_cast<double>(sum), lsb));
}

// The wgmma sum (mma_numerics.h) before it takes the result's format: NaN,
// an infinity, or the exact sum of the aligned terms.
double wgmmaSum(const WgmmaDotModel& model, DotOperand a, DotOperand b, unsigned n, Scaled cScaled) {
  constexpr unsigned kMaxTerms = 72;  // K is at most 64 (the sparse 8-bit forms)
  bool nan = false, posInf = false, negInf = false;
  double terms[kMaxTerms];
  int exponents[kMaxTerms];
  unsigned count = 0;
  int anchor = INT_MIN;
  auto add = [&](double value, int exponent) {
    if (std::isnan(value)) {
      nan = true;
    } else if (std::isinf(value)) {
      (value > 0 ? posInf : negInf) = true;
    } else if (value != 0) {
      terms[count] = value;
      exponents[count++] = exponent;
      anchor = std::max(anchor, exponent);
    }
  };
  for (unsigned k = 0; k < n && k + 1 < kMaxTerms; ++k) {
    // exact: at most 22 significant bits
    add(valueOf({a.significands[k], a.exponents[k]}) * valueOf({b.significands[k], b.exponents[k]}),
        a.exponents[k] + b.exponents[k]);
  }
  add(valueOf(cScaled), cScaled.exponent);
  if (nan || (posInf && negInf)) return std::numeric_limits<double>::quiet_NaN();
  if (posInf || negInf) return negInf ? -INFINITY : INFINITY;
  if (count == 0) return 0;  // only zeros: +0, as mma_numerics.expected's "zero:" lines
  // Every term is below 2^(anchor + 2), so each aligned term is under
  // 2^(alignBits + 2) units and the sum of 65 fits an int64 and, scaled
  // back, a double.
  int lsb = anchor - model.alignBits;
  int64_t sum = 0;
  for (unsigned i = 0; i < count; ++i) sum += static_cast<int64_t>(std::trunc(std::ldexp(terms[i], -lsb)));
  return std::ldexp(static_cast<double>(sum), lsb);  // +0 for a zero sum
}

}  // namespace

uint32_t f32TowardZero(double value) {
  return static_cast<uint32_t>(sf::encode(sf::fromDouble(value), sf::kF32, {sf::Round::Zero, false, false}));
}

uint32_t wgmmaResult(const WgmmaDotModel& model, double value) {
  if (std::isnan(value)) {
    return model.f16Result ? static_cast<uint32_t>(sf::encode(sf::decode(kF32NaN, sf::kF32), sf::kF16, {}))
                           : kF32NaN;
  }
  if (model.f16Result) return static_cast<uint32_t>(sf::encode(sf::fromDouble(value), sf::kF16, {}));
  if (std::fabs(value) >= 0x1p128) return kF32Inf | (value < 0 ? kF32Sign : 0);
  if (value == 0) return 0;
  if (model.resultBits < 24) {
    int shift = std::ilogb(value) - static_cast<int>(model.resultBits) + 1;
    value = std::ldexp(std::trunc(std::ldexp(value, -shift)), shift);
  }
  return f32TowardZero(value);
}

uint32_t wgmmaDotTermByTerm(const WgmmaDotModel& model, DotOperand a, DotOperand b, unsigned n, Scaled c) {
  return wgmmaResult(model, wgmmaSum(model, a, b, n, c));
}

uint32_t fp8DotF32TermByTerm(DotOperand a, DotOperand b, unsigned kK, uint32_t cBits) {
  constexpr unsigned kMaxStep = kMaxDotK / 2;  // 32 for mma.sp's m16n8k64 expanded A
  unsigned kStep = kK / 2;
  bool nan = false, posInf = false, negInf = false;
  double first[kMaxStep], second[kMaxStep + 1];
  int firstExponents[kMaxStep], secondExponents[kMaxStep + 1];
  unsigned firstCount = 0, secondCount = 0;
  for (unsigned k = 0; k < kK; ++k) {
    // exact: at most 8 significant bits
    double p = valueOf({a.significands[k], a.exponents[k]}) * valueOf({b.significands[k], b.exponents[k]});
    if (std::isnan(p)) {  // a NaN operand, or infinity times zero
      nan = true;
    } else if (std::isinf(p)) {
      (p > 0 ? posInf : negInf) = true;
    } else if (k < kStep) {
      first[firstCount] = p;
      firstExponents[firstCount++] = a.exponents[k] + b.exponents[k];
    } else {
      second[secondCount] = p;
      secondExponents[secondCount++] = a.exponents[k] + b.exponents[k];
    }
  }
  if (nan || (posInf && negInf)) return kF32NaN;
  float products;
  if (posInf || negInf) {
    products = posInf ? INFINITY : -INFINITY;
  } else {
    float step = std::bit_cast<float>(fp8Step(first, firstExponents, firstCount));
    second[secondCount] = step;
    secondExponents[secondCount++] = std::max(std::ilogb(step), -126);
    products = std::bit_cast<float>(fp8Step(second, secondExponents, secondCount));
  }
  // The host's f32 addition is IEEE's, rounded to nearest even.
  float d = products + std::bit_cast<float>(cBits);
  return std::isnan(d) ? kF32NaN : std::bit_cast<uint32_t>(d);
}

}  // namespace ptxsim::sim::semantics::mma
