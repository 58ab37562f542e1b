// atom and red: every operation and type against host references, on
// global, shared and generic addresses; lane order within a warp;
// integer atomics from many CTAs on several host threads; faults and the
// forms that do not exist.

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

enum class Space { Global, Shared, GenericGlobal, GenericShared };

const char* spaceName(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::GenericGlobal: return "generic-global";
    case Space::GenericShared: return "generic-shared";
  }
  return "?";
}

struct Case {
  uint64_t init;  // the memory element before
  uint64_t b;
  uint64_t c = 0;  // cas only
};

struct Result {
  uint64_t old;
  uint64_t now;
};

// Runs `op` (e.g. "add.u32") as atom on one element per lane, lane l taking
// cases[l]; returns each lane's old value and the element afterwards.
// bits: the element width (16, 32, 64).
std::vector<Result> runAtom(Space space, const std::string& op, unsigned bits, const std::vector<Case>& cases,
                            bool cas = false) {
  std::string t = "b" + std::to_string(bits);
  std::string u = "u" + std::to_string(bits);
  std::string decl = ".reg .u64 %pin, %pout, %cell, %off;\n.reg ." + t + " %init, %b, %c, %old, %now;\n" +
                     ".shared .align 8 .b8 sh[256];\n";
  std::string body = "mul.wide.u32 %off, %tx, 24;\nadd.u64 %pin, %in, %off;\n"
                     "mul.wide.u32 %off, %tx, 16;\nadd.u64 %pout, %out, %off;\n"
                     "ld.global." + u + " %init, [%pin];\nld.global." + u + " %b, [%pin+8];\n" +
                     "ld.global." + u + " %c, [%pin+16];\n";
  std::string atomSpace;
  switch (space) {
    case Space::Global:
    case Space::GenericGlobal:
      body += "add.u64 %cell, %pout, 8;\n";
      atomSpace = space == Space::Global ? ".global" : "";
      body += "st.global." + u + " [%cell], %init;\n";
      break;
    case Space::Shared:
    case Space::GenericShared:
      body += "mov.u64 %cell, sh;\nadd.u64 %cell, %cell, %tx8;\n";
      body += "st.shared." + u + " [%cell], %init;\n";
      if (space == Space::GenericShared) body += "cvta.shared.u64 %cell, %cell;\n";
      atomSpace = space == Space::Shared ? ".shared" : "";
      break;
  }
  body += "atom" + atomSpace + "." + op + " %old, [%cell], %b" + (cas ? ", %c" : "") + ";\n";
  body += "st.global." + u + " [%pout], %old;\n";
  if (space == Space::Shared || space == Space::GenericShared) {
    body += std::string("ld") + (space == Space::Shared ? ".shared." : ".") + u + " %now, [%cell];\n";
    body += "st.global." + u + " [%pout+8], %now;\n";
  }
  std::vector<uint64_t> in;
  for (const Case& c : cases) in.insert(in.end(), {c.init, c.b, c.c});
  test::KernelRun run = test::runKernel(test::ptxKernel(decl, body), in, 2 * cases.size(),
                                        static_cast<unsigned>(cases.size()));
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  std::vector<Result> results;
  for (size_t l = 0; l < cases.size(); ++l) results.push_back({run.out[2 * l], run.out[2 * l + 1]});
  return results;
}

constexpr Space kSpaces[] = {Space::Global, Space::Shared, Space::GenericGlobal, Space::GenericShared};

uint64_t mask(unsigned bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Checks `op` on every space against `reference(old, b, c, global)`.
void checkOp(const std::string& op, unsigned bits, const std::vector<Case>& cases,
             const std::function<uint64_t(uint64_t, uint64_t, uint64_t, bool)>& reference, bool cas = false) {
  for (Space space : kSpaces) {
    std::vector<Result> results = runAtom(space, op, bits, cases, cas);
    bool global = space == Space::Global || space == Space::GenericGlobal;
    for (size_t l = 0; l < cases.size(); ++l) {
      const Case& c = cases[l];
      uint64_t init = c.init & mask(bits);
      EXPECT_EQ(results[l].old, init) << op << " " << spaceName(space) << " lane " << l;
      EXPECT_EQ(results[l].now, reference(init, c.b & mask(bits), c.c & mask(bits), global) & mask(bits))
          << op << " " << spaceName(space) << " lane " << l << std::hex << " init 0x" << c.init << " b 0x" << c.b;
    }
  }
}

// --- Integer and bitwise operations ---------------------------------------

std::vector<Case> intCases() {
  return {{0, 0},
          {5, 3},
          {0xffffffffu, 1},
          {0x80000000u, 0x7fffffffu},
          {0x7fffffffu, 0x80000000u},
          {7, 7},
          {0xfffffffeu, 0xffffffffu},
          {12345, 0x00010000u},
          {0xffffffffffffffffull, 2},
          {0x8000000000000000ull, 0x7fffffffffffffffull},
          {3, 0xfffffffffffffffdull},
          {0x123456789abcdef0ull, 0x0fedcba987654321ull}};
}

TEST(Atomic, AddIntegers) {
  auto add = [](uint64_t a, uint64_t b, uint64_t, bool) { return a + b; };
  checkOp("add.u32", 32, intCases(), add);
  checkOp("add.s32", 32, intCases(), add);
  checkOp("add.u64", 64, intCases(), add);
}

TEST(Atomic, MinMaxSignedAndUnsigned) {
  checkOp("min.u32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return std::min(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  });
  checkOp("max.u32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return std::max(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  });
  checkOp("min.s32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return static_cast<uint64_t>(std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
  });
  checkOp("max.s32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return static_cast<uint64_t>(std::max(static_cast<int32_t>(a), static_cast<int32_t>(b)));
  });
  checkOp("min.u64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return std::min(a, b); });
  checkOp("max.u64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return std::max(a, b); });
  checkOp("min.s64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return static_cast<uint64_t>(std::min(static_cast<int64_t>(a), static_cast<int64_t>(b)));
  });
  checkOp("max.s64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return static_cast<uint64_t>(std::max(static_cast<int64_t>(a), static_cast<int64_t>(b)));
  });
}

TEST(Atomic, IncDecWrapWithinTheBound) {
  // Hand-derived: the ISA's inc(r, s) = r >= s ? 0 : r+1 and
  // dec(r, s) = (r == 0 || r > s) ? s : r-1, at and around the bound.
  std::vector<Case> cases = {{0, 0},  {5, 5},  {6, 5},          {4, 5},          {0xffffffffu, 0xffffffffu},
                             {0, 5},  {7, 0},  {0xfffffffeu, 0xffffffffu}, {1, 1}, {2, 1}};
  std::vector<uint64_t> incExpected = {0, 0, 0, 5, 0, 1, 0, 0xffffffffu, 0, 0};
  std::vector<uint64_t> decExpected = {0, 4, 5, 3, 0xfffffffeu, 5, 0, 0xfffffffdu, 0, 1};
  for (Space space : kSpaces) {
    std::vector<Result> inc = runAtom(space, "inc.u32", 32, cases);
    std::vector<Result> dec = runAtom(space, "dec.u32", 32, cases);
    for (size_t l = 0; l < cases.size(); ++l) {
      EXPECT_EQ(inc[l].old, cases[l].init);
      EXPECT_EQ(inc[l].now, incExpected[l]) << spaceName(space) << " inc case " << l;
      EXPECT_EQ(dec[l].now, decExpected[l]) << spaceName(space) << " dec case " << l;
    }
  }
}

TEST(Atomic, BitwiseAndExchange) {
  checkOp("and.b32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a & b; });
  checkOp("or.b32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a | b; });
  checkOp("xor.b32", 32, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a ^ b; });
  checkOp("and.b64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a & b; });
  checkOp("or.b64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a | b; });
  checkOp("xor.b64", 64, intCases(), [](uint64_t a, uint64_t b, uint64_t, bool) { return a ^ b; });
  checkOp("exch.b32", 32, intCases(), [](uint64_t, uint64_t b, uint64_t, bool) { return b; });
  checkOp("exch.b64", 64, intCases(), [](uint64_t, uint64_t b, uint64_t, bool) { return b; });
}

TEST(Atomic, CompareAndSwapSucceedsOnlyOnEqual) {
  std::vector<Case> cases = {{5, 5, 9},
                             {5, 6, 9},
                             {0xffff, 0xffff, 0x1234},
                             {0xabcd, 0xabcc, 1},
                             {0xffffffffffffffffull, 0xffffffffffffffffull, 7},
                             {0x100000000ull, 0, 3}};
  auto cas = [](uint64_t a, uint64_t b, uint64_t c, bool) { return a == b ? c : a; };
  checkOp("cas.b16", 16, cases, cas, true);
  checkOp("cas.b32", 32, cases, cas, true);
  checkOp("cas.b64", 64, cases, cas, true);
}

// --- Floating point ----------------------------------------------------------

uint32_t f32(float x) { return std::bit_cast<uint32_t>(x); }

// f32 add reference: round to nearest in float; on global memory subnormal
// inputs and results become zero of the same sign; NaN results are the
// canonical NaN.
uint64_t refAddF32(uint64_t a, uint64_t b, uint64_t, bool global) {
  auto flush = [&](uint32_t x) {
    bool subnormal = std::fpclassify(std::bit_cast<float>(x)) == FP_SUBNORMAL;
    return global && subnormal ? (x & 0x80000000u) : x;
  };
  float sum = std::bit_cast<float>(flush(static_cast<uint32_t>(a))) + std::bit_cast<float>(flush(static_cast<uint32_t>(b)));
  if (std::isnan(sum)) return 0x7fffffffu;
  return flush(std::bit_cast<uint32_t>(sum));
}

TEST(Atomic, AddF32FlushesSubnormalsOnGlobalMemoryOnly) {
  std::vector<Case> cases = {
      {f32(1.0f), f32(2.0f)},     {0x00000001, 0},          {0x00400000, 0x00400000}, {f32(1.0f), 0x00000001},
      {0x80000000, 0x80000000},   {0x80000000, 0},          {0x7f800000, 0xff800000}, {0x7fc00001, f32(1.0f)},
      {0xffc00000, f32(1.0f)},    {0x7f7fffff, 0x7f7fffff}, {0x00800000, 0x80000001}, {f32(1.0f), 0x33800000},
      {0x00800001, 0x80800000},   {f32(1.0f), 0x33c00000},  {f32(-3.5f), f32(3.25f)}, {0x807fffff, 0x00000002}};
  checkOp("add.f32", 32, cases, refAddF32);
  // Hand-checked against the H100 (tests/cuda/semantics/atomic_float.cu):
  // 2^-127 + 2^-127 is 2^-126 on shared memory and 0 on global memory.
  EXPECT_EQ(runAtom(Space::Shared, "add.f32", 32, {{0x00400000, 0x00400000}})[0].now, 0x00800000u);
  EXPECT_EQ(runAtom(Space::Global, "add.f32", 32, {{0x00400000, 0x00400000}})[0].now, 0u);
}

TEST(Atomic, AddF64RoundsToNearestAndPassesNaNsThrough) {
  auto d = [](double x) { return std::bit_cast<uint64_t>(x); };
  std::vector<Case> cases = {{d(1.0), d(2.0)}, {d(1.0), 0x3ca0000000000000ull}, {d(1.0), 0x3cb0000000000000ull},
                             {1, 1},           {d(-0.0), d(-0.0)},            {d(-0.0), d(0.0)},
                             {d(1e308), d(1e308)}};
  checkOp("add.f64", 64, cases, [](uint64_t a, uint64_t b, uint64_t, bool) {
    return std::bit_cast<uint64_t>(std::bit_cast<double>(a) + std::bit_cast<double>(b));
  });
  // NaNs as the H100 returns them. In global memory the added NaN first,
  // unchanged even when signaling; in shared memory (a compare-and-swap
  // loop around DADD) the memory value's first, quieted. inf - inf is the
  // negative quiet NaN in both.
  std::vector<Case> nans = {{0x7ff8000000000011ull, 0xfff8000000000022ull},
                            {0x7ff0000000000001ull, d(1.0)},
                            {d(1.0), 0x7ff4000000000033ull},
                            {0x7ff0000000000000ull, 0xfff0000000000000ull}};
  std::vector<uint64_t> inGlobal = {0xfff8000000000022ull, 0x7ff0000000000001ull, 0x7ff4000000000033ull,
                                    0xfff8000000000000ull};
  std::vector<uint64_t> inShared = {0x7ff8000000000011ull, 0x7ff8000000000001ull, 0x7ffc000000000033ull,
                                    0xfff8000000000000ull};
  for (Space space : kSpaces) {
    const bool shared = space == Space::Shared || space == Space::GenericShared;
    std::vector<Result> r = runAtom(space, "add.f64", 64, nans);
    for (size_t l = 0; l < nans.size(); ++l)
      EXPECT_EQ(r[l].now, (shared ? inShared : inGlobal)[l]) << spaceName(space) << " " << l;
  }
}

// f16 reference through the compiler's _Float16 (IEEE binary16, rounded to
// nearest even); NaN results canonical.
uint16_t refAddF16(uint16_t a, uint16_t b) {
  _Float16 x, y;
  std::memcpy(&x, &a, 2);
  std::memcpy(&y, &b, 2);
  _Float16 sum = static_cast<_Float16>(x + y);
  if (sum != sum) return 0x7fff;
  uint16_t bits;
  std::memcpy(&bits, &sum, 2);
  return bits;
}

// bf16 reference: exact bf16 values added in float (24 bits, enough for a
// correctly rounded bf16 sum), then rounded to nearest even by the usual
// bit trick.
uint16_t refAddBF16(uint16_t a, uint16_t b) {
  float sum = std::bit_cast<float>(uint32_t{a} << 16) + std::bit_cast<float>(uint32_t{b} << 16);
  if (std::isnan(sum)) return 0x7fff;
  uint32_t bits = std::bit_cast<uint32_t>(sum);
  bits += 0x7fffu + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

std::vector<Case> f16Cases() {
  return {{0x3c00, 0x1000}, {0x3c01, 0x1000}, {0x0001, 0x0001}, {0x8001, 0x0001}, {0x7bff, 0x4c00},
          {0x7bff, 0x4bff}, {0x7e01, 0x3c00}, {0x7c00, 0xfc00}, {0x8000, 0x8000}, {0x8000, 0x0000},
          {0x03ff, 0x0001}, {0x3c00, 0x1001}, {0xc500, 0x4500}, {0x0200, 0x8300}, {0x5640, 0x1e66}};
}

std::vector<Case> bf16Cases() {
  return {{0x3f80, 0x3b80}, {0x3f81, 0x3b80}, {0x3f80, 0x0001}, {0x0001, 0x0001}, {0x7f7f, 0x7b80},
          {0x7fc1, 0x3f80}, {0x7f80, 0xff80}, {0x8000, 0x8000}, {0x0080, 0x8001}, {0x3f80, 0x3b81},
          {0x7f7f, 0x7380}, {0x7f7f, 0x737f}, {0x8080, 0x0001}, {0x0100, 0x80ff}, {0x4049, 0x3c23}};
}

TEST(Atomic, AddF16AndBF16RoundToNearestEven) {
  checkOp("add.noftz.f16", 16, f16Cases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return refAddF16(static_cast<uint16_t>(a), static_cast<uint16_t>(b));
  });
  checkOp("add.noftz.bf16", 16, bf16Cases(), [](uint64_t a, uint64_t b, uint64_t, bool) {
    return refAddBF16(static_cast<uint16_t>(a), static_cast<uint16_t>(b));
  });
  // Exhaustive over a slice: every f16 against a few addends, on global memory.
  std::vector<Case> many;
  for (uint32_t x = 0; x < 0x10000; x += 97) many.push_back({x, (x * 7919u) & 0xffffu});
  for (size_t first = 0; first < many.size(); first += 32) {
    std::vector<Case> chunk(many.begin() + static_cast<long>(first),
                            many.begin() + static_cast<long>(std::min(first + 32, many.size())));
    std::vector<Result> r = runAtom(Space::Global, "add.noftz.f16", 16, chunk);
    std::vector<Result> rb = runAtom(Space::Global, "add.noftz.bf16", 16, chunk);
    for (size_t l = 0; l < chunk.size(); ++l) {
      auto a = static_cast<uint16_t>(chunk[l].init), b = static_cast<uint16_t>(chunk[l].b);
      EXPECT_EQ(r[l].now, refAddF16(a, b)) << std::hex << a << " + " << b;
      EXPECT_EQ(rb[l].now, refAddBF16(a, b)) << std::hex << a << " + " << b;
    }
  }
}

TEST(Atomic, AddPackedHalfPairs) {
  std::vector<Case> f16 = f16Cases(), bf16 = bf16Cases();
  std::vector<Case> pairs, bpairs;
  for (size_t i = 0; i + 1 < f16.size(); i += 2) {
    pairs.push_back({f16[i].init | (f16[i + 1].init << 16), f16[i].b | (f16[i + 1].b << 16)});
    bpairs.push_back({bf16[i].init | (bf16[i + 1].init << 16), bf16[i].b | (bf16[i + 1].b << 16)});
  }
  auto pairRef = [](uint16_t (*add)(uint16_t, uint16_t)) {
    return [add](uint64_t a, uint64_t b, uint64_t, bool) -> uint64_t {
      uint64_t lo = add(static_cast<uint16_t>(a), static_cast<uint16_t>(b));
      uint64_t hi = add(static_cast<uint16_t>(a >> 16), static_cast<uint16_t>(b >> 16));
      return lo | (hi << 16);
    };
  };
  checkOp("add.noftz.f16x2", 32, pairs, pairRef(&refAddF16));
  checkOp("add.noftz.bf16x2", 32, bpairs, pairRef(&refAddBF16));
}

// --- Vector forms, red, lane order -----------------------------------------

TEST(Atomic, VectorF32AddOnGlobalMemory) {
  // atom.global.v4.f32.add on four consecutive floats; lane l's vector at out + 32*l.
  std::string ptx = test::ptxKernel(
      ".reg .u64 %cell, %off;\n.reg .b32 %a<4>, %o<4>;",
      "mul.wide.u32 %off, %tx, 32;\nadd.u64 %cell, %out, %off;\n"
      "mov.b32 %a0, 0x00400000;\nmov.b32 %a1, 0x3f800000;\nmov.b32 %a2, 0x7fc00001;\nmov.b32 %a3, 0x00800001;\n"
      "st.global.v4.b32 [%cell], {%a0, %a1, %a2, %a3};\n"
      "mov.b32 %a1, 0x33800000;\nmov.b32 %a2, 0x3f800000;\nmov.b32 %a3, 0x80800000;\n"
      "atom.global.v4.f32.add {%o0, %o1, %o2, %o3}, [%cell], {%a0, %a1, %a2, %a3};\n"
      "st.global.v4.b32 [%cell+16], {%o0, %o1, %o2, %o3};");
  test::KernelRun run = test::runKernel(ptx, {}, 4 * 4, 4);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned l = 0; l < 4; ++l) {
    // New values: subnormals flushed, 1 + 2^-24 ties to 1, NaN canonical, a subnormal difference flushed.
    EXPECT_EQ(run.out[4 * l], 0x3f80000000000000ull) << l;
    EXPECT_EQ(run.out[4 * l + 1], 0x000000007fffffffull) << l;
    // Old values.
    EXPECT_EQ(run.out[4 * l + 2], 0x3f80000000400000ull) << l;
    EXPECT_EQ(run.out[4 * l + 3], 0x008000017fc00001ull) << l;
  }
}

TEST(Atomic, VectorHalfMinMaxAndAdd) {
  // v2.f16 min and max: NaN yields the other operand, two NaNs the canonical
  // NaN, -0 below +0 (the H100's results, hand-checked against the ISA's min/max).
  std::string ptx = test::ptxKernel(
      ".reg .b16 %h<4>, %o<2>;",
      "mov.b16 %h0, 0x7e01;\nmov.b16 %h1, 0x0000;\nst.global.v2.b16 [%out], {%h0, %h1};\n"
      "mov.b16 %h2, 0x7e02;\nmov.b16 %h3, 0x8000;\n"
      "atom.global.v2.f16.min.noftz {%o0, %o1}, [%out], {%h2, %h3};\n"
      "st.global.v2.b16 [%out+4], {%o0, %o1};\n"
      "mov.b16 %h0, 0x3c00;\nmov.b16 %h1, 0x8000;\nst.global.v2.b16 [%out+8], {%h0, %h1};\n"
      "mov.b16 %h2, 0x7e01;\nmov.b16 %h3, 0x0000;\n"
      "red.global.v2.f16.max.noftz [%out+8], {%h2, %h3};\n"
      "mov.b16 %h0, 0x3f80;\nmov.b16 %h1, 0x3f81;\nmov.b16 %h2, 0x7f7f;\nmov.b16 %h3, 0x0001;\n"
      "st.global.v4.b16 [%out+16], {%h0, %h1, %h2, %h3};\n"
      "mov.b16 %h0, 0x3b80;\nmov.b16 %h1, 0x3b80;\nmov.b16 %h2, 0x7b80;\nmov.b16 %h3, 0x8002;\n"
      "red.global.v4.bf16.add.noftz [%out+16], {%h0, %h1, %h2, %h3};");
  test::KernelRun run = test::runKernel(ptx, {}, 3, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 0x00007e01'80007fffull);  // old (7e01, 0000), new (7fff, 8000)
  EXPECT_EQ(run.out[1], 0x00000000'3c00ull);      // max(1, NaN) = 1, max(-0, +0) = +0
  EXPECT_EQ(run.out[2], 0x8001'7f80'3f82'3f80ull);
}

TEST(Atomic, RedUpdatesMemoryWithoutAResult) {
  std::string ptx = test::ptxKernel(
      ".reg .u64 %cell;\n.reg .b32 %v;\n.shared .align 4 .b32 counter[4];",
      "mov.u64 %cell, counter;\n"
      "red.shared.add.u32 [%cell], %tx;\nred.shared.max.s32 [%cell+4], %tx;\n"
      "red.shared.inc.u32 [%cell+8], 9;\nred.shared.xor.b32 [%cell+12], %tx;\n"
      "bar.sync 0;\n"
      "ld.shared.b32 %v, [%cell];\nst.global.b32 [%out], %v;\n"
      "ld.shared.b32 %v, [%cell+4];\nst.global.b32 [%out+8], %v;\n"
      "ld.shared.b32 %v, [%cell+8];\nst.global.b32 [%out+16], %v;\n"
      "ld.shared.b32 %v, [%cell+12];\nst.global.b32 [%out+24], %v;\n"
      "red.global.add.u64 [%out+32], %tx8;\nred.global.exch.b32 [%out+40], 1;");
  // red has no exch: the module is refused at load with ptxas's message.
  EXPECT_NE(test::moduleLoadError(ptx).find("Illegal operation '.exch' for instruction 'red'"), std::string::npos);
  std::string valid = ptx.substr(0, ptx.find("red.global.exch")) + "\nret;\n}\n";
  test::KernelRun run = test::runKernel(valid, {}, 5, 64);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 64u * 63 / 2);
  EXPECT_EQ(run.out[1], 63u);
  EXPECT_EQ(run.out[2], 64u % 10);  // 64 increments wrapping at 9
  EXPECT_EQ(run.out[3], 0u);        // xor of 0..63
  EXPECT_EQ(run.out[4], 8u * 64 * 63 / 2);
}

TEST(Atomic, LanesOfAWarpApplyInLaneOrder) {
  // All lanes exchange into one word: each lane's old value is the previous
  // lane's, so lane 0 sees the initial value and the last lane's survives.
  std::string ptx = test::ptxKernel(
      ".reg .u64 %p;\n.reg .b32 %old, %mine;",
      "add.u32 %mine, %tx, 100;\natom.global.exch.b32 %old, [%out], %mine;\n"
      "add.u64 %p, %out, %tx8;\nst.global.b32 [%p+8], %old;");
  test::KernelRun run = test::runKernel(ptx, {}, 33, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 131u);
  EXPECT_EQ(run.out[1], 0u);
  for (unsigned l = 1; l < 32; ++l) EXPECT_EQ(run.out[1 + l], 99 + l) << l;
}

TEST(Atomic, CountsWarpInstructionsAndReportsAtomicAccesses) {
  std::string ptx = test::ptxKernel(".reg .b32 %old;\n.reg .pred %p;",
                                    "atom.global.add.u32 %old, [%out], 1;\n"
                                    "setp.lt.u32 %p, %tx, 0;\n@%p red.global.add.u32 [%out], 1;\n"
                                    "red.global.add.u32 [%out], 1;");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 64);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 128u);
  EXPECT_EQ(run.result.stats.atomicInstructions, 4u);  // two warps, two executed atomics each
}

// --- Many CTAs on several host threads ------------------------------------

TEST(Atomic, HistogramFromManyCtasOnFourHostThreadsIsExact) {
  // 64 CTAs of 128 threads, on 4 host threads: every thread adds to one of
  // 16 bins, takes a ticket with inc, updates a global min/max and xor,
  // and a 64-bit sum; every final value is independent of the order.
  std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry hist(.param .u64 bins_param)
{
  .reg .u64 %bins, %cell, %off, %wide;
  .reg .b32 %t0, %c0, %n0, %g, %bin, %old;
  .reg .pred %p;
  ld.param.u64 %bins, [bins_param];
  mov.u32 %t0, %tid.x;
  mov.u32 %c0, %ctaid.x;
  mov.u32 %n0, %ntid.x;
  mad.lo.u32 %g, %c0, %n0, %t0;
  // bin = tid mod 16, by subtraction (tid < 128)
  mov.u32 %bin, %t0;
LOOP:
  setp.ge.u32 %p, %bin, 16;
  @!%p bra DONE;
  sub.u32 %bin, %bin, 16;
  bra LOOP;
DONE:
  mul.wide.u32 %off, %bin, 4;
  add.u64 %cell, %bins, %off;
  red.global.add.u32 [%cell], 1;
  atom.global.inc.u32 %old, [%bins+64], 999;
  red.global.min.s32 [%bins+68], %g;
  red.global.max.u32 [%bins+72], %g;
  red.global.xor.b32 [%bins+76], %g;
  mul.wide.u32 %wide, %g, 1;
  red.global.add.u64 [%bins+80], %wide;
  atom.add.u32 %old, [%bins+88], 1;
  ret;
}
)";
  Device device(sim::GpuConfig{}, DeviceOptions{4});
  auto module = device.loadModule(ptx, "hist.ptx");
  uint64_t bins = device.malloc(96);
  device.memset(bins, 0, 96);
  device.write(bins + 68, std::vector<uint32_t>{0x7fffffffu});
  constexpr unsigned kCtas = 64, kThreads = 128, kTotal = kCtas * kThreads;
  sim::LaunchResult result = device.launch(*module, "hist", {kCtas}, {kThreads}, 0, KernelArgs().add(bins));
  ASSERT_FALSE(result.error) << result.error.message;
  EXPECT_GE(result.stats.hostThreads, 1u);
  std::vector<uint32_t> words = device.read<uint32_t>(bins, 24);
  for (unsigned b = 0; b < 16; ++b) EXPECT_EQ(words[b], kTotal / 16) << "bin " << b;
  EXPECT_EQ(words[16], kTotal % 1000);  // inc wraps at 999
  EXPECT_EQ(words[17], 0u);
  EXPECT_EQ(words[18], kTotal - 1);
  uint32_t x = 0;
  for (uint32_t g = 0; g < kTotal; ++g) x ^= g;
  EXPECT_EQ(words[19], x);
  EXPECT_EQ(uint64_t{words[20]} | (uint64_t{words[21]} << 32), uint64_t{kTotal} * (kTotal - 1) / 2);
  EXPECT_EQ(words[22], kTotal);
  EXPECT_EQ(result.stats.atomicInstructions, uint64_t{kTotal / 32} * 7);
}

// --- Faults and forms that do not exist -------------------------------------

TEST(Atomic, MisalignedAndOutOfBoundsAddressesFault) {
  std::string misaligned = test::ptxKernel(".reg .b32 %old;", "atom.global.add.u32 %old, [%out+2], 1;");
  test::KernelRun run = test::runKernel(misaligned, {}, 1, 1);
  ASSERT_TRUE(run.result.error);
  EXPECT_NE(run.result.error.message.find("atomic"), std::string::npos) << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("not aligned"), std::string::npos) << run.result.error.message;
  std::string outside = test::ptxKernel(".reg .b32 %old;", "atom.global.add.u32 %old, [%out+16777216], 1;");
  run = test::runKernel(outside, {}, 1, 1);
  ASSERT_TRUE(run.result.error);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
}

TEST(Atomic, GenericAddressesOutsideGlobalAndSharedFault) {
  std::string local = test::ptxKernel(".local .align 4 .b32 slot;\n.reg .u64 %a;\n.reg .b32 %old;",
                                      "mov.u64 %a, slot;\ncvta.local.u64 %a, %a;\natom.add.u32 %old, [%a], 1;");
  test::KernelRun run = test::runKernel(local, {}, 1, 1);
  ASSERT_TRUE(run.result.error);
  EXPECT_NE(run.result.error.message.find("outside global and shared memory"), std::string::npos)
      << run.result.error.message;
  std::string vectorShared = test::ptxKernel(
      ".shared .align 8 .b32 s[2];\n.reg .u64 %a;\n.reg .b32 %x, %y;",
      "mov.u64 %a, s;\ncvta.shared.u64 %a, %a;\nmov.b32 %x, 0;\nred.v2.f32.add [%a], {%x, %x};");
  run = test::runKernel(vectorShared, {}, 1, 1);
  ASSERT_TRUE(run.result.error);
  EXPECT_NE(run.result.error.message.find("vector atomic"), std::string::npos) << run.result.error.message;
}

TEST(Atomic, FormsOutsideTheIsaFailToLoad) {
  auto load = [](const std::string& inst) {
    return test::loadError(".reg .b16 %h;\n.reg .b32 %r;\n.reg .b64 %d;\n.reg .b128 %q;", inst);
  };
  // Refused at load with ptxas's messages (isa/src/strict/atomic_rules.cpp).
  EXPECT_NE(load("atom.global.add.s64 %d, [%out], %d;").find("Operation .add requires .u32 or .s32 or .u64"),
            std::string::npos);
  EXPECT_NE(load("atom.global.inc.u64 %d, [%out], %d;").find("Operation .inc requires .u32 type"),
            std::string::npos);
  EXPECT_NE(load("atom.global.add.b128 %q, [%out], %q;").find("Operation .add requires"), std::string::npos);
  EXPECT_EQ(load("atom.global.exch.b128 %q, [%out], %q;"), "");
  EXPECT_NE(load("atom.global.add.f16 %h, [%out], %h;").find("'.noftz' modifier required for instruction 'atom'"),
            std::string::npos);
  EXPECT_EQ(load("atom.global.cas.b16 %h, [%out], %h, %h;"), "");
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

TEST(Atomic128, ExchangeAndCompareAndSwapMoveBothHalves) {
  // Lane 0: cas with the right expected value (succeeds), then exch; the
  // old values and the final memory are checked against the host.
  std::string ptx = test::ptxKernel(".reg .b128 %d, %b, %c; .reg .b64 %lo, %hi; .reg .pred %p;",
                                    "setp.ne.u32 %p, %tx, 0;\n"
                                    "@%p bra DONE;\n"
                                    "mov.b128 %b, {%tx8, %tx8};\n"  // expected: 0, 0 (memory starts zero)
                                    "mov.b64 %lo, 0x1111;\n"
                                    "mov.b64 %hi, 0x2222;\n"
                                    "mov.b128 %c, {%lo, %hi};\n"
                                    "atom.global.cas.b128 %d, [%out], %b, %c;\n"
                                    "mov.b128 {%lo, %hi}, %d;\n"
                                    "st.global.v2.b64 [%out+16], {%lo, %hi};\n"
                                    "mov.b64 %lo, 0x3333;\n"
                                    "mov.b128 %c, {%lo, %lo};\n"
                                    "atom.global.exch.b128 %d, [%out], %c;\n"
                                    "mov.b128 {%lo, %hi}, %d;\n"
                                    "st.global.v2.b64 [%out+32], {%lo, %hi};\n"
                                    "atom.global.cas.b128 %d, [%out], %b, %b;\n"  // fails: memory is not 0
                                    "mov.b128 {%lo, %hi}, %d;\n"
                                    "st.global.v2.b64 [%out+48], {%lo, %hi};\n"
                                    "DONE:");
  test::KernelRun run = test::runKernel(ptx, {}, 8, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, (std::vector<uint64_t>{0x3333, 0x3333, 0, 0, 0x1111, 0x2222, 0x3333, 0x3333}));
}

}  // namespace
}  // namespace ptxsim
