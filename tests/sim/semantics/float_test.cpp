// f32/f64 instructions against host references written independently of
// the simulator: the host FPU with its rounding mode set by fesetround (the
// simulator never uses it), <cmath> in double precision for the
// approximations, and hand-derived edge values.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

using Inputs = std::vector<std::array<uint64_t, 3>>;

// Runs `inst d, a[, b[, c]]` (or `inst p, a` and p as 0/1 when predicate)
// once per input triple and returns d's bits.
std::vector<uint64_t> runOp(const std::string& inst, bool f64, unsigned sources, const Inputs& inputs,
                            bool predicate = false) {
  std::string t = f64 ? "f64" : "f32";
  std::string decl = ".reg .u64 %pa, %pd, %r;\n.reg .pred %p;\n.reg ." + t + " %a, %b, %c, %d;";
  std::string body = "mul.wide.u32 %pa, %tx, 24;\nadd.u64 %pa, %in, %pa;\nadd.u64 %pd, %out, %tx8;\n";
  body +=
      "ld.global." + t + " %a, [%pa];\nld.global." + t + " %b, [%pa+8];\nld.global." + t + " %c, [%pa+16];\n";
  std::string srcs = sources == 1 ? "%a" : sources == 2 ? "%a, %b" : "%a, %b, %c";
  if (predicate) {
    body += inst + " %p, " + srcs + ";\nselp.u64 %r, 1, 0, %p;\nst.global.u64 [%pd], %r;";
  } else {
    body += inst + " %d, " + srcs + ";\nst.global." + t + " [%pd], %d;";
  }
  std::string ptx = test::ptxKernel(decl, body);
  std::vector<uint64_t> results;
  for (size_t first = 0; first < inputs.size(); first += 1024) {
    size_t n = std::min<size_t>(1024, inputs.size() - first);
    std::vector<uint64_t> words;
    for (size_t i = 0; i < n; ++i)
      words.insert(words.end(), inputs[first + i].begin(), inputs[first + i].end());
    test::KernelRun run = test::runKernel(ptx, words, n, static_cast<unsigned>(n));
    EXPECT_FALSE(run.result.error) << inst << ": " << run.result.error.message;
    results.insert(results.end(), run.out.begin(), run.out.end());
  }
  return results;
}

uint64_t bits(float x) { return std::bit_cast<uint32_t>(x); }
uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }
float f32(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
double f64(uint64_t b) { return std::bit_cast<double>(b); }

// The host computing f() with its own rounding mode set: operands are read
// through volatile so that nothing is folded before the mode changes.
template <typename T, typename F>
T hostRounded(int mode, F f) {
  int old = std::fegetround();
  std::fesetround(mode);
  T r = f();
  std::fesetround(old);
  return r;
}

constexpr int kModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
const char* const kModeNames[] = {"rn", "rz", "rm", "rp"};

template <typename T>
T flushed(T x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

// Operands that exercise rounding: specials, subnormals, values close
// enough in magnitude to cancel, and arbitrary bit patterns.
template <typename T>
Inputs randomInputs(unsigned count, unsigned seed) {
  std::mt19937_64 rng(seed);
  using B = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr int kFraction = sizeof(T) == 4 ? 23 : 52;
  constexpr int kExpMax = sizeof(T) == 4 ? 254 : 2046;
  const std::vector<T> specials = {T(0),
                                   -T(0),
                                   T(1),
                                   T(-1),
                                   std::numeric_limits<T>::denorm_min(),
                                   std::numeric_limits<T>::min(),
                                   std::numeric_limits<T>::max(),
                                   -std::numeric_limits<T>::max(),
                                   std::numeric_limits<T>::infinity(),
                                   -std::numeric_limits<T>::infinity(),
                                   T(0.5),
                                   T(3)};
  Inputs in(count);
  for (auto& triple : in) {
    int window = static_cast<int>(rng() % (kExpMax + 1));
    for (auto& word : triple) {
      unsigned kind = rng() % 8;
      B b;
      if (kind == 0) {
        b = std::bit_cast<B>(specials[rng() % specials.size()]);
      } else if (kind == 1) {
        b = static_cast<B>(rng());
      } else if (kind == 2) {
        b = static_cast<B>(rng() & ((B{1} << kFraction) - 1));  // subnormal
      } else {
        int e = std::clamp(window + static_cast<int>(rng() % 61) - 30, 0, kExpMax);
        b = static_cast<B>((B(rng() & 1) << (sizeof(T) * 8 - 1)) | (B(e) << kFraction) |
                           (rng() & ((B{1} << kFraction) - 1)));
        if (kind == 3) b &= ~((B{1} << (kFraction / 2)) - 1);  // short significands: exact and tie cases
      }
      word = static_cast<uint64_t>(b);
    }
  }
  return in;
}

// What the simulator must write for a host result: the GPU's NaN (f32: the
// canonical 0x7fffffff; f64, as the H100 conformance recording shows: the
// first NaN of `byPriority`, quieted, where the caller lists the operands
// in the order the hardware prefers them; 0xfff8000000000000 for an invalid
// operation), otherwise the same bits.
template <typename T>
uint64_t expectedBits(T r, std::vector<T> byPriority) {
  if (!std::isnan(r)) return bits(r);
  if constexpr (sizeof(T) == 4) {
    return 0x7fffffffu;
  } else {
    for (T x : byPriority) {
      if (std::isnan(x)) return bits(x) | (uint64_t{1} << 51);
    }
    return 0xfff8000000000000ull;
  }
}

struct ArithCase {
  const char* op;
  unsigned sources;
};

template <typename T>
T hostOp(const std::string& op, T a, T b, T c) {
  volatile T va = a, vb = b, vc = c;
  if (op == "add") return va + vb;
  if (op == "sub") return va - vb;
  if (op == "mul") return va * vb;
  if (op == "div") return va / vb;
  if (op == "sqrt") return std::sqrt(static_cast<T>(va));
  if (op == "rcp") return T(1) / va;
  return std::fma(static_cast<T>(va), static_cast<T>(vb), static_cast<T>(vc));
}

// Every rounding mode of one operation against the host FPU in that mode.
template <typename T>
void checkRounded(const std::string& op, unsigned sources, const std::string& suffix, bool ftz, bool sat,
                  unsigned seed) {
  Inputs in = randomInputs<T>(2048, seed);
  for (int m = 0; m < 4; ++m) {
    std::string inst = op + "." + kModeNames[m] + suffix + (sizeof(T) == 4 ? ".f32" : ".f64");
    std::vector<uint64_t> got = runOp(inst, sizeof(T) == 8, sources, in);
    unsigned failures = 0;
    for (size_t i = 0; i < in.size() && failures < 5; ++i) {
      T a = sizeof(T) == 4 ? T(f32(in[i][0])) : T(f64(in[i][0]));
      T b = sizeof(T) == 4 ? T(f32(in[i][1])) : T(f64(in[i][1]));
      T c = sizeof(T) == 4 ? T(f32(in[i][2])) : T(f64(in[i][2]));
      if (ftz) a = flushed(a), b = flushed(b), c = flushed(c);
      T r = hostRounded<T>(kModes[m], [&] { return hostOp<T>(op, a, b, c); });
      // .ftz: a result whose exact value is below the smallest normal is
      // flushed, even when it rounds up to it.
      T towardZero = hostRounded<T>(FE_TOWARDZERO, [&] { return hostOp<T>(op, a, b, c); });
      if (ftz && std::fabs(r) == std::numeric_limits<T>::min() &&
          std::fpclassify(towardZero) == FP_SUBNORMAL) {
        r = std::copysign(T(0), r);
      }
      if (ftz) r = flushed(r);
      if (sat) r = std::isnan(r) || r <= 0 ? T(0) : r > 1 ? T(1) : r;
      // div prefers a's NaN, the others b's (fma then c's, then a's); sub
      // keeps the sign of a NaN b.
      std::vector<T> used = op == "div" ? std::vector<T>{a, b} : sources == 3 ? std::vector<T>{b, c, a} : std::vector<T>{b, a};
      if (op == "rcp" || op == "sqrt") used = {a};
      uint64_t want = expectedBits<T>(r, used);
      if (got[i] != want) {
        ++failures;
        ADD_FAILURE() << inst << " of 0x" << std::hex << in[i][0] << ", 0x" << in[i][1] << ", 0x" << in[i][2]
                      << ": simulator 0x" << got[i] << ", host 0x" << want;
      }
    }
  }
}

TEST(FloatArith, F32AddSubMulFmaEveryRoundingMode) {
  checkRounded<float>("add", 2, "", false, false, 1);
  checkRounded<float>("sub", 2, "", false, false, 2);
  checkRounded<float>("mul", 2, "", false, false, 3);
  checkRounded<float>("fma", 3, "", false, false, 4);
  checkRounded<float>("mad", 3, "", false, false, 5);
}

TEST(FloatArith, F32FtzAndSat) {
  checkRounded<float>("add", 2, ".ftz", true, false, 6);
  checkRounded<float>("mul", 2, ".ftz", true, false, 7);
  checkRounded<float>("fma", 3, ".ftz", true, false, 8);
  checkRounded<float>("add", 2, ".sat", false, true, 9);
  checkRounded<float>("mul", 2, ".ftz.sat", true, true, 10);
  checkRounded<float>("fma", 3, ".sat", false, true, 11);
}

TEST(FloatArith, F64AddSubMulFmaEveryRoundingMode) {
  checkRounded<double>("add", 2, "", false, false, 12);
  checkRounded<double>("sub", 2, "", false, false, 13);
  checkRounded<double>("mul", 2, "", false, false, 14);
  checkRounded<double>("fma", 3, "", false, false, 15);
}

TEST(FloatArith, DivRcpSqrtEveryRoundingMode) {
  checkRounded<float>("div", 2, "", false, false, 16);
  checkRounded<float>("div", 2, ".ftz", true, false, 17);
  checkRounded<float>("rcp", 1, "", false, false, 18);
  checkRounded<float>("sqrt", 1, "", false, false, 19);
  checkRounded<float>("sqrt", 1, ".ftz", true, false, 20);
  checkRounded<double>("div", 2, "", false, false, 21);
  checkRounded<double>("rcp", 1, "", false, false, 22);
  checkRounded<double>("sqrt", 1, "", false, false, 23);
}

// Hand-derived edge values, so the host FPU is not the only witness.
TEST(FloatArith, HandDerivedEdges) {
  // 1 + 2^-24 is a tie: even (1) to nearest, up to 1+2^-23 with .rp.
  Inputs in = {{bits(1.0f), bits(0x1p-24f), 0}};
  EXPECT_EQ(runOp("add.rn.f32", false, 2, in)[0], 0x3f800000u);
  EXPECT_EQ(runOp("add.rp.f32", false, 2, in)[0], 0x3f800001u);
  // x + (-x) is +0, or -0 rounding down.
  in = {{bits(1.0f), bits(-1.0f), 0}};
  EXPECT_EQ(runOp("add.rn.f32", false, 2, in)[0], 0u);
  EXPECT_EQ(runOp("add.rm.f32", false, 2, in)[0], 0x80000000u);
  // Overflow: max + max is inf to nearest, max toward zero.
  in = {{bits(std::numeric_limits<float>::max()), bits(std::numeric_limits<float>::max()), 0}};
  EXPECT_EQ(runOp("add.rn.f32", false, 2, in)[0], 0x7f800000u);
  EXPECT_EQ(runOp("add.rz.f32", false, 2, in)[0], 0x7f7fffffu);
  // (1 - 2^-24) * 2^-126 lies halfway between the largest subnormal and the
  // smallest normal: to nearest (even) it is the smallest normal, which
  // .ftz keeps; toward zero it is subnormal, which .ftz flushes.
  in = {{0x3f7fffffu, 0x00800000u, 0}};
  EXPECT_EQ(runOp("mul.rn.f32", false, 2, in)[0], 0x00800000u);
  EXPECT_EQ(runOp("mul.rz.f32", false, 2, in)[0], 0x007fffffu);
  EXPECT_EQ(runOp("mul.rz.ftz.f32", false, 2, in)[0], 0u);
  // .ftz decides on the exact value (below 2^-126: flushed), as an H100 does.
  EXPECT_EQ(runOp("mul.rn.ftz.f32", false, 2, in)[0], 0u);
  // .sat: NaN and negative results become +0, above 1 becomes 1.
  in = {{0xff800000u, 0x7f800000u, 0}, {bits(-0.5f), bits(0.25f), 0}, {bits(0.75f), bits(0.5f), 0}};
  std::vector<uint64_t> sat = runOp("add.sat.f32", false, 2, in);
  EXPECT_EQ(sat, (std::vector<uint64_t>{0u, 0u, 0x3f800000u}));
  // f64: 1 + 2^-53 ties to 1; 1 - 2^-54 rounds up to 1 only with .rp.
  Inputs d = {{bits(1.0), bits(0x1p-53), 0}, {bits(1.0), bits(-0x1p-54), 0}};
  EXPECT_EQ(runOp("add.rn.f64", true, 2, d), (std::vector<uint64_t>{bits(1.0), bits(1.0)}));
  EXPECT_EQ(runOp("add.rz.f64", true, 2, d), (std::vector<uint64_t>{bits(1.0), 0x3fefffffffffffffull}));
  // fma keeps the whole product: (1+2^-52)^2 - (1+2^-51) = 2^-104.
  d = {{0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000002ull}};
  EXPECT_EQ(runOp("fma.rn.f64", true, 3, d)[0], bits(0x1p-104));
  // Default rounding of add/mul is .rn.
  in = {{bits(1.0f), bits(0x1p-24f), 0}};
  EXPECT_EQ(runOp("add.f32", false, 2, in)[0], 0x3f800000u);
}

TEST(FloatArith, NaNBits) {
  const uint64_t q1 = 0x7ff8000000000001ull, q2 = 0xfff8000000000002ull, s3 = 0x7ff0000000000003ull;
  Inputs d = {
      {q1, bits(1.0), 0}, {bits(1.0), q2, 0}, {s3, q1, 0}, {0x7ff0000000000000ull, 0xfff0000000000000ull, 0}};
  // A NaN operand, quieted; of a signaling a and a quiet b, b.
  EXPECT_EQ(runOp("add.rn.f64", true, 2, d), (std::vector<uint64_t>{q1, q2, q1, 0xfff8000000000000ull}));
  EXPECT_EQ(runOp("add.rz.f64", true, 2, d), (std::vector<uint64_t>{q1, q2, q1, 0xfff8000000000000ull}));
  Inputs f = {{0x7fc00001u, bits(1.0f), 0}, {bits(1.0f), 0xffc00002u, 0}, {0x7f800000u, 0xff800000u, 0}};
  EXPECT_EQ(runOp("add.rn.f32", false, 2, f), (std::vector<uint64_t>(3, 0x7fffffffu)));
  EXPECT_EQ(runOp("mul.rp.f32", false, 2, f), (std::vector<uint64_t>{0x7fffffffu, 0x7fffffffu, 0xff800000u}));
  // Two NaNs (H100 conformance records): add, sub, mul, min, max and fma
  // return the second source's, div the first's, whatever the payloads and
  // signs; sub keeps a NaN b's sign.
  d = {{q1, q2, 0}, {q2, q1, 0}};
  EXPECT_EQ(runOp("add.rn.f64", true, 2, d), (std::vector<uint64_t>{q2, q1}));
  EXPECT_EQ(runOp("sub.rn.f64", true, 2, d), (std::vector<uint64_t>{q2, q1}));
  EXPECT_EQ(runOp("sub.rm.f64", true, 2, d), (std::vector<uint64_t>{q2, q1}));
  EXPECT_EQ(runOp("div.rn.f64", true, 2, d), (std::vector<uint64_t>{q1, q2}));
  EXPECT_EQ(runOp("div.rp.f64", true, 2, d), (std::vector<uint64_t>{q1, q2}));
  const uint64_t q5 = 0x7ff8000000000005ull;
  d = {{q5, q2, 0}, {q2, q5, 0}, {s3, q1, 0}};
  EXPECT_EQ(runOp("mul.rn.f64", true, 2, d), (std::vector<uint64_t>{q2, q5, q1}));
  EXPECT_EQ(runOp("mul.rz.f64", true, 2, d), (std::vector<uint64_t>{q2, q5, q1}));
  EXPECT_EQ(runOp("max.f64", true, 2, d), (std::vector<uint64_t>{q2, q5, q1}));
  EXPECT_EQ(runOp("min.f64", true, 2, d), (std::vector<uint64_t>{q2, q5, q1}));
  // sub of a number and a NaN: the NaN, sign kept.
  d = {{bits(1.0), q1, 0}, {bits(1.0), q2, 0}};
  EXPECT_EQ(runOp("sub.f64", true, 2, d), (std::vector<uint64_t>{q1, q2}));
  EXPECT_EQ(runOp("sub.rp.f64", true, 2, d), (std::vector<uint64_t>{q1, q2}));
  // fma: b's NaN first (fma.rm.f64 of 0x7ff4a5a5a5a5a5a5 and
  // 0xfff8000000000001 gives the latter), then c's before a's (the H100:
  // fma.rn.f64 of q1, 1, q2 gives q2).
  d = {{0x7ff4a5a5a5a5a5a5ull, q2, bits(1.0)}, {bits(1.0), q1, q2}, {q1, bits(1.0), q2}};
  EXPECT_EQ(runOp("fma.rm.f64", true, 3, d), (std::vector<uint64_t>{q2, q1, q2}));
  EXPECT_EQ(runOp("fma.rn.f64", true, 3, d), (std::vector<uint64_t>{q2, q1, q2}));
}

TEST(FloatArith, FormsWithoutRequiredModifiersAreRejected) {
  // The front end refuses them with ptxas's message.
  const std::pair<const char*, const char*> forms[] = {
      {"fma.f32", "Rounding modifier required for instruction 'fma'"},
      {"mad.f32", "Rounding modifier required for instruction 'mad'"},
      {"fma.f64", "Rounding modifier required for instruction 'fma'"},
      {"div.f32", "Rounding modifier or '.approx' modifier required for instruction 'div'"},
      {"div.f64", "Rounding modifier required for instruction 'div'"}};
  for (const auto& [inst, ptxas] : forms) {
    std::string t = std::string(inst).ends_with("f64") ? "f64" : "f32";
    std::string sources = std::string(inst).starts_with("div") ? "%a, %b" : "%a, %b, %c";
    std::string error =
        test::loadError(".reg ." + t + " %a, %b, %c, %d;", std::string(inst) + " %d, " + sources + ";");
    EXPECT_NE(error.find(ptxas), std::string::npos) << inst << ": " << error;
  }
}

// Modifiers ptxas for sm_90 accepts and ignores (each form compiles to the
// SASS of the form without it): .acc::f16/.acc::f32 beside a rounding
// modifier on div, rcp and sqrt, and .ftz on rcp.rnd.f64.
TEST(FloatArith, IgnoredModifiersOfDivRcpSqrt) {
  Inputs third = {{bits(1.0f), bits(3.0f), 0}};
  EXPECT_EQ(runOp("div.acc::f16.rn.f32", false, 2, third)[0], 0x3eaaaaabu);
  EXPECT_EQ(runOp("div.acc::f32.rz.ftz.f32", false, 2, third)[0], 0x3eaaaaaau);
  EXPECT_EQ(runOp("rcp.acc::f32.rp.f32", false, 1, {{bits(3.0f), 0, 0}})[0], 0x3eaaaaabu);
  EXPECT_EQ(runOp("rcp.acc::f16.rz.f64", true, 1, {{bits(3.0), 0, 0}})[0], 0x3fd5555555555555ull);
  // sqrt(2) = 1.41421356237309504..., below its nearest double ...3bcd.
  EXPECT_EQ(runOp("sqrt.acc::f32.rm.f64", true, 1, {{bits(2.0), 0, 0}})[0], 0x3ff6a09e667f3bccull);
  EXPECT_EQ(runOp("sqrt.acc::f16.rn.f32", false, 1, {{bits(4.0f), 0, 0}})[0], bits(2.0f));
  // 1/2^1023 is the subnormal 2^-1023; 1/2^-1074 overflows (a flushed
  // operand would give infinity instead).
  Inputs edges = {{0x7fe0000000000000ull, 0, 0}, {0x1, 0, 0}, {bits(3.0), 0, 0}};
  EXPECT_EQ(runOp("rcp.rn.ftz.f64", true, 1, edges),
            (std::vector<uint64_t>{0x0008000000000000ull, 0x7ff0000000000000ull, 0x3fd5555555555555ull}));
  EXPECT_EQ(runOp("rcp.rz.ftz.f64", true, 1, edges),
            (std::vector<uint64_t>{0x0008000000000000ull, 0x7fefffffffffffffull, 0x3fd5555555555555ull}));
  EXPECT_EQ(runOp("rcp.rp.ftz.f64", true, 1, edges)[2], 0x3fd5555555555556ull);
}

// Approximations: the ISA's documented bounds against double-precision
// references, on many inputs.
double ulpOf(float x) {
  int e;
  std::frexp(std::fabs(x), &e);
  return std::ldexp(1.0, std::max(e, -125) - 24);
}

Inputs floatRange(float lo, float hi, unsigned count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  Inputs in(count);
  for (auto& t : in) t = {bits(dist(rng)), 0, 0};
  return in;
}

template <typename Ref>
void checkBound(const std::string& inst, const Inputs& in, Ref ref, double bound, bool relative,
                bool inUlps) {
  std::vector<uint64_t> got = runOp(inst, false, 1, in);
  for (size_t i = 0; i < in.size(); ++i) {
    double x = f32(in[i][0]);
    double want = ref(x);
    double g = f32(got[i]);
    double err = std::fabs(g - want);
    if (inUlps) err /= ulpOf(static_cast<float>(want));
    if (relative) err /= std::fabs(want);
    EXPECT_LE(err, bound) << inst << " of " << x << " (0x" << std::hex << in[i][0] << "): " << g;
  }
}

TEST(FloatApprox, WithinDocumentedBounds) {
  auto rcp = [](double x) { return 1.0 / x; };
  checkBound("rcp.approx.f32", floatRange(-1e30f, 1e30f, 2048, 1), rcp, 1.0, false, true);
  checkBound("rcp.approx.ftz.f32", floatRange(1e-30f, 1e30f, 2048, 2), rcp, 1.0, false, true);
  auto sq = [](double x) { return std::sqrt(x); };
  checkBound("sqrt.approx.f32", floatRange(0, 1e30f, 2048, 3), sq, std::ldexp(1.0, -23), true, false);
  auto rsq = [](double x) { return 1.0 / std::sqrt(x); };
  checkBound("rsqrt.approx.f32", floatRange(1e-30f, 1e30f, 2048, 4), rsq, std::ldexp(1.0, -22.9), true,
             false);
  auto ex2 = [](double x) { return std::exp2(x); };
  checkBound("ex2.approx.ftz.f32", floatRange(-100, 100, 2048, 5), ex2, 2.0, false, true);
  auto lg2 = [](double x) { return std::log2(x); };
  checkBound("lg2.approx.f32", floatRange(0.5f, 2, 2048, 6), lg2, std::ldexp(1.0, -22.0), false, false);
  auto sin = [](double x) { return std::sin(x); };
  auto cos = [](double x) { return std::cos(x); };
  checkBound("sin.approx.f32", floatRange(-3.14159f, 3.14159f, 2048, 7), sin, std::ldexp(1.0, -20.9), false,
             false);
  checkBound("cos.approx.ftz.f32", floatRange(-3.14159f, 3.14159f, 2048, 8), cos, std::ldexp(1.0, -20.9),
             false, false);
  auto th = [](double x) { return std::tanh(x); };
  checkBound("tanh.approx.f32", floatRange(-10, 10, 2048, 9), th, std::ldexp(1.0, -10.987), true, false);
}

TEST(FloatApprox, DivApproxAndFull) {
  Inputs in = randomInputs<float>(2048, 30);
  for (const char* inst : {"div.approx.f32", "div.full.f32"}) {
    std::vector<uint64_t> got = runOp(inst, false, 2, in);
    for (size_t i = 0; i < in.size(); ++i) {
      double a = f32(in[i][0]), b = f32(in[i][1]);
      double q = a / b;
      if (!std::isfinite(q) || std::fabs(q) < 0x1p-126 || std::fabs(q) > 0x1p127 || std::fabs(b) < 0x1p-126 ||
          std::fabs(b) > 0x1p126)
        continue;
      EXPECT_LE(std::fabs(f32(got[i]) - q) / ulpOf(static_cast<float>(q)), 2.0)
          << inst << " " << a << "/" << b;
    }
  }
  // 2^126 < |b|: zero, or NaN for an infinite a (div.approx only).
  Inputs big = {{bits(1.0f), bits(0x1p127f), 0}, {0x7f800000u, bits(0x1p127f), 0}};
  EXPECT_EQ(runOp("div.approx.f32", false, 2, big), (std::vector<uint64_t>{0u, 0x7fffffffu}));
  EXPECT_EQ(runOp("div.full.f32", false, 2, big), (std::vector<uint64_t>{bits(0x1p-127f), 0x7f800000u}));
}

TEST(FloatApprox, SpecialValues) {
  Inputs in = {{0u, 0, 0},          {0x80000000u, 0, 0}, {0x7f800000u, 0, 0},
               {0xff800000u, 0, 0}, {0x7fc00000u, 0, 0}, {0x00000001u, 0, 0}};
  using V = std::vector<uint64_t>;
  EXPECT_EQ(runOp("rcp.approx.ftz.f32", false, 1, in),
            (V{0x7f800000u, 0xff800000u, 0u, 0x80000000u, 0x7fffffffu, 0x7f800000u}));
  EXPECT_EQ(runOp("sqrt.approx.f32", false, 1, in),
            (V{0u, 0x80000000u, 0x7f800000u, 0x7fffffffu, 0x7fffffffu, bits(std::sqrt(0x1p-149f))}));
  EXPECT_EQ(runOp("rsqrt.approx.ftz.f32", false, 1, in),
            (V{0x7f800000u, 0xff800000u, 0u, 0x7fffffffu, 0x7fffffffu, 0x7f800000u}));
  EXPECT_EQ(runOp("ex2.approx.ftz.f32", false, 1, in),
            (V{0x3f800000u, 0x3f800000u, 0x7f800000u, 0u, 0x7fffffffu, 0x3f800000u}));
  EXPECT_EQ(runOp("lg2.approx.f32", false, 1, in),
            (V{0xff800000u, 0xff800000u, 0x7f800000u, 0x7fffffffu, 0x7fffffffu, bits(-149.0f)}));
  EXPECT_EQ(runOp("lg2.approx.ftz.f32", false, 1, in)[5], 0xff800000u);
  EXPECT_EQ(runOp("sin.approx.ftz.f32", false, 1, in),
            (V{0u, 0x80000000u, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0u}));
  EXPECT_EQ(runOp("cos.approx.ftz.f32", false, 1, in)[0], 0x3f800000u);
  EXPECT_EQ(runOp("tanh.approx.f32", false, 1, in)[2], 0x3f800000u);
  EXPECT_EQ(runOp("tanh.approx.f32", false, 1, in)[3], 0xbf800000u);
  // Exact cases: 2^n, log2 of a power of two.
  Inputs exact = {{bits(3.0f), 0, 0}, {bits(-2.0f), 0, 0}};
  EXPECT_EQ(runOp("ex2.approx.f32", false, 1, exact), (V{bits(8.0f), bits(0.25f)}));
  // lg2 of 8 is 3, but of 0.25 not -2: below 1 the unit's other table
  // gives lg2(0.5) = -0.99999988, so -1.99999988 (0xbfffffff), as the H100
  // does for every input (tests/gpu_truth/probes/mufu_tables_probe.cu).
  exact = {{bits(8.0f), 0, 0}, {bits(0.25f), 0, 0}};
  EXPECT_EQ(runOp("lg2.approx.f32", false, 1, exact), (V{bits(3.0f), 0xbfffffffu}));
  // MUFU.LG2 truncates: log2 of 0x00cabb63 is -125.33657011..., between
  // 0xc2faac52 and 0xc2faac53 and nearer the latter; the H100 writes the
  // former (float_sweep.cu case 644). A subnormal is scaled by 2^24 first:
  // 0x004498ac gives 0xc2fdccc4, its log2 rounded to nearest is 0xc2fdccc5.
  Inputs truncated = {{0x00cabb63u, 0, 0}, {0x004498acu, 0, 0}};
  EXPECT_EQ(runOp("lg2.approx.f32", false, 1, truncated), (V{0xc2faac52u, 0xc2fdccc4u}));
}

TEST(FloatApprox, F64Approximations) {
  Inputs in = randomInputs<double>(1024, 40);
  std::vector<uint64_t> rcp = runOp("rcp.approx.ftz.f64", true, 1, in);
  std::vector<uint64_t> rsq = runOp("rsqrt.approx.f64", true, 1, in);
  for (size_t i = 0; i < in.size(); ++i) {
    double a = f64(in[i][0]);
    if (!std::isfinite(a) || std::fabs(a) < 0x1p-1020 || std::fabs(a) > 0x1p1020) continue;
    EXPECT_EQ(rcp[i] & 0xffffffffull, 0u);
    // The input's lower 32 bits are ignored: up to 2^-20 from that, 2^-21 from rounding.
    EXPECT_LE(std::fabs(f64(rcp[i]) * a - 1), 0x1p-19) << a;
    if (a > 0) EXPECT_LE(std::fabs(f64(rsq[i]) * std::sqrt(a) - 1), std::ldexp(1.0, -22.9)) << a;
  }
  Inputs sp = {{0, 0, 0},
               {0x8000000000000000ull, 0, 0},
               {0x7ff0000000000000ull, 0, 0},
               {0x7ff8000000000000ull, 0, 0},
               {1, 0, 0},
               {bits(2.0), 0, 0}};
  EXPECT_EQ(runOp("rcp.approx.ftz.f64", true, 1, sp),
            (std::vector<uint64_t>{0x7ff0000000000000ull, 0xfff0000000000000ull, 0, 0x7fffffff00000000ull,
                                   0x7ff0000000000000ull, bits(0.5)}));
}

// min/max, abs, neg, copysign, testp against a reference spelled out here.
float refMinMax(bool isMax, float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return std::bit_cast<float>(0x7fffffffu);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return (std::signbit(a) == isMax) ? b : a;
  return isMax ? std::fmax(a, b) : std::fmin(a, b);
}

TEST(FloatMisc, MinMaxVariants) {
  Inputs in = randomInputs<float>(1024, 50);
  for (auto& t : in) {
    if (t[0] % 7 == 0) t[0] = 0x7fc00000u;
    if (t[1] % 11 == 0) t[1] = 0xffc00001u;
  }
  in.push_back({0u, 0x80000000u, 0});
  in.push_back({0x80000000u, 0u, 0});
  for (bool isMax : {false, true}) {
    std::string op = isMax ? "max" : "min";
    std::vector<uint64_t> plain = runOp(op + ".f32", false, 2, in);
    std::vector<uint64_t> ftz = runOp(op + ".ftz.f32", false, 2, in);
    std::vector<uint64_t> nan = runOp(op + ".NaN.f32", false, 2, in);
    std::vector<uint64_t> xs = runOp(op + ".xorsign.abs.f32", false, 2, in);
    for (size_t i = 0; i < in.size(); ++i) {
      float a = f32(in[i][0]), b = f32(in[i][1]);
      EXPECT_EQ(plain[i], bits(refMinMax(isMax, a, b))) << op << " " << a << " " << b;
      EXPECT_EQ(ftz[i], bits(refMinMax(isMax, flushed(a), flushed(b))));
      uint64_t wantNaN = std::isnan(a) || std::isnan(b) ? 0x7fffffffu : bits(refMinMax(isMax, a, b));
      EXPECT_EQ(nan[i], wantNaN);
      float m = refMinMax(isMax, std::fabs(a), std::fabs(b));
      uint64_t wantXs = std::isnan(m) ? 0x7fffffffu : bits(std::signbit(a) != std::signbit(b) ? -m : m);
      EXPECT_EQ(xs[i], wantXs) << op << ".xorsign.abs " << a << " " << b;
    }
  }
  Inputs d = {{bits(0.0), bits(-0.0), 0}, {0x7ff8000000000001ull, bits(2.0), 0}, {bits(-1.0), bits(3.0), 0}};
  EXPECT_EQ(runOp("min.f64", true, 2, d), (std::vector<uint64_t>{bits(-0.0), bits(2.0), bits(-1.0)}));
  EXPECT_EQ(runOp("max.f64", true, 2, d), (std::vector<uint64_t>{bits(0.0), bits(2.0), bits(3.0)}));
}

TEST(FloatMisc, SignOperations) {
  Inputs in = {{0x80000001u, 0x3f800000u, 0}, {0xffc00000u, 0x7fc00001u, 0}, {0x00000001u, 0xbf800000u, 0}};
  using V = std::vector<uint64_t>;
  // A NaN gives what f32 arithmetic gives, the canonical NaN; f64 keeps the
  // NaN's sign and payload and sets its quiet bit (float_absneg.cu, H100).
  EXPECT_EQ(runOp("abs.f32", false, 1, in), (V{0x00000001u, 0x7fffffffu, 0x00000001u}));
  EXPECT_EQ(runOp("abs.ftz.f32", false, 1, in), (V{0u, 0x7fffffffu, 0u}));
  EXPECT_EQ(runOp("neg.f32", false, 1, in), (V{0x00000001u, 0x7fffffffu, 0x80000001u}));
  EXPECT_EQ(runOp("neg.ftz.f32", false, 1, in), (V{0u, 0x7fffffffu, 0x80000000u}));
  EXPECT_EQ(runOp("copysign.f32", false, 2, in), (V{0xbf800000u, 0xffc00001u, 0x3f800000u}));
  Inputs d = {{0x8000000000000001ull, bits(1.0), 0},
              {0x7ff8000000000001ull, bits(-2.0), 0},
              {0xfff0000000000003ull, 0, 0}};
  EXPECT_EQ(runOp("abs.f64", true, 1, d), (V{1u, 0x7ff8000000000001ull, 0xfff8000000000003ull}));
  EXPECT_EQ(runOp("neg.f64", true, 1, d), (V{1u, 0x7ff8000000000001ull, 0xfff8000000000003ull}));
  EXPECT_EQ(runOp("copysign.f64", true, 2, d), (V{bits(-1.0), bits(2.0), 0x8000000000000000ull}));
}

TEST(FloatMisc, Testp) {
  Inputs in = {
      {0u, 0, 0}, {0x80000001u, 0, 0}, {0x3f800000u, 0, 0}, {0xff800000u, 0, 0}, {0x7fc00000u, 0, 0}};
  using V = std::vector<uint64_t>;
  EXPECT_EQ(runOp("testp.finite.f32", false, 1, in, true), (V{1, 1, 1, 0, 0}));
  EXPECT_EQ(runOp("testp.infinite.f32", false, 1, in, true), (V{0, 0, 0, 1, 0}));
  EXPECT_EQ(runOp("testp.number.f32", false, 1, in, true), (V{1, 1, 1, 1, 0}));
  EXPECT_EQ(runOp("testp.notanumber.f32", false, 1, in, true), (V{0, 0, 0, 0, 1}));
  // Zero is normal for testp on the GPU (float_misc.cu, recorded on an H100).
  EXPECT_EQ(runOp("testp.normal.f32", false, 1, in, true), (V{1, 0, 1, 0, 0}));
  EXPECT_EQ(runOp("testp.subnormal.f32", false, 1, in, true), (V{0, 1, 0, 0, 0}));
  Inputs d = {
      {0, 0, 0}, {1, 0, 0}, {bits(1.0), 0, 0}, {0x7ff0000000000000ull, 0, 0}, {0x7ff8000000000000ull, 0, 0}};
  EXPECT_EQ(runOp("testp.subnormal.f64", true, 1, d, true), (V{0, 1, 0, 0, 0}));
  EXPECT_EQ(runOp("testp.normal.f64", true, 1, d, true), (V{1, 0, 1, 0, 0}));
  EXPECT_EQ(runOp("testp.finite.f64", true, 1, d, true), (V{1, 1, 1, 0, 0}));
}

}  // namespace
}  // namespace ptxsim
