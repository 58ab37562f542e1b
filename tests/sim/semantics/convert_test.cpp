// cvt: every direction among integers, f16, bf16, tf32, f32, f64 and the
// 8-bit float pairs, against host conversions (_Float16, float, double)
// and hand-derived edge values.

#include <bit>
#include <cmath>
#include <cstring>

#include "semantics_run.h"

namespace ptxsim {
namespace {

using test::runPerInput;

uint32_t f32Bits(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t f64Bits(double d) { return std::bit_cast<uint64_t>(d); }
uint16_t hostF16(double d) { return std::bit_cast<uint16_t>(static_cast<_Float16>(d)); }

// A spread of f32 patterns: edge values and a deterministic pseudo-random
// sample over all exponents.
std::vector<uint64_t> f32Sample() {
  std::vector<uint64_t> v = {0x00000000, 0x80000000, 0x3f800000, 0x3f801000, 0x3f803000, 0x477fe000, 0x477ff000,
                             0x477fefff, 0x33000000, 0x33000001, 0x33c00000, 0x38800000, 0x387fc000, 0x7f7fffff,
                             0xff7fffff, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0xc0400000};
  uint32_t x = 12345;
  for (int i = 0; i < 108; ++i) {
    x = x * 1664525u + 1013904223u;
    v.push_back(x);
  }
  return v;
}

// cvt.<mode>.<dst>.f32 on the low 32 bits of each input, result in the low bits of %r.
std::vector<uint64_t> fromF32(const std::string& inst, const std::vector<uint64_t>& in, const char* dstReg = "b16") {
  std::string decls = std::string(".reg .b32 %x;\n.reg .") + dstReg + " %y;";
  std::string body = "cvt.u32.u64 %x, %a;\n" + inst + " %y, %x;\n";
  body += std::string(dstReg) == "b16" ? "cvt.u64.u16 %r, %y;" : std::string(dstReg) == "b32" ? "cvt.u64.u32 %r, %y;" : "mov.b64 %r, %y;";
  return runPerInput(decls, body, in);
}

TEST(Convert, F32ToF16RoundToNearestMatchesHost) {
  std::vector<uint64_t> in = f32Sample();
  std::vector<uint64_t> out = fromF32("cvt.rn.f16.f32", in);
  for (size_t i = 0; i < in.size(); ++i) {
    float f = std::bit_cast<float>(static_cast<uint32_t>(in[i]));
    if (std::isnan(f)) continue;
    EXPECT_EQ(out[i], hostF16(f)) << std::hex << in[i];
  }
}

TEST(Convert, F32ToF16DirectedRoundingOverflowAndSubnormals) {
  // 1+2^-11 (a tie), -(1+2^-11), 65520 (overflow tie), 2^-25 (half the
  // smallest subnormal), the smallest f32 subnormal, 1e10, NaN.
  std::vector<uint64_t> in = {0x3f801000, 0xbf801000, 0x477ff000, 0x33000000, 0x00000001, 0x501502f9, 0xffc00001};
  EXPECT_EQ(fromF32("cvt.rn.f16.f32", in), (std::vector<uint64_t>{0x3c00, 0xbc00, 0x7c00, 0x0000, 0x0000, 0x7c00, 0x7fff}));
  EXPECT_EQ(fromF32("cvt.rz.f16.f32", in), (std::vector<uint64_t>{0x3c00, 0xbc00, 0x7bff, 0x0000, 0x0000, 0x7bff, 0x7fff}));
  EXPECT_EQ(fromF32("cvt.rm.f16.f32", in), (std::vector<uint64_t>{0x3c00, 0xbc01, 0x7bff, 0x0000, 0x0000, 0x7bff, 0x7fff}));
  EXPECT_EQ(fromF32("cvt.rp.f16.f32", in), (std::vector<uint64_t>{0x3c01, 0xbc00, 0x7c00, 0x0001, 0x0001, 0x7c00, 0x7fff}));
  // The H100 does not flush the f32 input here despite .ftz (measured).
  EXPECT_EQ(fromF32("cvt.rp.ftz.f16.f32", in), (std::vector<uint64_t>{0x3c01, 0xbc00, 0x7c00, 0x0001, 0x0001, 0x7c00, 0x7fff}));
  EXPECT_EQ(fromF32("cvt.rn.satfinite.f16.f32", in),
            (std::vector<uint64_t>{0x3c00, 0xbc00, 0x7bff, 0x0000, 0x0000, 0x7bff, 0x7fff}));
  EXPECT_EQ(fromF32("cvt.rn.relu.f16.f32", in), (std::vector<uint64_t>{0x3c00, 0x0000, 0x7c00, 0x0000, 0x0000, 0x7c00, 0x7fff}));
}

// bf16 round-to-nearest-even by the usual bit formula, for non-NaN inputs.
uint64_t hostBf16(uint32_t bits) { return (bits + 0x7fff + ((bits >> 16) & 1)) >> 16; }

TEST(Convert, F32ToBf16MatchesBitFormulaAndTruncation) {
  std::vector<uint64_t> in = f32Sample();
  std::vector<uint64_t> rn = fromF32("cvt.rn.bf16.f32", in);
  std::vector<uint64_t> rz = fromF32("cvt.rz.bf16.f32", in);
  for (size_t i = 0; i < in.size(); ++i) {
    uint32_t b = static_cast<uint32_t>(in[i]);
    if (std::isnan(std::bit_cast<float>(b))) {
      EXPECT_EQ(rn[i], 0x7fffu);
      continue;
    }
    EXPECT_EQ(rn[i], hostBf16(b)) << std::hex << b;
    EXPECT_EQ(rz[i], b >> 16) << std::hex << b;
  }
  // .satfinite keeps the overflow of the largest f32 finite.
  EXPECT_EQ(fromF32("cvt.rn.satfinite.bf16.f32", {0x7f7fffff, 0xff800000}), (std::vector<uint64_t>{0x7f7f, 0xff7f}));
}

TEST(Convert, F32ToTf32RoundsAwayOnTies) {
  // 1 + 2^-11 is half a tf32 unit above 1; rna rounds it away from zero.
  std::vector<uint64_t> out = fromF32("cvt.rna.tf32.f32", {0x3f801000, 0xbf801000, 0x3f800fff, 0x7f7fffff}, "b32");
  EXPECT_EQ(out, (std::vector<uint64_t>{0x3f802000, 0xbf802000, 0x3f800000, 0x7f800000}));
  EXPECT_EQ(fromF32("cvt.rna.satfinite.tf32.f32", {0x7f7fffff, 0xff800000}, "b32"),
            (std::vector<uint64_t>{0x7f7fe000, 0xff7fe000}));
}

std::vector<uint64_t> f64To(const std::string& inst, const std::vector<uint64_t>& in) {
  return runPerInput(".reg .b32 %y;", inst + " %y, %a;\ncvt.u64.u32 %r, %y;", in);
}
std::vector<uint64_t> f64ToB16(const std::string& inst, const std::vector<uint64_t>& in) {
  return runPerInput(".reg .b16 %y;", inst + " %y, %a;\ncvt.u64.u16 %r, %y;", in);
}

TEST(Convert, F64ToF32MatchesHostAndDirectedModes) {
  std::vector<uint64_t> in;
  uint64_t x = 99;
  for (int i = 0; i < 64; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    // Keep exponents near f32's range so rounding, subnormals and overflow all occur.
    uint64_t exponent = 1023 - 160 + (x >> 40) % 300;
    in.push_back((x & 0x800fffffffffffffull) | (exponent << 52));
  }
  std::vector<uint64_t> out = f64To("cvt.rn.f32.f64", in);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i], f32Bits(static_cast<float>(std::bit_cast<double>(in[i])))) << std::hex << in[i];
  }
}

TEST(Convert, F64ToF32DirectedRoundingAndFtz) {
  // 1 + 2^-24 (a tie for f32), 2^-149 * 1.5, 2^128, -(1 + 2^-24).
  std::vector<uint64_t> in = {0x3ff0000010000000, 0x36a8000000000000, 0x47f0000000000000, 0xbff0000010000000};
  EXPECT_EQ(f64To("cvt.rn.f32.f64", in), (std::vector<uint64_t>{0x3f800000, 0x00000002, 0x7f800000, 0xbf800000}));
  EXPECT_EQ(f64To("cvt.rz.f32.f64", in), (std::vector<uint64_t>{0x3f800000, 0x00000001, 0x7f7fffff, 0xbf800000}));
  EXPECT_EQ(f64To("cvt.rm.f32.f64", in), (std::vector<uint64_t>{0x3f800000, 0x00000001, 0x7f7fffff, 0xbf800001}));
  EXPECT_EQ(f64To("cvt.rp.f32.f64", in), (std::vector<uint64_t>{0x3f800001, 0x00000002, 0x7f800000, 0xbf800000}));
  EXPECT_EQ(f64To("cvt.rp.ftz.f32.f64", in), (std::vector<uint64_t>{0x3f800001, 0x00000000, 0x7f800000, 0xbf800000}));
}

TEST(Convert, FloatToIntegerRoundsClampsAndMapsNaN) {
  // 2.5, -2.5, 1e10, -1e10, NaN, inf, -0.5.
  std::vector<uint64_t> in = {0x40200000, 0xc0200000, 0x501502f9, 0xd01502f9, 0x7fc00000, 0x7f800000, 0xbf000000};
  auto to32 = [&](const std::string& inst) {
    return runPerInput(".reg .b32 %x, %y;", "cvt.u32.u64 %x, %a;\n" + inst + " %y, %x;\ncvt.u64.u32 %r, %y;", in);
  };
  EXPECT_EQ(to32("cvt.rni.s32.f32"),
            (std::vector<uint64_t>{2, 0xfffffffe, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0}));
  EXPECT_EQ(to32("cvt.rzi.s32.f32"),
            (std::vector<uint64_t>{2, 0xfffffffe, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0}));
  EXPECT_EQ(to32("cvt.rmi.s32.f32"),
            (std::vector<uint64_t>{2, 0xfffffffd, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0xffffffff}));
  EXPECT_EQ(to32("cvt.rpi.u32.f32"), (std::vector<uint64_t>{3, 0, 0xffffffff, 0, 0, 0xffffffff, 0}));
  // A .s8 result in a 32-bit register is sign-extended to 32 bits.
  EXPECT_EQ(to32("cvt.rzi.s8.f32"), (std::vector<uint64_t>{2, 0xfffffffe, 0x7f, 0xffffff80, 0, 0x7f, 0}));
  // To 64-bit integers a NaN gives 1 << 63.
  std::vector<uint64_t> s64 = runPerInput(".reg .b32 %x;", "cvt.u32.u64 %x, %a;\ncvt.rzi.s64.f32 %r, %x;", in);
  EXPECT_EQ(s64, (std::vector<uint64_t>{2, 0xfffffffffffffffe, 10000000000, 0xfffffffdabf41c00, 0x8000000000000000,
                                        0x7fffffffffffffff, 0}));
  // From f64 a NaN gives 1 << (width - 1).
  std::vector<uint64_t> fromF64 = runPerInput(".reg .b32 %y;", "cvt.rzi.u32.f64 %y, %a;\ncvt.u64.u32 %r, %y;",
                                              {0x7ff8000000000000, f64Bits(4294967295.5), f64Bits(-7.0)});
  EXPECT_EQ(fromF64, (std::vector<uint64_t>{0x80000000, 0xffffffff, 0}));
}

TEST(Convert, HalfToIntegerAndIntegralRounding) {
  // f16 2.5 and -65504; bf16 -1.5.
  std::vector<uint64_t> out = runPerInput(".reg .b16 %h;\n.reg .b32 %y;",
                                          "cvt.u16.u64 %h, %a;\ncvt.rni.s32.f16 %y, %h;\ncvt.u64.u32 %r, %y;",
                                          {0x4100, 0xfbff, 0x7e00});
  EXPECT_EQ(out, (std::vector<uint64_t>{2, 0xffff0020, 0}));
  out = runPerInput(".reg .b16 %h;", "cvt.u16.u64 %h, %a;\ncvt.rmi.s64.bf16 %r, %h;", {0xbfc0, 0x4b00});
  EXPECT_EQ(out, (std::vector<uint64_t>{0xfffffffffffffffe, 8388608}));
  // Integral rounding keeps the format: f32 2.5 -> 3.0 (.rpi), f64 -2.5 -> -2.0 (.rni).
  EXPECT_EQ(fromF32("cvt.rpi.f32.f32", {0x40200000, 0xc0200000, 0x7f800000}, "b32"),
            (std::vector<uint64_t>{0x40400000, 0xc0000000, 0x7f800000}));
  EXPECT_EQ(runPerInput("", "cvt.rni.f64.f64 %r, %a;", {f64Bits(-2.5), f64Bits(3.5)}),
            (std::vector<uint64_t>{f64Bits(-2.0), f64Bits(4.0)}));
}

TEST(Convert, IntegerToFloatEachRounding) {
  std::vector<uint64_t> in = {0xffffffffffffffff, 0x8000000000000001, 2049, 70000, (1u << 24) + 1};
  auto run = [&](const std::string& inst, const char* reg) {
    std::string body = inst + " %y, %a;\n";
    body += std::string(reg) == "b16" ? "cvt.u64.u16 %r, %y;" : "cvt.u64.u32 %r, %y;";
    return runPerInput(std::string(".reg .") + reg + " %y;", body, in);
  };
  EXPECT_EQ(run("cvt.rn.f32.u64", "b32"), (std::vector<uint64_t>{0x5f800000, 0x5f000000, 0x45001000, 0x4788b800,
                                                                0x4b800000}));
  EXPECT_EQ(run("cvt.rz.f32.u64", "b32"), (std::vector<uint64_t>{0x5f7fffff, 0x5f000000, 0x45001000, 0x4788b800,
                                                                0x4b800000}));
  EXPECT_EQ(run("cvt.rm.f32.s64", "b32"), (std::vector<uint64_t>{0xbf800000, 0xdf000000, 0x45001000, 0x4788b800,
                                                                0x4b800000}));
  EXPECT_EQ(run("cvt.rp.f32.s64", "b32"), (std::vector<uint64_t>{0xbf800000, 0xdeffffff, 0x45001000, 0x4788b800,
                                                                0x4b800001}));
  // f16: 2049 is a tie (even: 2048), 70000 overflows.
  EXPECT_EQ(run("cvt.rn.f16.u64", "b16"), (std::vector<uint64_t>{0x7c00, 0x7c00, 0x6800, 0x7c00, 0x7c00}));
  EXPECT_EQ(run("cvt.rz.f16.s64", "b16"), (std::vector<uint64_t>{0xbc00, 0xfbff, 0x6800, 0x7bff, 0x7bff}));
  EXPECT_EQ(run("cvt.rp.f16.s64", "b16"), (std::vector<uint64_t>{0xbc00, 0xfbff, 0x6801, 0x7c00, 0x7c00}));
  EXPECT_EQ(run("cvt.rn.bf16.u32", "b16"), (std::vector<uint64_t>{0x4f80, 0x3f80, 0x4500, 0x4789, 0x4b80}));
}

TEST(Convert, IntegerToIntegerExtendsTruncatesAndSaturates) {
  std::vector<uint64_t> in = {0xff, 0x80000080, 0x12345, 0xfffffff0, 0x7fffffffffffffff};
  auto run = [&](const std::string& inst, const char* src, const char* dst) {
    std::string body = std::string("cvt.") + src + ".u64 %x, %a;\n" + inst + " %y, %x;\ncvt.u64." + dst + " %r, %y;";
    return runPerInput(std::string(".reg .") + src + " %x;\n.reg ." + dst + " %y;", body, in);
  };
  EXPECT_EQ(run("cvt.s8.s32", "s32", "u32"),
            (std::vector<uint64_t>{0xffffffff, 0xffffff80, 0x45, 0xfffffff0, 0xffffffff}));
  EXPECT_EQ(run("cvt.u8.s32", "s32", "u32"), (std::vector<uint64_t>{0xff, 0x80, 0x45, 0xf0, 0xff}));
  EXPECT_EQ(run("cvt.sat.s8.s32", "s32", "u32"),
            (std::vector<uint64_t>{0x7f, 0xffffff80, 0x7f, 0xfffffff0, 0xffffffff}));
  EXPECT_EQ(run("cvt.sat.u16.s32", "s32", "u32"), (std::vector<uint64_t>{0xff, 0, 0xffff, 0, 0}));
  EXPECT_EQ(run("cvt.sat.s32.u32", "u32", "u32"),
            (std::vector<uint64_t>{0xff, 0x7fffffff, 0x12345, 0x7fffffff, 0x7fffffff}));
  EXPECT_EQ(runPerInput(".reg .s64 %y;", "cvt.s64.s16 %y, %a;\nmov.b64 %r, %y;", in),
            (std::vector<uint64_t>{0xff, 0x80, 0x2345, 0xfffffffffffffff0, 0xffffffffffffffff}));
  EXPECT_EQ(runPerInput(".reg .u32 %y;", "cvt.sat.u32.s64 %y, %a;\ncvt.u64.u32 %r, %y;", in),
            (std::vector<uint64_t>{0xff, 0x80000080, 0x12345, 0xfffffff0, 0xffffffff}));
}

TEST(Convert, PackedHalfPairsPutTheFirstSourceHigh) {
  std::string decls = ".reg .b32 %x, %z, %y;";
  // a = 1.0 in the high word of the input, b = -2.0 in the low word.
  std::string body =
      "ld.global.b32 %z, [%pin];\nld.global.b32 %x, [%pin+4];\ncvt.rn.f16x2.f32 %y, %x, %z;\ncvt.u64.u32 %r, %y;";
  uint64_t in = (uint64_t{f32Bits(1.0f)} << 32) | f32Bits(-2.0f);
  EXPECT_EQ(runPerInput(decls, body, {in})[0], 0x3c00c000u);
  body = "ld.global.b32 %z, [%pin];\nld.global.b32 %x, [%pin+4];\ncvt.rz.relu.bf16x2.f32 %y, %x, %z;\ncvt.u64.u32 %r, %y;";
  EXPECT_EQ(runPerInput(decls, body, {in})[0], 0x3f800000u);
}

TEST(Convert, EightBitFloatPairs) {
  std::string decls = ".reg .b32 %x, %z;\n.reg .b16 %y;";
  auto pair = [&](const std::string& inst, float hi, float lo) {
    uint64_t in = (uint64_t{f32Bits(hi)} << 32) | f32Bits(lo);
    return runPerInput(decls, "ld.global.b32 %z, [%pin];\nld.global.b32 %x, [%pin+4];\n" + inst + " %y, %x, %z;\ncvt.u64.u16 %r, %y;", {in})[0];
  };
  // e4m3: 448 is the largest (0x7e); 464 ties to 448; 1e9 and inf saturate; NaN is 0x7f.
  EXPECT_EQ(pair("cvt.rn.satfinite.e4m3x2.f32", 448.0f, 464.0f), 0x7e7eu);
  EXPECT_EQ(pair("cvt.rn.satfinite.e4m3x2.f32", -1e9f, INFINITY), 0xfe7eu);
  EXPECT_EQ(pair("cvt.rn.satfinite.e4m3x2.f32", NAN, 1.0f), 0x7f38u);
  // e4m3 subnormals: 2^-9 is the smallest; 2^-10 ties to 0; 1.5*2^-9 to 2^-8.
  EXPECT_EQ(pair("cvt.rn.satfinite.e4m3x2.f32", 0x1p-9f, 0x1p-10f), 0x0100u);
  EXPECT_EQ(pair("cvt.rn.satfinite.relu.e4m3x2.f32", 0x1.8p-9f, -2.0f), 0x0200u);
  // e5m2: 57344 is the largest (0x7b); infinity saturates.
  EXPECT_EQ(pair("cvt.rn.satfinite.e5m2x2.f32", 57344.0f, -INFINITY), 0x7bfbu);
  EXPECT_EQ(pair("cvt.rn.satfinite.e5m2x2.f32", 1.0f, 1.25f), 0x3c3du);
  // Back to f16x2: the high byte becomes the high half.
  std::string up = ".reg .b16 %x;\n.reg .b32 %y;";
  auto unpack = [&](const std::string& inst, uint16_t v) {
    return runPerInput(up, "cvt.u16.u64 %x, %a;\n" + inst + " %y, %x;\ncvt.u64.u32 %r, %y;", {v})[0];
  };
  EXPECT_EQ(unpack("cvt.rn.f16x2.e4m3x2", 0x7e01), 0x5f001800u);  // 448, 2^-9
  EXPECT_EQ(unpack("cvt.rn.f16x2.e4m3x2", 0xff38), 0x7fff3c00u);  // NaN, 1.0
  EXPECT_EQ(unpack("cvt.rn.f16x2.e5m2x2", 0x7bfc), 0x7b00fc00u);  // 57344, -inf
  EXPECT_EQ(unpack("cvt.rn.relu.f16x2.e5m2x2", 0xbc3c), 0x00003c00u);
  // From f16x2: each half to a byte.
  std::string down = ".reg .b32 %x;\n.reg .b16 %y;";
  EXPECT_EQ(runPerInput(down, "cvt.u32.u64 %x, %a;\ncvt.rn.satfinite.e4m3x2.f16x2 %y, %x;\ncvt.u64.u16 %r, %y;",
                        {0x5f003c00})[0],
            0x7e38u);
}

// cvt.<...> with a .b16 source (the low 16 bits of each input).
std::vector<uint64_t> fromB16(const std::string& inst, const std::vector<uint64_t>& in, const char* dstReg) {
  std::string decls = std::string(".reg .b16 %h;\n.reg .") + dstReg + " %y;";
  std::string body = "cvt.u16.u64 %h, %a;\n" + inst + " %y, %h;\n";
  body += std::string(dstReg) == "b16"   ? "cvt.u64.u16 %r, %y;"
          : std::string(dstReg) == "b32" ? "cvt.u64.u32 %r, %y;"
                                         : "mov.b64 %r, %y;";
  return runPerInput(decls, body, in);
}

// NaNs and plain moves as sm_90's instructions for each form give them
// (H100 conformance records; values derived by hand from the rules).
TEST(Convert, NaNsFollowTheSm90Instructions) {
  // A MOV: every bit kept, a signaling NaN's too.
  EXPECT_EQ(fromF32("cvt.f32.f32", {0x7fa5a5a5, 0xffc00001, 0x00000001}, "b32"),
            (std::vector<uint64_t>{0x7fa5a5a5, 0xffc00001, 0x00000001}));
  EXPECT_EQ(runPerInput(".reg .f64 %y;", "cvt.f64.f64 %y, %a;\nmov.b64 %r, %y;",
                        {0x7ff0000000000001, 0xfff4a5a5a5a5a5a5}),
            (std::vector<uint64_t>{0x7ff0000000000001, 0xfff4a5a5a5a5a5a5}));
  // bf16 to f32 is a shift by 16; with .ftz the canonical NaN.
  EXPECT_EQ(fromB16("cvt.f32.bf16", {0x7f81, 0xffc1}, "b32"),
            (std::vector<uint64_t>{0x7f810000, 0xffc10000}));
  EXPECT_EQ(fromB16("cvt.rz.f32.bf16", {0x7f81, 0xffc1}, "b32"),
            (std::vector<uint64_t>{0x7f810000, 0xffc10000}));
  // F2F widening to f64: sign, quiet bit, payload moved to the top.
  EXPECT_EQ(fromB16("cvt.f64.f16", {0x7d55, 0xfe01, 0x7c01}, "b64"),
            (std::vector<uint64_t>{0x7ffd540000000000, 0xfff8040000000000, 0x7ff8040000000000}));
  EXPECT_EQ(fromB16("cvt.rm.f64.bf16", {0x7fa5, 0xffc1}, "b64"),
            (std::vector<uint64_t>{0x7ffca00000000000, 0xfff8200000000000}));
  // .ftz first multiplies by 1 with FMUL.FTZ: the canonical f32 NaN, widened.
  EXPECT_EQ(fromF32("cvt.ftz.f64.f32", {0x7fa5a5a5, 0xffc00001, 0x3f800000}, "b64"),
            (std::vector<uint64_t>{0x7fffffffe0000000, 0x7fffffffe0000000, 0x3ff0000000000000}));
  EXPECT_EQ(fromF32("cvt.f64.f32", {0x7fa5a5a5}, "b64"), (std::vector<uint64_t>{0x7ffcb4b4a0000000}));
  // F2F narrowing from f64: sign, quiet bit, the payload's top bits.
  std::vector<uint64_t> nans = {0x7ff4a5a5a5a5a5a5, 0xfff8000000000001, 0x7ff0000000000001};
  for (const char* mode : {"rn", "rz", "rm", "rp"}) {
    EXPECT_EQ(f64ToB16(std::string("cvt.") + mode + ".f16.f64", nans),
              (std::vector<uint64_t>{0x7f29, 0xfe00, 0x7e00}));
    EXPECT_EQ(f64ToB16(std::string("cvt.") + mode + ".bf16.f64", nans),
              (std::vector<uint64_t>{0x7fe5, 0xffc0, 0x7fc0}));
  }
  // tf32: F2FP writes the canonical NaN's tf32 bits; .rna is an integer
  // sequence that leaves a NaN unrounded (0x7fc01000 would round to
  // 0x7fc02000) and .satfinite then takes 0x2000 off.
  std::vector<uint64_t> f32Nans = {0xffc00001, 0x7fc01000};
  EXPECT_EQ(fromF32("cvt.rn.tf32.f32", f32Nans, "b32"), (std::vector<uint64_t>{0x7fffe000, 0x7fffe000}));
  EXPECT_EQ(fromF32("cvt.rz.relu.tf32.f32", f32Nans, "b32"), (std::vector<uint64_t>{0x7fffe000, 0x7fffe000}));
  EXPECT_EQ(fromF32("cvt.rna.tf32.f32", f32Nans, "b32"), (std::vector<uint64_t>{0xffc00000, 0x7fc00000}));
  EXPECT_EQ(fromF32("cvt.rna.satfinite.tf32.f32", f32Nans, "b32"),
            (std::vector<uint64_t>{0xffbfe000, 0x7fbfe000}));
}

// F2F.FTZ.BF16.F32 flushes f32 subnormal inputs (F2F.F16.F32 does not).
TEST(Convert, FtzToBf16FlushesSubnormalInputs) {
  std::vector<uint64_t> in = {0x00000001, 0x807fffff, 0x00400000, 0x00800000};
  EXPECT_EQ(fromF32("cvt.rp.ftz.bf16.f32", in), (std::vector<uint64_t>{0x0000, 0x8000, 0x0000, 0x0080}));
  EXPECT_EQ(fromF32("cvt.rm.ftz.bf16.f32", in), (std::vector<uint64_t>{0x0000, 0x8000, 0x0000, 0x0080}));
  EXPECT_EQ(fromF32("cvt.rp.bf16.f32", in), (std::vector<uint64_t>{0x0001, 0x807f, 0x0040, 0x0080}));
}

// ptxas compiles cvt.bf16.f16 and cvt.f16.bf16 without a rounding modifier
// as .rn: 1 + 3.5 * 2^-7 ties to even (1 + 4 * 2^-7), 65536 overflows f16.
TEST(Convert, HalfToHalfWithoutRoundingIsRn) {
  EXPECT_EQ(fromB16("cvt.bf16.f16", {0x3c1c, 0x3c00}, "b16"), (std::vector<uint64_t>{0x3f84, 0x3f80}));
  EXPECT_EQ(fromB16("cvt.rz.bf16.f16", {0x3c1c}, "b16"), (std::vector<uint64_t>{0x3f83}));
  EXPECT_EQ(fromB16("cvt.f16.bf16", {0x4780, 0x3f80}, "b16"), (std::vector<uint64_t>{0x7c00, 0x3c00}));
  EXPECT_EQ(fromB16("cvt.rz.f16.bf16", {0x4780}, "b16"), (std::vector<uint64_t>{0x7bff}));
}

TEST(Convert, UnsupportedFormsAreRejectedWithAReason) {
  // A conversion that needs a rounding modifier is refused at load with ptxas's message.
  EXPECT_NE(test::loadError(".reg .b32 %x; .reg .f32 %f;", "cvt.f32.s32 %f, %x;")
                .find("Rounding modifier required for instruction 'cvt'"),
            std::string::npos);
  EXPECT_NE(test::loadError(".reg .b32 %x; .reg .f32 %f;", "cvt.s32.f32 %x, %f;")
                .find("Rounding modifier required for instruction 'cvt'"),
            std::string::npos);
  std::string e2m1 = test::loadError(".reg .b8 %d; .reg .f32 %f;", "cvt.rn.satfinite.e2m1x2.f32 %d, %f, %f;",
                                     "sm_100a");
  EXPECT_NE(e2m1.find("e2m1x2"), std::string::npos) << e2m1;
}

}  // namespace
}  // namespace ptxsim
