// The tensor core's adder (sim/src/semantics/mma_numerics.h): the vector
// path that computes a row of D at once gives the bits of the term-by-term
// definition (mma_term_by_term.h) for random operands of every input
// format, with zeros, subnormals, infinities and NaNs among them and
// exponents close enough that the alignment truncates. The H100's own
// results are held by tests/cuda/programs (mma_random, mma_fp8,
// wgmma_forms, wmma_forms).
#include "../../../sim/src/semantics/mma_numerics.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../../../sim/src/semantics/mma_term_by_term.h"

namespace ptxsim::sim::semantics::mma {
namespace {

struct Format {
  Elem elem;
  unsigned exponentBits, mantissaBits;
};

// Random bits of a format: mostly exponents within a window of 12 (so
// terms overlap and are truncated), sometimes any exponent field (zero,
// subnormal, the largest, infinity and NaN), sometimes zero.
uint32_t randomBits(std::mt19937& rng, const Format& f, unsigned specialPercent) {
  unsigned width = 1 + f.exponentBits + f.mantissaBits;
  uint32_t maxField = (1u << f.exponentBits) - 1;
  uint32_t sign = (rng() & 1) << (width - 1);
  uint32_t mantissa = rng() & ((1u << f.mantissaBits) - 1);
  unsigned roll = rng() % 100;
  uint32_t field;
  if (roll < specialPercent) {
    field = rng() % (maxField + 1);
  } else if (roll < 2 * specialPercent) {
    return sign;  // ±0
  } else {
    uint32_t middle = maxField / 2;
    field = middle - 6 + rng() % 12;
  }
  return sign | (field << f.mantissaBits) | mantissa;
}

const Format kF16{Elem::F16, 5, 10}, kBF16{Elem::BF16, 8, 7}, kTF32{Elem::TF32, 8, 23}, kF32{Elem::F32, 8, 23},
    kE4M3{Elem::E4M3, 4, 3}, kE5M2{Elem::E5M2, 5, 2};

struct Operands {
  std::vector<float> aSignificands, bSignificands;
  std::vector<int32_t> aExponents, bExponents;
  std::vector<float> cSignificands;
  std::vector<int32_t> cExponents;
  std::vector<uint32_t> cBits;
};

Operands randomOperands(std::mt19937& rng, const Format& in, const Format& acc, unsigned k, unsigned n,
                        unsigned specialPercent) {
  Operands o;
  std::vector<uint32_t> a(k), b(k * n);
  for (uint32_t& v : a) v = randomBits(rng, in, specialPercent);
  for (uint32_t& v : b) v = randomBits(rng, in, specialPercent);
  o.aSignificands.resize(k);
  o.aExponents.resize(k);
  o.bSignificands.resize(k * n);
  o.bExponents.resize(k * n);
  scaleAll(in.elem, a.data(), k, o.aSignificands.data(), o.aExponents.data());
  scaleAll(in.elem, b.data(), k * n, o.bSignificands.data(), o.bExponents.data());
  for (unsigned c = 0; c < n; ++c) {
    // Half the accumulators near the products' scale, half anywhere.
    uint32_t bits = randomBits(rng, acc, c % 2 == 0 ? 50 : specialPercent);
    o.cBits.push_back(bits);
    Scaled s = scaledOf(bits, acc.elem);
    o.cSignificands.push_back(s.significand);
    o.cExponents.push_back(s.exponent);
  }
  return o;
}

// Column c of B, for the term-by-term path.
struct Column {
  std::vector<float> significands;
  std::vector<int32_t> exponents;
  Column(const Operands& o, unsigned k, unsigned n, unsigned c) {
    for (unsigned i = 0; i < k; ++i) {
      significands.push_back(o.bSignificands[i * n + c]);
      exponents.push_back(o.bExponents[i * n + c]);
    }
  }
  DotOperand operand() const { return {significands.data(), exponents.data()}; }
};

void expectWgmmaAgrees(const Format& in, const Format& acc, bool fp8, bool f16Result, unsigned k) {
  std::mt19937 rng(k * 131 + static_cast<unsigned>(in.elem) * 7 + (f16Result ? 1 : 0));
  const unsigned n = 24;
  WgmmaDotModel model = wgmmaDotModel(fp8, f16Result);
  for (unsigned trial = 0; trial < 400; ++trial) {
    Operands o = randomOperands(rng, in, acc, k, n, trial % 4 == 0 ? 3 : 0);
    DotOperand a{o.aSignificands.data(), o.aExponents.data()};
    std::vector<uint32_t> d(n);
    wgmmaDot(model, a, {o.bSignificands.data(), o.bExponents.data(), n}, k,
             {o.cSignificands.data(), o.cExponents.data()}, d.data());
    for (unsigned c = 0; c < n; ++c) {
      uint32_t expected =
          wgmmaDotTermByTerm(model, a, Column(o, k, n, c).operand(), k, {o.cSignificands[c], o.cExponents[c]});
      ASSERT_EQ(d[c], expected) << "trial " << trial << " column " << c << " accumulator " << std::hex
                                << o.cBits[c];
    }
  }
}

TEST(MmaNumerics, RowOfF16DotProductsIsTheTermByTermModel) {
  expectWgmmaAgrees(kF16, kF32, false, false, 16);
  expectWgmmaAgrees(kF16, kF16, false, true, 16);
  expectWgmmaAgrees(kF16, kF32, false, false, 32);  // the sparse form's K
}

TEST(MmaNumerics, RowOfBf16AndTf32DotProductsIsTheTermByTermModel) {
  expectWgmmaAgrees(kBF16, kF32, false, false, 16);
  expectWgmmaAgrees(kTF32, kF32, false, false, 8);
  expectWgmmaAgrees(kTF32, kF32, false, false, 4);
}

TEST(MmaNumerics, RowOfFp8DotProductsIsTheTermByTermModel) {
  expectWgmmaAgrees(kE4M3, kF32, true, false, 32);
  expectWgmmaAgrees(kE5M2, kF16, true, true, 32);
  expectWgmmaAgrees(kE4M3, kF32, true, false, 64);
}

TEST(MmaNumerics, MmaSyncFp8StepsAreTheTermByTermModel) {
  for (const Format* in : {&kE4M3, &kE5M2}) {
    std::mt19937 rng(static_cast<unsigned>(in->elem));
    const unsigned n = 8;
    for (unsigned trial = 0; trial < 400; ++trial) {
      unsigned k = trial % 2 == 0 ? 32 : 16;  // m16n8k32, m16n8k16
      Operands o = randomOperands(rng, *in, kF32, k, n, trial % 4 == 0 ? 3 : 0);
      DotOperand a{o.aSignificands.data(), o.aExponents.data()};
      std::vector<uint32_t> d(n);
      fp8DotF32(a, {o.bSignificands.data(), o.bExponents.data(), n}, k, o.cBits.data(), d.data());
      for (unsigned c = 0; c < n; ++c)
        ASSERT_EQ(d[c], fp8DotF32TermByTerm(a, Column(o, k, n, c).operand(), k, o.cBits[c])) << trial << " " << c;
    }
  }
}

TEST(MmaNumerics, ScaledElementsHoldTheExactValue) {
  EXPECT_EQ(valueOf(scaledOf(0x3c00, Elem::F16)), 1.0);
  EXPECT_EQ(valueOf(scaledOf(0x0001, Elem::F16)), 0x1p-24);  // the smallest subnormal
  EXPECT_EQ(scaledOf(0x0001, Elem::F16).exponent, -14);       // aligned as the smallest normal
  EXPECT_EQ(scaledOf(0x8000, Elem::F16).exponent, kZeroExponent);
  EXPECT_EQ(valueOf(scaledOf(0xfc00, Elem::F16)), -INFINITY);
  EXPECT_TRUE(std::isnan(valueOf(scaledOf(0x7f, Elem::E4M3))));
  EXPECT_EQ(valueOf(scaledOf(0x7e, Elem::E4M3)), 448.0);  // e4m3 has no infinity
  EXPECT_EQ(valueOf(scaledOf(0x3f801fff, Elem::TF32)), 1.0);  // tf32 drops 13 mantissa bits
  EXPECT_EQ(valueOf(scaledOf(0x00000001, Elem::F32)), 0x1p-149);
}

TEST(MmaNumerics, ScaleAllIsScaledOfForEveryPattern) {
  for (Elem e : {Elem::F16, Elem::BF16, Elem::E4M3, Elem::E5M2}) {
    std::vector<uint32_t> bits(e == Elem::F16 || e == Elem::BF16 ? 65536 : 256);
    for (uint32_t i = 0; i < bits.size(); ++i) bits[i] = i;
    std::vector<float> significands(bits.size());
    std::vector<int32_t> exponents(bits.size());
    scaleAll(e, bits.data(), static_cast<unsigned>(bits.size()), significands.data(), exponents.data());
    for (uint32_t i = 0; i < bits.size(); ++i) {
      Scaled s = scaledOf(i, e);
      ASSERT_EQ(std::bit_cast<uint32_t>(significands[i]), std::bit_cast<uint32_t>(s.significand)) << i;
      ASSERT_EQ(exponents[i], s.exponent) << i;
      double v = valueOf(s), expected = valueOf(i, e);
      if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(v)) << i;
      } else {
        ASSERT_EQ(v, expected) << static_cast<int>(e) << " " << i;
      }
    }
  }
}

}  // namespace
}  // namespace ptxsim::sim::semantics::mma
