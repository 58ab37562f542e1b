// Integer arithmetic semantics against host references written
// independently of the handlers (__int128, plain loops, hand-derived edge
// values): add/sub (.sat, .cc), addc/subc/madc chains, mul/mad, mul24/mad24,
// sad, div/rem, abs/neg/min/max.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "lane_op_runner.h"

namespace ptxsim {
namespace {

using test::edgeValues;
using test::low;
using test::runLaneOp;
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

struct IntType {
  const char* name;
  unsigned bits;
  bool isSigned;
};
const IntType kTypes[] = {{"u16", 16, false}, {"s16", 16, true}, {"u32", 32, false},
                          {"s32", 32, true},  {"u64", 64, false}, {"s64", 64, true}};

// A word's low `bits` bits as a signed or unsigned value, exactly.
I128 valueOf(uint64_t word, const IntType& t) {
  uint64_t v = low(word, t.bits);
  if (t.isSigned && t.bits < 64 && (v >> (t.bits - 1)) != 0) return static_cast<I128>(v) - (I128{1} << t.bits);
  if (t.isSigned && t.bits == 64) return static_cast<int64_t>(v);
  return v;
}
uint64_t bitsOf(I128 value, unsigned bits) { return low(static_cast<uint64_t>(static_cast<U128>(value)), bits); }

std::vector<std::array<uint64_t, 3>> pairs(unsigned bits, uint32_t seed) {
  std::vector<uint64_t> a = edgeValues(bits, seed), b = edgeValues(bits, seed + 1);
  std::rotate(b.begin(), b.begin() + 3, b.end());
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({a[i], b[i], a[(i + 5) % 32]});
  return in;
}

TEST(IntegerSemantics, AddSubWrapForEveryType) {
  for (const IntType& t : kTypes) {
    auto in = pairs(t.bits, t.bits);
    std::string ty = t.name;
    auto add = runLaneOp({ty, ty, ty, ty}, "add." + ty + " %d, %a, %b;", in);
    auto sub = runLaneOp({ty, ty, ty, ty}, "sub." + ty + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      EXPECT_EQ(low(add[i], t.bits), bitsOf(valueOf(in[i][0], t) + valueOf(in[i][1], t), t.bits)) << ty << i;
      EXPECT_EQ(low(sub[i], t.bits), bitsOf(valueOf(in[i][0], t) - valueOf(in[i][1], t), t.bits)) << ty << i;
    }
  }
}

TEST(IntegerSemantics, SaturatingAddSubS32Clamp) {
  auto in = pairs(32, 7);
  in[0] = {0x7fffffff, 1, 0};
  in[1] = {0x80000000, 0xffffffff, 0};
  in[2] = {0x7fffffff, 0x7fffffff, 0};
  auto add = runLaneOp({"s32", "s32", "s32", "s32"}, "add.sat.s32 %d, %a, %b;", in);
  auto sub = runLaneOp({"s32", "s32", "s32", "s32"}, "sub.sat.s32 %d, %a, %b;", in);
  for (unsigned i = 0; i < 32; ++i) {
    int64_t a = static_cast<int32_t>(in[i][0]), b = static_cast<int32_t>(in[i][1]);
    auto clamp = [](int64_t v) { return std::clamp<int64_t>(v, INT32_MIN, INT32_MAX); };
    EXPECT_EQ(low(add[i], 32), static_cast<uint32_t>(clamp(a + b))) << i;
    EXPECT_EQ(low(sub[i], 32), static_cast<uint32_t>(clamp(a - b))) << i;
  }
  EXPECT_EQ(low(add[0], 32), 0x7fffffffu);
  EXPECT_EQ(low(sub[1], 32), 0x80000001u);  // INT_MIN - (-1) does not saturate
}

// 64-bit sums and differences built from 32-bit halves with .cc chains
// must equal the host's 64-bit arithmetic; the carry read back with
// `addc 0, 0` is the 65th bit of the sum, and after a subtraction it is
// NOT borrow (the hardware's carry, measured on an H100).
TEST(IntegerSemantics, MultiWordAddAndSubtractThroughTheCarryFlag) {
  auto in = pairs(64, 11);
  in[0] = {0xffffffffffffffffull, 1, 0};
  in[1] = {0, 1, 0};
  in[2] = {0x00000000ffffffffull, 1, 0};
  auto chain = [&](const char* first, const char* second) {
    std::string text = std::string("{ .reg .u32 al, ah, bl, bh, rl, rh, cf;\n") +
                       "ld.global.u32 al, [%p]; ld.global.u32 ah, [%p+4];\n"
                       "ld.global.u32 bl, [%p+8]; ld.global.u32 bh, [%p+12];\n" +
                       first + " rl, al, bl; " + second + " rh, ah, bh; addc.u32 cf, 0, 0;\n" +
                       "st.global.u32 [%q], rl; st.global.u32 [%q+4], rh; setp.ne.u32 %pd, cf, 0; }";
    return runLaneOp({"", "b64", "b64", "b64"}, text, in);
  };
  auto sums = chain("add.cc.u32", "addc.cc.u32");
  auto diffs = chain("sub.cc.s32", "subc.cc.s32");
  for (unsigned i = 0; i < 32; ++i) {
    U128 sum = U128{in[i][0]} + in[i][1];
    EXPECT_EQ(sums[i], static_cast<uint64_t>(sum)) << i;
    EXPECT_EQ(sums.flag[i], static_cast<uint64_t>(sum >> 64)) << i;
    EXPECT_EQ(diffs[i], in[i][0] - in[i][1]) << i;
    EXPECT_EQ(diffs.flag[i], in[i][0] >= in[i][1] ? 1u : 0u) << i;
  }
}

// 128-bit arithmetic from 64-bit halves: a:b + c:a and a:b - c:a.
TEST(IntegerSemantics, SixtyFourBitCarryChains) {
  auto in = pairs(64, 12);
  auto run = [&](const char* first, const char* second) {
    std::string text = std::string("{ .reg .u64 lo, hi;\n") + first + " lo, %b, %a; " + second +
                       " hi, %a, %c;\nst.global.u64 [%q], hi; }";
    return runLaneOp({"", "u64", "u64", "u64"}, text, in);
  };
  auto sum = run("add.cc.u64", "addc.u64");
  auto diff = run("sub.cc.u64", "subc.u64");
  for (unsigned i = 0; i < 32; ++i) {
    U128 x = (U128{in[i][0]} << 64) | in[i][1];
    U128 y = (U128{in[i][2]} << 64) | in[i][0];
    EXPECT_EQ(sum[i], static_cast<uint64_t>((x + y) >> 64)) << i;
    EXPECT_EQ(diff[i], static_cast<uint64_t>((x - y) >> 64)) << i;
  }
}

// Mixed chains follow the hardware's carry: subc computes a + ~b + CF, so
// after add.cc a carry of 1 subtracts nothing and a carry of 0 one.
TEST(IntegerSemantics, SubcAfterAddCcUsesTheCarryAsNotBorrow) {
  std::vector<std::array<uint64_t, 3>> in = {{1, 0xffffffff, 0}, {1, 1, 0}};
  auto r = runLaneOp({"u32", "u32", "u32", "u32"},
                     "{ .reg .u32 t; add.cc.u32 t, %a, %b; subc.cc.u32 %d, 5, 0; }\n"
                     "{ .reg .u32 f; addc.u32 f, 0, 0; setp.ne.u32 %pd, f, 0; }",
                     in);
  EXPECT_EQ(r[0], 5u);  // carry 1
  EXPECT_EQ(r[1], 4u);  // carry 0
  EXPECT_EQ(r.flag[0], 1u);
  EXPECT_EQ(r.flag[1], 1u);
}

TEST(IntegerSemantics, MulLoHiWideAgainstInt128) {
  for (const IntType& t : kTypes) {
    auto in = pairs(t.bits, 20 + t.bits);
    std::string ty = t.name;
    auto lo = runLaneOp({ty, ty, ty, ty}, "mul.lo." + ty + " %d, %a, %b;", in);
    auto hi = runLaneOp({ty, ty, ty, ty}, "mul.hi." + ty + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 p = valueOf(in[i][0], t) * valueOf(in[i][1], t);
      EXPECT_EQ(low(lo[i], t.bits), bitsOf(p, t.bits)) << ty << i;
      if (t.bits < 64) {
        EXPECT_EQ(low(hi[i], t.bits), bitsOf(p >> t.bits, t.bits)) << ty << i;
      } else {
        // The high half of the 128-bit product: exact for unsigned operands
        // (ua * ub < 2^128), then corrected for the signs of signed ones.
        U128 ua = in[i][0], ub = in[i][1];
        uint64_t expected = static_cast<uint64_t>((ua * ub) >> 64);
        if (t.isSigned) {
          // signed high = unsigned high - (a<0 ? b : 0) - (b<0 ? a : 0)
          if (static_cast<int64_t>(in[i][0]) < 0) expected -= in[i][1];
          if (static_cast<int64_t>(in[i][1]) < 0) expected -= in[i][0];
        }
        EXPECT_EQ(hi[i], expected) << ty << i;
      }
    }
    if (t.bits == 64) continue;
    std::string wide = t.isSigned ? (t.bits == 16 ? "s32" : "s64") : (t.bits == 16 ? "u32" : "u64");
    auto w = runLaneOp({wide, ty, ty, wide}, "mul.wide." + ty + " %d, %a, %b;", in);
    auto m = runLaneOp({wide, ty, ty, wide}, "mad.wide." + ty + " %d, %a, %b, %c;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 p = valueOf(in[i][0], t) * valueOf(in[i][1], t);
      IntType wt{wide.c_str(), 2 * t.bits, t.isSigned};
      EXPECT_EQ(low(w[i], 2 * t.bits), bitsOf(p, 2 * t.bits)) << ty << i;
      EXPECT_EQ(low(m[i], 2 * t.bits), bitsOf(p + valueOf(in[i][2], wt), 2 * t.bits)) << ty << i;
    }
  }
}

// The ISA's extended-precision multiply example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6]
// with mad.lo.cc / madc.hi(.cc) / addc, against the host's 128-bit product.
TEST(IntegerSemantics, MadCarryChainsMultiplyExtendedPrecision) {
  auto in = pairs(64, 31);
  auto run = [&](const char* store) {
    std::string text =
        "{ .reg .u32 r0, r1, r2, r3, r4, r5, r6, r7;\n"
        "ld.global.u32 r4, [%p]; ld.global.u32 r5, [%p+4]; ld.global.u32 r6, [%p+8]; ld.global.u32 r7, [%p+12];\n"
        "mul.lo.u32 r0, r4, r6; mul.hi.u32 r1, r4, r6;\n"
        "mad.lo.cc.u32 r1, r5, r6, r1; madc.hi.u32 r2, r5, r6, 0;\n"
        "mad.lo.cc.u32 r1, r4, r7, r1; madc.hi.cc.u32 r2, r4, r7, r2; addc.u32 r3, 0, 0;\n"
        "mad.lo.cc.u32 r2, r5, r7, r2; madc.hi.u32 r3, r5, r7, r3;\n" +
        std::string(store) + " }";
    return runLaneOp({"", "u64", "u64", "u64"}, text, in);
  };
  auto high = run("st.global.u32 [%q], r2; st.global.u32 [%q+4], r3;");
  auto lowHalf = run("st.global.u32 [%q], r0; st.global.u32 [%q+4], r1;");
  for (unsigned i = 0; i < 32; ++i) {
    U128 product = U128{in[i][0]} * in[i][1];
    EXPECT_EQ(high[i], static_cast<uint64_t>(product >> 64)) << i;
    EXPECT_EQ(lowHalf[i], static_cast<uint64_t>(product)) << i;
  }
}

TEST(IntegerSemantics, MadLoHiAndHiSat) {
  auto in = pairs(32, 40);
  in[0] = {0x7fffffff, 0x7fffffff, 0x7fffffff};  // hi = 0x3fffffff, + c overflows
  in[1] = {0x80000000, 0x80000000, 0x40000000};  // hi = 0x40000000, + c = 2^31 saturates
  in[2] = {0x80000000, 0x7fffffff, 0x80000000};  // hi = -0x40000000, + c underflows
  auto lo = runLaneOp({"s32", "s32", "s32", "s32"}, "mad.lo.s32 %d, %a, %b, %c;", in);
  auto hi = runLaneOp({"u32", "u32", "u32", "u32"}, "mad.hi.u32 %d, %a, %b, %c;", in);
  auto sat = runLaneOp({"s32", "s32", "s32", "s32"}, "mad.hi.sat.s32 %d, %a, %b, %c;", in);
  for (unsigned i = 0; i < 32; ++i) {
    int64_t a = static_cast<int32_t>(in[i][0]), b = static_cast<int32_t>(in[i][1]), c = static_cast<int32_t>(in[i][2]);
    EXPECT_EQ(low(lo[i], 32), static_cast<uint32_t>(a * b + c)) << i;
    uint64_t uhi = (uint64_t{static_cast<uint32_t>(a)} * static_cast<uint32_t>(b)) >> 32;
    EXPECT_EQ(low(hi[i], 32), static_cast<uint32_t>(uhi + static_cast<uint32_t>(c))) << i;
    int64_t shi = (a * b) >> 32;
    EXPECT_EQ(low(sat[i], 32), static_cast<uint32_t>(std::clamp<int64_t>(shi + c, INT32_MIN, INT32_MAX))) << i;
  }
  EXPECT_EQ(low(sat[0], 32), 0x7fffffffu);
  EXPECT_EQ(low(sat[1], 32), 0x7fffffffu);
  EXPECT_EQ(low(sat[2], 32), 0x80000000u);
}

TEST(IntegerSemantics, Mul24AndMad24UseTheLow24Bits) {
  auto in = pairs(32, 50);
  in[0] = {0x00ffffff, 0x00ffffff, 5};
  in[1] = {0xff800000, 0x00800000, 0x7fffffff};
  for (bool isSigned : {false, true}) {
    std::string ty = isSigned ? "s32" : "u32";
    auto lo = runLaneOp({ty, ty, ty, ty}, "mul24.lo." + ty + " %d, %a, %b;", in);
    auto hi = runLaneOp({ty, ty, ty, ty}, "mul24.hi." + ty + " %d, %a, %b;", in);
    auto madLo = runLaneOp({ty, ty, ty, ty}, "mad24.lo." + ty + " %d, %a, %b, %c;", in);
    auto madHi = runLaneOp({ty, ty, ty, ty}, "mad24.hi." + ty + " %d, %a, %b, %c;", in);
    for (unsigned i = 0; i < 32; ++i) {
      auto ext = [&](uint64_t v) -> int64_t {
        int64_t x = static_cast<int64_t>(v & 0xffffff);
        return isSigned && x >= 0x800000 ? x - 0x1000000 : x;
      };
      int64_t p = ext(in[i][0]) * ext(in[i][1]);  // at most 48 bits
      uint32_t c = static_cast<uint32_t>(in[i][2]);
      EXPECT_EQ(low(lo[i], 32), static_cast<uint32_t>(p)) << ty << i;
      EXPECT_EQ(low(hi[i], 32), static_cast<uint32_t>(p / 65536 - (p < 0 && p % 65536 != 0 ? 1 : 0))) << ty << i;
      EXPECT_EQ(low(madLo[i], 32), static_cast<uint32_t>(static_cast<uint32_t>(p) + c)) << ty << i;
      EXPECT_EQ(low(madHi[i], 32), static_cast<uint32_t>(static_cast<uint32_t>(hi[i]) + c)) << ty << i;
    }
  }
  auto sat = runLaneOp({"s32", "s32", "s32", "s32"}, "mad24.hi.sat.s32 %d, %a, %b, %c;", in);
  EXPECT_EQ(low(sat[0], 32), 5u);  // -1 * -1 = 1: high part 0, plus 5
  // -2^23 * -2^23 = 2^46: high part 2^30, plus INT_MAX saturates.
  EXPECT_EQ(low(sat[1], 32), 0x7fffffffu);
}

TEST(IntegerSemantics, SadAddsTheAbsoluteDifference) {
  for (const IntType& t : kTypes) {
    auto in = pairs(t.bits, 60 + t.bits);
    std::string ty = t.name;
    auto r = runLaneOp({ty, ty, ty, ty}, "sad." + ty + " %d, %a, %b, %c;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 diff = valueOf(in[i][0], t) - valueOf(in[i][1], t);
      if (diff < 0) diff = -diff;
      EXPECT_EQ(low(r[i], t.bits), bitsOf(valueOf(in[i][2], t) + diff, t.bits)) << ty << i;
    }
  }
}

// Division by zero gives all ones from div and rem alike, and MIN / -1
// wraps to MIN with remainder 0, as an H100 does (integer_divrem*.cu).
TEST(IntegerSemantics, DivRemIncludingZeroDivisorsAndMinOverMinusOne) {
  for (const IntType& t : kTypes) {
    auto in = pairs(t.bits, 70 + t.bits);
    uint64_t minValue = uint64_t{1} << (t.bits - 1), allOnes = low(~uint64_t{0}, t.bits);
    in[0] = {5, 0, 0};
    in[1] = {minValue, allOnes, 0};
    in[2] = {0, 0, 0};
    in[3] = {allOnes, 3, 0};
    std::string ty = t.name;
    auto q = runLaneOp({ty, ty, ty, ty}, "div." + ty + " %d, %a, %b;", in);
    auto r = runLaneOp({ty, ty, ty, ty}, "rem." + ty + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 a = valueOf(in[i][0], t), b = valueOf(in[i][1], t);
      uint64_t eq = b == 0 ? allOnes : bitsOf(a / b, t.bits);  // I128 division cannot overflow here
      uint64_t er = b == 0 ? allOnes : bitsOf(a % b, t.bits);
      EXPECT_EQ(low(q[i], t.bits), eq) << ty << i;
      EXPECT_EQ(low(r[i], t.bits), er) << ty << i;
    }
    EXPECT_EQ(low(q[1], t.bits), t.isSigned ? minValue : 0);
    EXPECT_EQ(low(r[1], t.bits), t.isSigned ? 0 : minValue);
  }
}

TEST(IntegerSemantics, AbsNegMinMaxAndRelu) {
  for (const IntType& t : kTypes) {
    auto in = pairs(t.bits, 80 + t.bits);
    std::string ty = t.name;
    auto mn = runLaneOp({ty, ty, ty, ty}, "min." + ty + " %d, %a, %b;", in);
    auto mx = runLaneOp({ty, ty, ty, ty}, "max." + ty + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 a = valueOf(in[i][0], t), b = valueOf(in[i][1], t);
      EXPECT_EQ(low(mn[i], t.bits), bitsOf(a < b ? a : b, t.bits)) << ty << i;
      EXPECT_EQ(low(mx[i], t.bits), bitsOf(a < b ? b : a, t.bits)) << ty << i;
    }
    if (!t.isSigned) continue;
    auto ab = runLaneOp({ty, ty, ty, ty}, "abs." + ty + " %d, %a;", in);
    auto ng = runLaneOp({ty, ty, ty, ty}, "neg." + ty + " %d, %a;", in);
    for (unsigned i = 0; i < 32; ++i) {
      I128 a = valueOf(in[i][0], t);
      EXPECT_EQ(low(ab[i], t.bits), bitsOf(a < 0 ? -a : a, t.bits)) << ty << i;  // abs(MIN) wraps to MIN
      EXPECT_EQ(low(ng[i], t.bits), bitsOf(-a, t.bits)) << ty << i;
    }
  }
  auto in = pairs(32, 90);
  auto minRelu = runLaneOp({"s32", "s32", "s32", "s32"}, "min.relu.s32 %d, %a, %b;", in);
  auto maxRelu = runLaneOp({"s32", "s32", "s32", "s32"}, "max.relu.s32 %d, %a, %b;", in);
  for (unsigned i = 0; i < 32; ++i) {
    int32_t a = static_cast<int32_t>(in[i][0]), b = static_cast<int32_t>(in[i][1]);
    EXPECT_EQ(low(minRelu[i], 32), static_cast<uint32_t>(std::max(std::min(a, b), 0))) << i;
    EXPECT_EQ(low(maxRelu[i], 32), static_cast<uint32_t>(std::max(std::max(a, b), 0))) << i;
  }
}

// Forms outside the ISA fail to load, naming the instruction.
TEST(IntegerSemantics, FormsOutsideTheIsaAreRejectedAtLoad) {
  struct Form {
    test::LaneOpTypes types;
    const char* text;
    const char* ptxas;  // ptxas's message, which the front end gives
  };
  const Form forms[] = {
      {{"u32", "u32", "u32", "u32"},
       "add.sat.u32 %d, %a, %b;",
       "Modifier '.sat' does not apply to '.u32' type"},
      {{"u32", "u32", "u32", "u32"}, "min.u32 %d, %a, %b, %c;", "Arguments mismatch for instruction 'min'"},
      {{"u16", "u16", "u16", "u16"},
       "add.cc.u16 %d, %a, %b;",
       "Modifier '.cc' applies only to add integer types"},
      {{"u64", "u32", "u32", "u64"},
       "mad.wide.cc.u32 %d, %a, %b, %c;",
       "Illegal modifier '.cc' for instruction 'mad.wide'"},
      {{"u32", "u32", "u32", "u32"},
       "mad.lo.sat.s32 %d, %a, %b, %c;",
       "Illegal modifier '.sat' for instruction 'mad.lo'"}};
  for (const Form& form : forms) {
    std::string error = test::moduleLoadError(test::laneOpKernel(form.types, form.text));
    EXPECT_NE(error.find(form.ptxas), std::string::npos) << form.text << ": " << error;
  }
}

}  // namespace
}  // namespace ptxsim
