// The tensor-core summation model (sim/src/semantics/mma_numerics.h) on
// hand-derived cases: each expected value is worked out on paper from the
// model's definition (align to the largest term's exponent, keep 24 + extra
// bits, sum exactly, normalise), not computed by the code under test.
#include "../../../sim/src/semantics/mma_numerics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace ptxsim::sim::semantics::mma {
namespace {

constexpr uint32_t kOne = 0x3f800000;         // 1.0f
constexpr uint32_t kOnePlusUlp = 0x3f800001;  // 1 + 2^-23
constexpr uint32_t kNaN = 0x7fffffff;
constexpr uint32_t kInf = 0x7f800000;

double p2(int e) { return std::ldexp(1.0, e); }

// c + sum of products[k] * 1.
uint32_t run(const DotModel& m, std::vector<double> products, double c) {
  std::vector<double> ones(products.size(), 1.0);
  return dotF32(m, products.data(), ones.data(), static_cast<unsigned>(products.size()), c);
}

DotModel model(unsigned block, unsigned extra, sf::Round align = sf::Round::Zero,
               sf::Round normalise = sf::Round::Zero) {
  return DotModel{block, extra, align, normalise};
}

TEST(MmaNumerics, ExactSumsAreExact) {
  EXPECT_EQ(run(h100DotModel(16), {1, 2, 3}, 10), 0x41800000u);  // 16
  double a[2] = {3, -5}, b[2] = {7, 2};
  EXPECT_EQ(dotF32(h100DotModel(16), a, b, 2, 0.5), 0x41380000u);  // 21 - 10 + 0.5 = 11.5
}

TEST(MmaNumerics, ExtraAlignmentBitsDecideWhetherSmallTermsCount) {
  // Eight terms of 2^-26 beside 1: on a grid of 2^-26 (3 extra bits) they
  // add up to one ulp of 1; on a coarser grid each is truncated away.
  std::vector<double> eighth(8, p2(-26));
  EXPECT_EQ(run(model(16, 3), eighth, 1), kOnePlusUlp);
  EXPECT_EQ(run(model(16, 2), eighth, 1), kOne);
  EXPECT_EQ(run(model(16, 0), eighth, 1), kOne);
  std::vector<double> sixteenth(8, p2(-27));
  EXPECT_EQ(run(model(16, 3), sixteenth, 1), kOne);
  EXPECT_EQ(run(model(16, 4), sixteenth, 1), kOne);  // 8 * 2^-27 = 2^-24: half an ulp, truncated
}

TEST(MmaNumerics, NormalisationRounding) {
  // 1 + 5/8 ulp, exact on the 2^-26 grid; 3/8 ulp rounds down either way.
  std::vector<double> five(5, p2(-26)), three(3, p2(-26));
  EXPECT_EQ(run(model(16, 3), five, 1), kOne);
  EXPECT_EQ(run(model(16, 3, sf::Round::Zero, sf::Round::Nearest), five, 1), kOnePlusUlp);
  EXPECT_EQ(run(model(16, 3, sf::Round::Zero, sf::Round::Nearest), three, 1), kOne);
  // A tie (half an ulp) goes to even under round to nearest.
  EXPECT_EQ(run(model(16, 3, sf::Round::Zero, sf::Round::Nearest), {p2(-24)}, 1), kOne);
  EXPECT_EQ(run(model(16, 3, sf::Round::Zero, sf::Round::Nearest), {p2(-24)}, 1 + p2(-23)), 0x3f800002u);
}

TEST(MmaNumerics, AlignmentRounding) {
  // 1.5 * 2^-24 is 0.75 of the 2^-23 grid with no extra bits: truncated to
  // nothing, or rounded to one unit.
  EXPECT_EQ(run(model(16, 0), {1.5 * p2(-24)}, 1), kOne);
  EXPECT_EQ(run(model(16, 0, sf::Round::Nearest), {1.5 * p2(-24)}, 1), kOnePlusUlp);
  // Toward zero for a negative term too: -0.75 unit truncates to 0.
  EXPECT_EQ(run(model(16, 0), {-1.5 * p2(-24)}, 1), kOne);
  // With 3 extra bits the term is exact: 1 - 1.5 * 2^-24 lies between
  // 1 - 2^-23 and 1 - 2^-24 and truncates to 1 - 2^-23.
  EXPECT_EQ(run(model(16, 3), {-1.5 * p2(-24)}, 1), 0x3f7ffffeu);
}

TEST(MmaNumerics, CancellationKeepsOnlyWhatAlignmentKept) {
  // -(1 - 2^-11) cancels c = 1 to 2^-11; 2^-30 was below the grid of 1.
  EXPECT_EQ(run(h100DotModel(16), {-(1 - p2(-11)), p2(-30)}, 1), 0x3a000000u);  // 2^-11
}

TEST(MmaNumerics, BlockSizeDecidesWhereRoundingHappens) {
  // 2^10 + 2^-14 then -2^10: summed in one step 2^-14 survives (grid
  // 2^-16); split into blocks of 8 the first block rounds to 2^10.
  std::vector<double> v(16, 0.0);
  v[0] = p2(10);
  v[1] = p2(-14);
  v[8] = -p2(10);
  EXPECT_EQ(run(model(16, 3), v, 0), 0x38800000u);  // 2^-14
  EXPECT_EQ(run(model(8, 3), v, 0), 0u);
  EXPECT_EQ(run(model(4, 3), v, 0), 0u);
}

TEST(MmaNumerics, SpecialValues) {
  const double inf = INFINITY;
  EXPECT_EQ(run(h100DotModel(16), {inf}, 0), kInf);
  EXPECT_EQ(run(h100DotModel(16), {-inf}, 5), kInf | 0x80000000u);
  double a[1] = {inf}, b[1] = {0};
  EXPECT_EQ(dotF32(h100DotModel(16), a, b, 1, 0), kNaN);
  EXPECT_EQ(run(h100DotModel(16), {inf, -inf}, 0), kNaN);
  EXPECT_EQ(run(h100DotModel(16), {1}, NAN), kNaN);
  EXPECT_EQ(run(h100DotModel(16), {-inf}, inf), kNaN);
  // 2^200 leaves f32's range: infinity.
  EXPECT_EQ(run(h100DotModel(16), {p2(200)}, 0), kInf);
}

TEST(MmaNumerics, ZerosAndSubnormals) {
  EXPECT_EQ(run(h100DotModel(16), {0.0}, -0.0), 0u);            // -0 + +0 = +0
  EXPECT_EQ(run(h100DotModel(16), {-0.0}, -0.0), 0u);  // all -0: +0 on the H100
  EXPECT_EQ(run(h100DotModel(16), {1, -1}, -0.0), 0u);          // cancellation gives +0
  EXPECT_EQ(run(h100DotModel(16), {p2(-140)}, 0), 0x200u);      // 2^-140 = 2^9 * 2^-149
  EXPECT_EQ(run(h100DotModel(16), {0.75 * p2(-149)}, 0), 0u);   // below the smallest subnormal: truncated
  EXPECT_EQ(run(h100DotModel(16), {p2(-48)}, p2(-140)), 0x27800000u);  // 2^-48; 2^-140 is below its grid
}

TEST(MmaNumerics, LongDotProductsChainBlocks) {
  // 32 products of 1 with blocks of 16: two steps, exact.
  EXPECT_EQ(run(model(16, 3), std::vector<double>(32, 1.0), 0), 0x42000000u);  // 32
}

}  // namespace
}  // namespace ptxsim::sim::semantics::mma
