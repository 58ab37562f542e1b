// Comparison and selection semantics against host references written
// independently of the handlers: set (every comparison, bool combine, u32 /
// s32 / f32 destinations, .ftz, float immediates), setp.ftz, slct.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "lane_op_runner.h"

namespace ptxsim {
namespace {

using test::low;
using test::runLaneOp;

// f32 values whose comparisons are interesting: signed zeros, subnormals,
// infinities, NaN.
const float kFloats[] = {0.0f,
                         -0.0f,
                         1.0f,
                         -1.0f,
                         std::numeric_limits<float>::denorm_min(),
                         -std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN(),
                         1.5f};
constexpr unsigned kFloatCount = sizeof(kFloats) / sizeof(kFloats[0]);

bool floatCompare(const std::string& op, double a, double b) {
  bool nan = std::isnan(a) || std::isnan(b);
  if (op == "num") return !nan;
  if (op == "nan") return nan;
  bool unorderedForm = op.size() == 3 && op.back() == 'u';
  std::string base = unorderedForm ? op.substr(0, 2) : op;
  if (nan) return unorderedForm;
  if (base == "eq") return a == b;
  if (base == "ne") return a != b;
  if (base == "lt") return a < b;
  if (base == "le") return a <= b;
  if (base == "gt") return a > b;
  return a >= b;  // ge
}

const char* kFloatOps[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                           "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

TEST(CompareSemantics, SetEveryFloatComparisonToU32AndF32) {
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) {
    in.push_back({std::bit_cast<uint32_t>(kFloats[i % kFloatCount]),
                  std::bit_cast<uint32_t>(kFloats[(i / kFloatCount + i) % kFloatCount]), 0});
  }
  for (const char* op : kFloatOps) {
    auto u = runLaneOp({"u32", "f32", "f32", "f32"}, std::string("set.") + op + ".u32.f32 %d, %a, %b;", in);
    auto f = runLaneOp({"f32", "f32", "f32", "f32"}, std::string("set.") + op + ".f32.f32 %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      float a = std::bit_cast<float>(static_cast<uint32_t>(in[i][0]));
      float b = std::bit_cast<float>(static_cast<uint32_t>(in[i][1]));
      bool t = floatCompare(op, a, b);
      EXPECT_EQ(u[i], t ? 0xffffffffu : 0u) << op << " " << a << " " << b;
      EXPECT_EQ(f[i], t ? std::bit_cast<uint32_t>(1.0f) : 0u) << op << " " << a << " " << b;
    }
  }
}

TEST(CompareSemantics, SetOfF64AndIntegerSourcesAndBoolCombine) {
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) {
    in.push_back({std::bit_cast<uint64_t>(static_cast<double>(kFloats[i % kFloatCount])),
                  std::bit_cast<uint64_t>(static_cast<double>(kFloats[(i * 3 + 1) % kFloatCount])), i % 3});
  }
  auto d = runLaneOp({"s32", "f64", "f64", "u32"}, "set.ltu.s32.f64 %d, %a, %b;", in);
  auto comb = runLaneOp({"u32", "f64", "f64", "u32"}, "set.ge.and.u32.f64 %d, %a, %b, !%pc;", in);
  for (unsigned i = 0; i < 32; ++i) {
    double a = std::bit_cast<double>(in[i][0]), b = std::bit_cast<double>(in[i][1]);
    EXPECT_EQ(d[i], floatCompare("ltu", a, b) ? 0xffffffffu : 0u) << i;
    EXPECT_EQ(comb[i], floatCompare("ge", a, b) && in[i][2] == 0 ? 0xffffffffu : 0u) << i;
  }
  // Integers: signed and unsigned orderings, .lo/.hs, and .xor combine.
  std::vector<std::array<uint64_t, 3>> ints;
  auto v = test::edgeValues(32, 5);
  for (unsigned i = 0; i < 32; ++i) ints.push_back({v[i], v[(i + 5) % 32], i & 1});
  auto lt = runLaneOp({"u32", "s32", "s32", "u32"}, "set.lt.u32.s32 %d, %a, %b;", ints);
  auto lo = runLaneOp({"u32", "u32", "u32", "u32"}, "set.lo.u32.u32 %d, %a, %b;", ints);
  auto hsx = runLaneOp({"u32", "u32", "u32", "u32"}, "set.hs.xor.u32.u32 %d, %a, %b, %pc;", ints);
  for (unsigned i = 0; i < 32; ++i) {
    int32_t sa = static_cast<int32_t>(ints[i][0]), sb = static_cast<int32_t>(ints[i][1]);
    uint32_t ua = static_cast<uint32_t>(ints[i][0]), ub = static_cast<uint32_t>(ints[i][1]);
    EXPECT_EQ(lt[i], sa < sb ? 0xffffffffu : 0u) << i;
    EXPECT_EQ(lo[i], ua < ub ? 0xffffffffu : 0u) << i;
    EXPECT_EQ(hsx[i], ((ua >= ub) != (ints[i][2] != 0)) ? 0xffffffffu : 0u) << i;
  }
}

// .ftz compares f32 subnormals as zeros of their sign: -denorm < +0 is
// false once flushed, and denorm == 0 true.
TEST(CompareSemantics, FtzFlushesSubnormalSourcesOfSetAndSetp) {
  float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<std::array<uint64_t, 3>> in = {
      {std::bit_cast<uint32_t>(-tiny), std::bit_cast<uint32_t>(0.0f), 0},
      {std::bit_cast<uint32_t>(tiny), std::bit_cast<uint32_t>(0.0f), 0},
      {std::bit_cast<uint32_t>(1.0f), std::bit_cast<uint32_t>(tiny), 0},
      {std::bit_cast<uint32_t>(std::numeric_limits<float>::min()), std::bit_cast<uint32_t>(0.0f), 0}};
  auto ltPlain = runLaneOp({"u32", "f32", "f32", "f32"}, "set.lt.u32.f32 %d, %a, %b;", in);
  auto ltFtz = runLaneOp({"u32", "f32", "f32", "f32"}, "set.lt.ftz.u32.f32 %d, %a, %b;", in);
  auto eqFtz = runLaneOp({"u32", "f32", "f32", "f32"}, "setp.eq.ftz.f32 %pd, %a, %b; selp.u32 %d, 1, 0, %pd;", in);
  auto eqPlain = runLaneOp({"u32", "f32", "f32", "f32"}, "setp.eq.f32 %pd, %a, %b; selp.u32 %d, 1, 0, %pd;", in);
  EXPECT_EQ(ltPlain[0], 0xffffffffu);
  EXPECT_EQ(ltFtz[0], 0u);
  EXPECT_EQ(eqFtz[0], 1u);
  EXPECT_EQ(eqPlain[0], 0u);
  EXPECT_EQ(eqFtz[1], 1u);
  EXPECT_EQ(eqFtz[2], 0u);
  EXPECT_EQ(eqFtz[3], 0u);  // FLT_MIN is normal: not flushed
  EXPECT_EQ(eqPlain[1], 0u);
}

// Float immediates of set take the source type, whatever literal form
// they were written in (0d for an f32 comparison is rounded to f32).
TEST(CompareSemantics, SetImmediatesTakeTheSourceType) {
  std::vector<std::array<uint64_t, 3>> in = {{std::bit_cast<uint32_t>(1.25f), 0, 0},
                                             {std::bit_cast<uint32_t>(1.75f), 0, 0}};
  auto r = runLaneOp({"u32", "f32", "f32", "f32"}, "set.lt.u32.f32 %d, %a, 0d3FF8000000000000;", in);
  EXPECT_EQ(r[0], 0xffffffffu);  // 1.25 < 1.5
  EXPECT_EQ(r[1], 0u);
}

// set with an f16 source and a u32 destination goes to the half family's
// selector (the table looks set up by its source type); ptxas refuses an
// f32 destination.
TEST(CompareSemantics, SetOfHalfSourcesReachesTheHalfFamily) {
  std::vector<std::array<uint64_t, 3>> in = {{0x3c00, 0x4000, 0}, {0x4000, 0x3c00, 0}};  // 1.0 and 2.0
  auto u = runLaneOp({"u32", "b16", "b16", "b16"}, "set.lt.u32.f16 %d, %a, %b;", in);
  EXPECT_EQ(u[0], 0xffffffffu);
  EXPECT_EQ(u[1], 0u);
  std::string f =
      test::moduleLoadError(test::laneOpKernel({"f32", "b16", "b16", "b16"}, "set.lt.f32.f16 %d, %a, %b;"));
  EXPECT_NE(f.find("Unexpected instruction types specified for 'set'"), std::string::npos) << f;
}

TEST(CompareSemantics, SlctSelectsOnTheSignOfC) {
  float tiny = std::numeric_limits<float>::denorm_min();
  const float selectors[] = {0.0f, -0.0f, 1.0f, -1.0f, tiny, -tiny, std::numeric_limits<float>::quiet_NaN(),
                             -std::numeric_limits<float>::infinity()};
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({100 + i, 200 + i, std::bit_cast<uint32_t>(selectors[i % 8])});
  auto plain = runLaneOp({"u32", "u32", "u32", "f32"}, "slct.u32.f32 %d, %a, %b, %c;", in);
  auto ftz = runLaneOp({"u32", "u32", "u32", "f32"}, "slct.ftz.u32.f32 %d, %a, %b, %c;", in);
  for (unsigned i = 0; i < 32; ++i) {
    float c = selectors[i % 8];
    bool negativeSubnormal = c < 0 && std::fpclassify(c) == FP_SUBNORMAL;
    bool pick = !std::isnan(c) && c >= 0;  // NaN selects b
    EXPECT_EQ(plain[i], pick ? 100 + i : 200 + i) << c;
    EXPECT_EQ(ftz[i], pick || negativeSubnormal ? 100 + i : 200 + i) << c;
  }
  auto ints = test::edgeValues(32, 9);
  std::vector<std::array<uint64_t, 3>> sin;
  for (unsigned i = 0; i < 32; ++i) sin.push_back({ints[i], ints[(i + 1) % 32], ints[(i + 2) % 32]});
  auto s = runLaneOp({"b64", "b64", "b64", "s32"}, "slct.b64.s32 %d, %a, %b, %c;", sin);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(s[i], static_cast<int32_t>(sin[i][2]) >= 0 ? sin[i][0] : sin[i][1]) << i;
  }
}

TEST(CompareSemantics, FormsOutsideTheIsaAreRejectedAtLoad) {
  struct Form {
    test::LaneOpTypes types;
    const char* text;
    const char* ptxas;  // ptxas's message, which the front end gives
  };
  const Form forms[] = {{{"u32", "f64", "f64", "f64"},
                         "set.lt.ftz.u32.f64 %d, %a, %b;",
                         "Illegal modifier '.ftz' for instruction 'set'"},
                        {{"u32", "f32", "f32", "f32"},
                         "set.lo.u32.f32 %d, %a, %b;",
                         "Mismatch between instruction type and comparison"},
                        {{"u32", "u32", "u32", "s32"},
                         "slct.ftz.u32.s32 %d, %a, %b, %c;",
                         "Illegal modifier '.ftz' for instruction 'slct'"},
                        {{"u32", "u32", "u32", "u32"},
                         "setp.ltu.u32 %pd, %a, %b; mov.u32 %d, 0;",
                         "Mismatch between instruction type"}};
  for (const Form& form : forms) {
    std::string error = test::moduleLoadError(test::laneOpKernel(form.types, form.text));
    EXPECT_NE(error.find(form.ptxas), std::string::npos) << form.text << ": " << error;
  }
}

}  // namespace
}  // namespace ptxsim
