// f16/bf16 arithmetic, min/max, neg/abs and comparisons, against host
// _Float16/double arithmetic and hand-derived edge values (NaN patterns as
// measured on the H100 by tests/cuda/semantics/half_*.cu).

#include <bit>
#include <cmath>

#include "semantics_run.h"

namespace ptxsim {
namespace {

using test::runPerInput;

double f16Value(uint16_t b) { return static_cast<double>(std::bit_cast<_Float16>(b)); }
uint16_t f16Of(double d) { return std::bit_cast<uint16_t>(static_cast<_Float16>(d)); }

// inst d, a, b on two f16 packed as input bits [15:0] and [31:16].
std::vector<uint64_t> binary16(const std::string& inst, const std::vector<uint64_t>& in) {
  return runPerInput(".reg .b16 %x, %y, %z;",
                     "ld.global.b16 %x, [%pin];\nld.global.b16 %y, [%pin+2];\n" + inst +
                         " %z, %x, %y;\ncvt.u64.u16 %r, %z;",
                     in);
}

std::vector<uint64_t> samplePairs() {
  std::vector<uint64_t> v;
  uint32_t x = 7;
  for (int i = 0; i < 96; ++i) {
    x = x * 1664525u + 1013904223u;
    uint32_t pair = x;
    if ((pair & 0x7c00) == 0x7c00) pair &= ~0x4000u;  // keep the sample finite
    if ((pair & 0x7c000000) == 0x7c000000) pair &= ~0x40000000u;
    v.push_back(pair);
  }
  return v;
}

TEST(Half, F16AddSubMulMatchHostRounding) {
  std::vector<uint64_t> in = samplePairs();
  std::vector<uint64_t> add = binary16("add.f16", in);
  std::vector<uint64_t> sub = binary16("sub.rn.f16", in);
  std::vector<uint64_t> mul = binary16("mul.f16", in);
  for (size_t i = 0; i < in.size(); ++i) {
    double a = f16Value(in[i] & 0xffff), b = f16Value(in[i] >> 16);
    // Sums and products of two f16 are exact in a double: one rounding.
    EXPECT_EQ(add[i], f16Of(a + b)) << std::hex << in[i];
    EXPECT_EQ(sub[i], f16Of(a - b)) << std::hex << in[i];
    EXPECT_EQ(mul[i], f16Of(a * b)) << std::hex << in[i];
  }
}

// bf16 round-to-nearest-even of a double holding the exact value.
uint64_t bf16Of(double d) {
  uint64_t bits = std::bit_cast<uint64_t>(d);
  bits = (bits + (uint64_t{1} << 44) - 1 + ((bits >> 45) & 1)) & ~((uint64_t{1} << 45) - 1);
  return std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(bits))) >> 16;
}

TEST(Half, Bf16AddMulMatchHostRounding) {
  std::vector<uint64_t> in;
  uint32_t x = 3;
  for (int i = 0; i < 64; ++i) {
    x = x * 1664525u + 1013904223u;
    // Exponents within 2^+-15 so the exact sum fits a double.
    uint32_t a = ((x & 0x807f) | ((0x70 + (x >> 8) % 30) << 7));
    uint32_t b = (((x >> 16) & 0x807f) | ((0x70 + (x >> 24) % 30) << 7));
    in.push_back(a | (b << 16));
  }
  std::vector<uint64_t> add = binary16("add.bf16", in);
  std::vector<uint64_t> mul = binary16("mul.rn.bf16", in);
  for (size_t i = 0; i < in.size(); ++i) {
    double a = std::bit_cast<float>(static_cast<uint32_t>(in[i] << 16));
    double b = std::bit_cast<float>(static_cast<uint32_t>((in[i] >> 16) << 16));
    EXPECT_EQ(add[i], bf16Of(a + b)) << std::hex << in[i];
    EXPECT_EQ(mul[i], bf16Of(a * b)) << std::hex << in[i];
  }
}

TEST(Half, NaNsZerosSubnormalsAndSaturation) {
  // (qNaN, 1), (-0, -0), (max subnormal, min subnormal), (max, max), (1, -3), (-1, 0.25).
  std::vector<uint64_t> in = {0x3c007e00, 0x80008000, 0x000103ff, 0x7bff7bff, 0xc2003c00, 0x3400bc00};
  EXPECT_EQ(binary16("add.f16", in), (std::vector<uint64_t>{0x7fff, 0x8000, 0x0400, 0x7c00, 0xc000, 0xba00}));
  EXPECT_EQ(binary16("add.ftz.f16", in), (std::vector<uint64_t>{0x7fff, 0x8000, 0x0000, 0x7c00, 0xc000, 0xba00}));
  EXPECT_EQ(binary16("add.sat.f16", in), (std::vector<uint64_t>{0x0000, 0x0000, 0x0400, 0x3c00, 0x0000, 0x0000}));
  EXPECT_EQ(binary16("mul.f16", in), (std::vector<uint64_t>{0x7fff, 0x0000, 0x0000, 0x7c00, 0xc200, 0xb400}));
}

TEST(Half, FmaRoundsOnceWithReluSatAndOob) {
  auto fma = [](const std::string& inst, uint64_t a, uint64_t b, uint64_t c) {
    return runPerInput(".reg .b16 %x, %y, %w, %z;",
                       "ld.global.b16 %x, [%pin];\nld.global.b16 %y, [%pin+2];\nld.global.b16 %w, [%pin+4];\n" +
                           inst + " %z, %x, %y, %w;\ncvt.u64.u16 %r, %z;",
                       {a | (b << 16) | (c << 32)})[0];
  };
  // (1+2^-10)^2 - 1 = 2^-9 + 2^-20 needs the unrounded product.
  EXPECT_EQ(fma("fma.rn.f16", 0x3c01, 0x3c01, 0xbc00), f16Of(0x1p-9 + 0x1p-20));
  // 1 + 2^-11 is a tie (to even: 1.0); 1 + 2^-11 + 2^-21 rounds up.
  EXPECT_EQ(fma("fma.rn.f16", 0x1000, 0x3c00, 0x3c00), 0x3c00u);
  EXPECT_EQ(fma("fma.rn.f16", 0x1000, 0x3c01, 0x3c00), 0x3c01u);
  EXPECT_EQ(fma("fma.rn.relu.f16", 0x3c00, 0xbc00, 0x0000), 0x0000u);
  EXPECT_EQ(fma("fma.rn.relu.f16", 0x7e00, 0x3c00, 0x0000), 0x7fffu);
  EXPECT_EQ(fma("fma.rn.sat.f16", 0x4000, 0x4000, 0x0000), 0x3c00u);
  EXPECT_EQ(fma("fma.rn.oob.f16", 0x7fff, 0x3c00, 0x3c00), 0x0000u);
  EXPECT_EQ(fma("fma.rn.oob.f16", 0x7e00, 0x3c00, 0x3c00), 0x7fffu);
  EXPECT_EQ(fma("fma.rn.bf16", 0x3f81, 0x3f81, 0xbf80), 0x3c80u);  // 2^-6 + 2^-14 ties to 2^-6
}

// fma.oob.sat.f16 is HFMA2.OOB.SAT: an OOB NaN operand gives +0, and the
// result is clamped to [0, 1].
TEST(Half, FmaOobSat) {
  std::vector<uint64_t> in = {0x7fffull | (0x3c00ull << 16) | (0x3c00ull << 32),
                              0x4000ull | (0x4000ull << 16), 0xbc00ull | (0x3c00ull << 16),
                              0x3800ull | (0x3c00ull << 16)};
  std::string body =
      "ld.global.b16 %x, [%pin];\nld.global.b16 %y, [%pin+2];\nld.global.b16 %w, [%pin+4];\n"
      "fma.rn.oob.sat.f16 %z, %x, %y, %w;\ncvt.u64.u16 %r, %z;";
  EXPECT_EQ(runPerInput(".reg .b16 %x, %y, %w, %z;", body, in),
            (std::vector<uint64_t>{0, 0x3c00, 0, 0x3800}));
}

// fma.rz/rm/rp on bf16 as ptxas 13.0 compiles them for sm_90. The packed
// form is HFMA2.BF16_V2, the SASS of .rn: (1+2^-7)(1+3*2^-7) = 1 + 2^-5 +
// 3*2^-14 gives 1 + 2^-5 (0x3f84) in each half even with .rp. The scalar
// form is f16 arithmetic: FFMA.RZ/RM/RP of the operands read as f16, then
// F2FP.F16.F32 to nearest, .relu and .oob dropped.
TEST(Half, Bf16DirectedFmaFollowsPtxas) {
  auto fma2 = [](const std::string& inst, uint64_t a, uint64_t b, uint64_t c) {
    return runPerInput(".reg .b32 %x, %y, %w, %z;",
                       "ld.global.b32 %x, [%pin];\nmov.b32 %y, " + std::to_string(b) + ";\nmov.b32 %w, " +
                           std::to_string(c) + ";\n" + inst + " %z, %x, %y, %w;\ncvt.u64.u32 %r, %z;",
                       {a})[0];
  };
  for (const char* inst : {"fma.rp.bf16x2", "fma.rz.bf16x2", "fma.rm.relu.bf16x2", "fma.rp.oob.bf16x2"}) {
    EXPECT_EQ(fma2(inst, 0x3f813f81, 0x3f833f83, 0), 0x3f843f84u) << inst;
  }
  auto fma = [](const std::string& inst, uint64_t a, uint64_t b, uint64_t c) {
    return runPerInput(
        ".reg .b16 %x, %y, %w, %z;",
        "ld.global.b16 %x, [%pin];\nld.global.b16 %y, [%pin+2];\nld.global.b16 %w, [%pin+4];\n" + inst +
            " %z, %x, %y, %w;\ncvt.u64.u16 %r, %z;",
        {a | (b << 16) | (c << 32)})[0];
  };
  // An H100 record: 0x3f80 read as f16 is 1.875, and 1.875^2 = 0x4308.
  EXPECT_EQ(fma("fma.rm.bf16", 0x3f80, 0x3f80, 0), 0x4308u);
  EXPECT_EQ(fma("fma.rz.relu.bf16", 0xbf80, 0x3f80, 0), 0xc308u);  // .relu dropped
  // 2^-11(1+2^-10) * (1-2^-10) + (1+2^-10) = 1 + 2^-10 + 2^-11 - 2^-31, just
  // below an f16 tie: FFMA.RZ/RM keep it below (0x3c01), FFMA.RP reaches the
  // tie, which F2FP rounds to even (0x3c02).
  EXPECT_EQ(fma("fma.rz.bf16", 0x1001, 0x3bfe, 0x3c01), 0x3c01u);
  EXPECT_EQ(fma("fma.rm.oob.bf16", 0x1001, 0x3bfe, 0x3c01), 0x3c01u);
  EXPECT_EQ(fma("fma.rp.bf16", 0x1001, 0x3bfe, 0x3c01), 0x3c02u);
  // A NaN (0x7f80 read as f16) gives the canonical f16 NaN.
  EXPECT_EQ(fma("fma.rp.oob.relu.bf16", 0x7f80, 0x3f80, 0), 0x7fffu);
}

TEST(Half, MinMaxNaNSignedZeroAndXorsign) {
  std::vector<uint64_t> in = {0x3c007e00, 0x80000000, 0x00008000, 0x7e017e00, 0xc0003c00};
  EXPECT_EQ(binary16("min.f16", in), (std::vector<uint64_t>{0x3c00, 0x8000, 0x8000, 0x7fff, 0xc000}));
  EXPECT_EQ(binary16("max.f16", in), (std::vector<uint64_t>{0x3c00, 0x0000, 0x0000, 0x7fff, 0x3c00}));
  EXPECT_EQ(binary16("min.NaN.f16", in), (std::vector<uint64_t>{0x7fff, 0x8000, 0x8000, 0x7fff, 0xc000}));
  EXPECT_EQ(binary16("min.xorsign.abs.f16", in), (std::vector<uint64_t>{0x3c00, 0x8000, 0x8000, 0x7fff, 0xbc00}));
  EXPECT_EQ(binary16("max.xorsign.abs.bf16", {0xc0003f80}), (std::vector<uint64_t>{0xc000}));
}

TEST(Half, NegAbsFlipTheSignAndCanonicaliseNaN) {
  auto unary = [](const std::string& inst, std::vector<uint64_t> in) {
    return runPerInput(".reg .b16 %x, %z;", "cvt.u16.u64 %x, %a;\n" + inst + " %z, %x;\ncvt.u64.u16 %r, %z;", in);
  };
  std::vector<uint64_t> in = {0x3c00, 0x8000, 0x03ff, 0xfe01};
  EXPECT_EQ(unary("neg.f16", in), (std::vector<uint64_t>{0xbc00, 0x0000, 0x83ff, 0x7fff}));
  EXPECT_EQ(unary("neg.ftz.f16", in), (std::vector<uint64_t>{0xbc00, 0x0000, 0x8000, 0x7fff}));
  EXPECT_EQ(unary("abs.f16", in), (std::vector<uint64_t>{0x3c00, 0x0000, 0x03ff, 0x7fff}));
  EXPECT_EQ(unary("abs.bf16", {0xbf80, 0xffc1}), (std::vector<uint64_t>{0x3f80, 0x7fff}));
}

TEST(Half, PackedSetpWritesLowHalfToPAndHighHalfToQ) {
  // a = {lo 2.0, hi 1.0}, b = {lo 1.0, hi 2.0}: lo is not less, hi is.
  std::string decls = ".reg .b32 %x, %y, %z;\n.reg .pred %p, %q;\n.reg .b64 %pp, %qq;";
  std::string body =
      "ld.global.b32 %x, [%pin];\nld.global.b32 %y, [%pin+4];\nsetp.lt.f16x2 %p|%q, %x, %y;\n"
      "selp.b64 %pp, 1, 0, %p;\nselp.b64 %qq, 2, 0, %q;\nadd.u64 %r, %pp, %qq;";
  uint64_t in = 0x3c004000ull | (0x40003c00ull << 32);
  EXPECT_EQ(runPerInput(decls, body, {in})[0], 2u);
  std::string set = "ld.global.b32 %x, [%pin];\nld.global.b32 %y, [%pin+4];\nset.lt.f16x2.f16x2 %z, %x, %y;\n"
                    "cvt.u64.u32 %r, %z;";
  EXPECT_EQ(runPerInput(decls, set, {in})[0], 0x3c000000u);
  std::string unordered = "ld.global.b32 %x, [%pin];\nld.global.b32 %y, [%pin+4];\n"
                          "set.gtu.bf16x2.bf16x2 %z, %x, %y;\ncvt.u64.u32 %r, %z;";
  EXPECT_EQ(runPerInput(decls, unordered, {0x7fc03f80ull | (0x3f804000ull << 32)})[0], 0x3f800000u);
}

TEST(Half, Ex2AndTanhWithinOneUnit) {
  std::vector<uint64_t> in;
  for (uint64_t v = 0; v < 0x10000; v += 0x3f1) in.push_back(v);
  std::vector<uint64_t> ex2 = runPerInput(".reg .b16 %x, %z;", "cvt.u16.u64 %x, %a;\nex2.approx.f16 %z, %x;\ncvt.u64.u16 %r, %z;", in);
  std::vector<uint64_t> th = runPerInput(".reg .b16 %x, %z;", "cvt.u16.u64 %x, %a;\ntanh.approx.f16 %z, %x;\ncvt.u64.u16 %r, %z;", in);
  for (size_t i = 0; i < in.size(); ++i) {
    double x = f16Value(static_cast<uint16_t>(in[i]));
    if (std::isnan(x)) {
      EXPECT_EQ(ex2[i], 0x7fffu);
      continue;
    }
    auto near = [](uint64_t got, double exact) {
      uint16_t want = f16Of(exact);
      int diff = static_cast<int>(got) - static_cast<int>(want);
      return diff >= -1 && diff <= 1;
    };
    EXPECT_TRUE(near(ex2[i], std::exp2(x))) << std::hex << in[i] << " " << ex2[i];
    EXPECT_TRUE(near(th[i], std::tanh(x))) << std::hex << in[i] << " " << th[i];
  }
}

}  // namespace
}  // namespace ptxsim
