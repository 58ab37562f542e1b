#include "mma_elements.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "half_value.h"
#include "small_float.h"

namespace ptxsim::sim::semantics::mma {

namespace {

double fp8Value(uint64_t bits, const sf::Format& format) {
  sf::Unpacked u = sf::decode(bits, format);
  switch (u.cls) {
    case sf::Class::NaN: return std::numeric_limits<double>::quiet_NaN();
    case sf::Class::Inf: return u.negative ? -INFINITY : INFINITY;
    case sf::Class::Zero: return u.negative ? -0.0 : 0.0;
    case sf::Class::Finite: break;
  }
  double magnitude = std::ldexp(static_cast<double>(u.sig >> 60), u.exp - 3);  // at most 4 significant bits
  return u.negative ? -magnitude : magnitude;
}

float powerOfTwo(int e) { return std::bit_cast<float>(static_cast<uint32_t>(e + 127) << 23); }

// An IEEE-style format of E exponent and M mantissa bits; e4m3
// (`nanOnlyMax`) has no infinity and one NaN mantissa. Written with
// selects rather than branches, so that scaleAll's loops vectorise.
template <unsigned E, unsigned M, bool nanOnlyMax = false>
Scaled scaled(uint32_t bits) {
  constexpr uint32_t expMask = (1u << E) - 1, manMask = (1u << M) - 1;
  constexpr int bias = (1 << (E - 1)) - 1;
  uint32_t exponent = (bits >> M) & expMask, mantissa = bits & manMask;
  bool special = exponent == expMask && (!nanOnlyMax || mantissa == manMask);
  bool infinite = special && mantissa == 0 && !nanOnlyMax;
  uint32_t significand = special ? 0 : exponent == 0 ? mantissa : mantissa | (1u << M);
  float magnitude = static_cast<float>(significand) * powerOfTwo(-static_cast<int>(M));  // exact
  uint32_t sign = ((bits >> (E + M)) & 1) << 31;
  int32_t raw = exponent == 0 ? 1 - bias : static_cast<int32_t>(exponent) - bias;
  int32_t scaledExponent = special ? (infinite ? kInfinityExponent : kNaNExponent)
                           : significand == 0 ? kZeroExponent
                                              : raw;
  // A NaN's sign is dropped: its significand stays +0.
  sign = special && !infinite ? 0 : sign;
  return {std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign), scaledExponent};
}

Scaled tf32(uint32_t bits) { return scaled<8, 23>(bits & ~uint32_t{0x1fff}); }

}  // namespace

Scaled scaledOf(uint64_t bits, Elem e) {
  auto word = static_cast<uint32_t>(bits);
  switch (e) {
    case Elem::F16: return scaled<5, 10>(word);
    case Elem::BF16: return scaled<8, 7>(word);
    case Elem::TF32: return tf32(word);
    case Elem::E4M3: return scaled<4, 3, true>(word);
    case Elem::E5M2: return scaled<5, 2>(word);
    default: return scaled<8, 23>(word);
  }
}

namespace {

// Eight elements side by side, as the compiler's vector extension: the
// decode of scaled() with lane-wise selects.
using Words = uint32_t __attribute__((vector_size(32)));
using Ints = int32_t __attribute__((vector_size(32)));
using Floats = float __attribute__((vector_size(32)));
constexpr unsigned kLanes = sizeof(Words) / sizeof(uint32_t);

template <unsigned E, unsigned M, bool nanOnlyMax, uint32_t keep>
void scaleEight(const uint32_t* in, float* significands, int32_t* exponents) {
  constexpr uint32_t expMask = (1u << E) - 1, manMask = (1u << M) - 1;
  constexpr int32_t bias = (1 << (E - 1)) - 1;
  Words bits;
  std::memcpy(&bits, in, sizeof bits);
  bits &= keep;
  Words exponent = (bits >> M) & expMask, mantissa = bits & manMask;
  Ints special = exponent == expMask;
  if constexpr (nanOnlyMax) special &= mantissa == manMask;
  Ints infinite = nanOnlyMax ? Ints{} : special & (mantissa == 0);
  Words significand = special ? Words{} : exponent == 0 ? mantissa : mantissa | (1u << M);
  Floats magnitude = __builtin_convertvector(significand, Floats) * (1.0f / static_cast<float>(1u << M));
  Words sign = ((bits >> (E + M)) & 1) << 31;
  sign = special & ~infinite ? Words{} : sign;
  Ints raw = exponent == 0 ? Ints{} + (1 - bias) : reinterpret_cast<Ints>(exponent) - bias;
  Ints scaledExponent = special ? (infinite ? Ints{} + kInfinityExponent : Ints{} + kNaNExponent)
                        : significand == 0 ? Ints{} + kZeroExponent
                                           : raw;
  Floats signedMagnitude = reinterpret_cast<Floats>(reinterpret_cast<Words>(magnitude) | sign);
  std::memcpy(significands, &signedMagnitude, sizeof signedMagnitude);
  std::memcpy(exponents, &scaledExponent, sizeof scaledExponent);
}

template <unsigned E, unsigned M, bool nanOnlyMax = false, uint32_t keep = ~0u>
[[gnu::target_clones("avx2", "default")]]
void scaleEach(const uint32_t* bits, unsigned count, float* significands, int32_t* exponents) {
  unsigned i = 0;
  for (; i + kLanes <= count; i += kLanes) scaleEight<E, M, nanOnlyMax, keep>(bits + i, significands + i, exponents + i);
  for (; i < count; ++i) {
    Scaled s = scaled<E, M, nanOnlyMax>(bits[i] & keep);
    significands[i] = s.significand;
    exponents[i] = s.exponent;
  }
}

}  // namespace

void scaleAll(Elem e, const uint32_t* bits, unsigned count, float* significands, int32_t* exponents) {
  switch (e) {
    case Elem::F16: return scaleEach<5, 10>(bits, count, significands, exponents);
    case Elem::BF16: return scaleEach<8, 7>(bits, count, significands, exponents);
    case Elem::TF32: return scaleEach<8, 23, false, ~uint32_t{0x1fff}>(bits, count, significands, exponents);
    case Elem::E4M3: return scaleEach<4, 3, true>(bits, count, significands, exponents);
    case Elem::E5M2: return scaleEach<5, 2>(bits, count, significands, exponents);
    default: return scaleEach<8, 23>(bits, count, significands, exponents);
  }
}

void integersAll(Elem e, const uint32_t* bits, unsigned count, int16_t* values) {
  if (e == Elem::S8) {
    for (unsigned i = 0; i < count; ++i) values[i] = static_cast<int8_t>(bits[i]);
  } else {
    for (unsigned i = 0; i < count; ++i) values[i] = static_cast<uint8_t>(bits[i]);
  }
}

double valueOf(Scaled s) {
  if (s.exponent == kNaNExponent) return std::numeric_limits<double>::quiet_NaN();
  if (s.exponent == kInfinityExponent) return std::signbit(s.significand) ? -INFINITY : INFINITY;
  if (s.exponent == kZeroExponent) return 0;
  return std::ldexp(static_cast<double>(s.significand), s.exponent);
}

unsigned bitsOf(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::S8:
    case Elem::U8:
    case Elem::E4M3:
    case Elem::E5M2: return 8;
    case Elem::B1: return 1;
    case Elem::S4:
    case Elem::U4: return 4;
    case Elem::F64: return 64;
    default: return 32;
  }
}

int minNormalExponent(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::E5M2: return -14;
    case Elem::E4M3: return -6;
    case Elem::F64: return -1022;
    default: return -126;
  }
}

double valueOf(uint64_t bits, Elem e) {
  switch (e) {
    case Elem::F16: return half::toDouble(bits, half::Mode{});
    case Elem::BF16: return half::toDouble(bits, half::Mode{.bf16 = true});
    case Elem::TF32: return std::bit_cast<float>(static_cast<uint32_t>(bits) & ~uint32_t{0x1fff});
    case Elem::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case Elem::F64: return std::bit_cast<double>(bits);
    case Elem::S8: return static_cast<int8_t>(bits);
    case Elem::U8: return static_cast<uint8_t>(bits);
    case Elem::S32: return static_cast<int32_t>(bits);
    case Elem::E4M3: return fp8Value(bits, sf::kE4M3);
    case Elem::E5M2: return fp8Value(bits, sf::kE5M2);
    case Elem::B1: return static_cast<double>(bits & 1);
    case Elem::S4: return static_cast<double>(static_cast<int8_t>(static_cast<uint8_t>(bits << 4)) >> 4);
    case Elem::U4: return static_cast<double>(bits & 0xf);
  }
  return 0;
}

bool elemOf(isa::DataType type, Elem& e) {
  using isa::DataType;
  switch (type) {
    case DataType::F16: e = Elem::F16; return true;
    case DataType::BF16: e = Elem::BF16; return true;
    case DataType::TF32: e = Elem::TF32; return true;
    case DataType::F32: e = Elem::F32; return true;
    case DataType::F64: e = Elem::F64; return true;
    case DataType::S8: e = Elem::S8; return true;
    case DataType::U8: e = Elem::U8; return true;
    case DataType::S32: e = Elem::S32; return true;
    case DataType::E4M3: e = Elem::E4M3; return true;
    case DataType::E5M2: e = Elem::E5M2; return true;
    case DataType::B1: e = Elem::B1; return true;
    case DataType::S4: e = Elem::S4; return true;
    case DataType::U4: e = Elem::U4; return true;
    default: return false;
  }
}

}  // namespace ptxsim::sim::semantics::mma
