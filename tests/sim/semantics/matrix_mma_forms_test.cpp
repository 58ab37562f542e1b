// mma.sync forms beyond those the H100 recordings cover (m8n8k4 with f16
// inputs, fp8 with f16 accumulators and m16n8k16, s4/u4, b1, m8n8k16
// s8/u8), run on designed inputs whose results are worked out here with
// exact host arithmetic: the fragments are built from the PTX ISA's
// layout formulas, written out again below rather than taken from the
// simulator. Integer and b1 forms are exact; the floating-point cases use
// small integers whose sums are exact, plus one case that only the fp8
// f16-accumulator step model (mma_numerics.h fp8DotF16) explains.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

constexpr unsigned kLanes = 32;

// Runs `mma` with registers %r0.. as D, then A, B and C; each register
// of each lane comes from in[reg * 32 + lane] and D goes to out the same way.
std::vector<uint32_t> runMma(const std::string& mma, unsigned dRegs, const std::vector<std::vector<uint32_t>>& srcs) {
  std::string body = "add.u64 %rd0, %in, %tx8;\nadd.u64 %rd1, %out, %tx8;\n";
  std::string operands[4];
  unsigned reg = 0, inReg = 0;
  for (unsigned i = 0; i < dRegs; ++i) operands[0] += (i ? ", %r" : "{%r") + std::to_string(reg++);
  operands[0] += "}";
  std::vector<uint64_t> in;
  for (unsigned o = 0; o < 3; ++o) {
    for (unsigned i = 0; i < srcs[o].size() / kLanes; ++i, ++inReg) {
      operands[o + 1] += (i ? ", %r" : "{%r") + std::to_string(reg);
      body += "ld.global.u32 %r" + std::to_string(reg++) + ", [%rd0+" + std::to_string(inReg * 256) + "];\n";
      for (unsigned lane = 0; lane < kLanes; ++lane) in.push_back(srcs[o][i * kLanes + lane]);
    }
    operands[o + 1] += "}";
  }
  body += mma + " " + operands[0] + ", " + operands[1] + ", " + operands[2] + ", " + operands[3] + ";\n";
  for (unsigned i = 0; i < dRegs; ++i)
    body += "st.global.u32 [%rd1+" + std::to_string(i * 256) + "], %r" + std::to_string(i) + ";\n";
  std::string decl = ".reg .b32 %r<" + std::to_string(reg + 1) + ">;\n.reg .b64 %rd<2>;";
  test::KernelRun run = test::runKernel(test::ptxKernel(decl, body), in, dRegs * kLanes);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  std::vector<uint32_t> out;
  for (uint64_t w : run.out) out.push_back(static_cast<uint32_t>(w));
  return out;
}

using Matrix = std::vector<std::vector<uint32_t>>;  // element bits, [row][col]

Matrix matrix(unsigned rows, unsigned cols, const std::function<uint32_t(unsigned, unsigned)>& f) {
  Matrix m(rows, std::vector<uint32_t>(cols));
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) m[r][c] = f(r, c);
  return m;
}

// The PTX ISA's fragments of m16n8kK and m8n8kK (E elements of `bits` a
// register): A register r, element e: row g + 8 (r % 2) (g for M = 8),
// column (r / 2) 4E + t E + e; B: row r 4E + t E + e, column g; C/D
// (32-bit) element i: row g + 8 (i / 2) (g for M = 8), column 2t + i % 2.
std::vector<uint32_t> fragA(const Matrix& a, unsigned bits) {
  unsigned m = a.size(), k = a[0].size(), per = 32 / bits, regs = m * k / (kLanes * per);
  std::vector<uint32_t> out(regs * kLanes);
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned e = 0; e < per; ++e) {
        unsigned g = lane / 4, t = lane % 4;
        unsigned row = m == 8 ? g : g + 8 * (r % 2), col = (r / 2) * 4 * per + t * per + e;
        uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
        out[r * kLanes + lane] |= (a[row][col] & mask) << (e * bits);
      }
  return out;
}

std::vector<uint32_t> fragB(const Matrix& b, unsigned bits) {
  unsigned k = b.size(), n = b[0].size(), per = 32 / bits, regs = k * n / (kLanes * per);
  std::vector<uint32_t> out(regs * kLanes);
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned e = 0; e < per; ++e) {
        uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
        out[r * kLanes + lane] |= (b[r * 4 * per + (lane % 4) * per + e][lane / 4] & mask) << (e * bits);
      }
  return out;
}

// 32-bit accumulators; with `halves`, f16 ones two a register.
std::vector<uint32_t> fragC(const Matrix& c, bool halves = false) {
  unsigned m = c.size(), count = m * 8 / kLanes;
  std::vector<uint32_t> out((halves ? count / 2 : count) * kLanes);
  for (unsigned i = 0; i < count; ++i)
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      uint32_t v = c[m == 8 ? g : g + 8 * (i / 2)][2 * t + i % 2];
      if (halves) out[(i / 2) * kLanes + lane] |= v << (16 * (i % 2));
      else out[i * kLanes + lane] = v;
    }
  return out;
}

Matrix unfragC(const std::vector<uint32_t>& d, unsigned m, bool halves = false) {
  Matrix out(m, std::vector<uint32_t>(8));
  for (unsigned i = 0; i < m * 8 / kLanes; ++i)
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      uint32_t v = halves ? (d[(i / 2) * kLanes + lane] >> (16 * (i % 2))) & 0xffff : d[i * kLanes + lane];
      out[m == 8 ? g : g + 8 * (i / 2)][2 * t + i % 2] = v;
    }
  return out;
}

// Integer forms: D = C + A B exactly (products of `bits`-bit elements,
// signed or not), modulo 2^32 or clamped with satfinite.
struct IntCase {
  unsigned m, k, bits;
  bool aSigned, bSigned, satfinite;
};

int64_t valueOfBits(uint32_t v, unsigned bits, bool isSigned) {
  if (!isSigned) return v;
  return static_cast<int32_t>(v << (32 - bits)) >> (32 - bits);
}

void expectInteger(const IntCase& c, unsigned seed, bool bigC) {
  std::mt19937 rng(seed);
  uint32_t mask = (1u << c.bits) - 1;
  Matrix a = matrix(c.m, c.k, [&](unsigned, unsigned) { return rng() & mask; });
  Matrix b = matrix(c.k, 8, [&](unsigned, unsigned) { return rng() & mask; });
  Matrix cm = matrix(c.m, 8, [&](unsigned r, unsigned) {
    return bigC ? (r % 2 ? 0x7fffff00u + (rng() & 0xff) : 0x80000000u + (rng() & 0xff)) : rng();
  });
  auto name = [](unsigned bits, bool s) { return std::string(s ? ".s" : ".u") + std::to_string(bits); };
  std::string mma = "mma.sync.aligned.m" + std::to_string(c.m) + "n8k" + std::to_string(c.k) + ".row.col" +
                    (c.satfinite ? ".satfinite" : "") + ".s32" + name(c.bits, c.aSigned) + name(c.bits, c.bSigned) +
                    ".s32";
  Matrix d = unfragC(runMma(mma, c.m * 8 / kLanes, {fragA(a, c.bits), fragB(b, c.bits), fragC(cm)}), c.m);
  for (unsigned r = 0; r < c.m; ++r)
    for (unsigned col = 0; col < 8; ++col) {
      int64_t sum = static_cast<int32_t>(cm[r][col]);
      for (unsigned i = 0; i < c.k; ++i)
        sum += valueOfBits(a[r][i], c.bits, c.aSigned) * valueOfBits(b[i][col], c.bits, c.bSigned);
      if (c.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
      ASSERT_EQ(d[r][col], static_cast<uint32_t>(sum)) << mma << " row " << r << " col " << col;
    }
}

TEST(MmaForms, SubByteAndM8n8IntegerFormsAreExact) {
  const IntCase cases[] = {
      {8, 32, 4, true, false, false},  {8, 32, 4, false, false, true}, {16, 32, 4, true, true, false},
      {16, 64, 4, false, true, false}, {16, 64, 4, true, true, true},  {8, 16, 8, true, false, false},
      {8, 16, 8, true, true, true},
  };
  unsigned seed = 1;
  for (const IntCase& c : cases) {
    expectInteger(c, seed++, false);
    expectInteger(c, seed++, true);  // C near the s32 limits: wraps, or clamps with .satfinite
  }
}

TEST(MmaForms, B1FormsCountBits) {
  struct Case {
    unsigned m, k;
    bool isXor;
  };
  for (Case c : {Case{8, 128, true}, Case{8, 128, false}, Case{16, 128, false}, Case{16, 256, true},
                 Case{16, 256, false}}) {
    std::mt19937 rng(c.m * 1000 + c.k + c.isXor);
    // Rows of A and columns of B of 32 bits a word, density varied by row.
    Matrix a = matrix(c.m, c.k, [&](unsigned r, unsigned) { return (rng() % 8) < r % 8 ? 1u : 0u; });
    Matrix b = matrix(c.k, 8, [&](unsigned, unsigned col) { return (rng() % 8) <= col ? 1u : 0u; });
    Matrix cm = matrix(c.m, 8, [&](unsigned r, unsigned col) { return r * 1000 + col - 5000; });
    std::string mma = "mma.sync.aligned.m" + std::to_string(c.m) + "n8k" + std::to_string(c.k) +
                      ".row.col.s32.b1.b1.s32" + (c.isXor ? ".xor.popc" : ".and.popc");
    Matrix d = unfragC(runMma(mma, c.m * 8 / kLanes, {fragA(a, 1), fragB(b, 1), fragC(cm)}), c.m);
    for (unsigned r = 0; r < c.m; ++r)
      for (unsigned col = 0; col < 8; ++col) {
        uint32_t count = cm[r][col];
        for (unsigned i = 0; i < c.k; ++i) count += c.isXor ? a[r][i] ^ b[i][col] : a[r][i] & b[i][col];
        ASSERT_EQ(d[r][col], count) << mma << " row " << r << " col " << col;
      }
  }
}

// Small integers as f16, e4m3 (|v| <= 16 is exact in both) and f32 bits.
uint32_t f16Of(int v) {
  if (v == 0) return 0;
  uint32_t sign = v < 0 ? 0x8000 : 0, m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = std::bit_width(m) - 1;  // m < 2048
  return sign | static_cast<uint32_t>(e + 15) << 10 | ((m << (10 - e)) & 0x3ff);
}
uint32_t e4m3Of(int v) {
  if (v == 0) return 0;
  uint32_t sign = v < 0 ? 0x80 : 0, m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = std::bit_width(m) - 1;  // m <= 16 with at most 4 significant bits
  return sign | static_cast<uint32_t>(e + 7) << 3 | ((m << (3 - e)) & 0x7);
}
uint32_t f32Of(int v) { return std::bit_cast<uint32_t>(static_cast<float>(v)); }

TEST(MmaForms, Fp8FormsOnExactSums) {
  for (unsigned k : {32u, 16u}) {
    for (bool f16Acc : {true, false}) {
      Matrix ai = matrix(16, k, [&](unsigned r, unsigned i) { return (r * 7 + i * 3) % 9; });
      Matrix bi = matrix(k, 8, [&](unsigned i, unsigned c) { return (i * 5 + c) % 7; });
      auto signedOf = [](uint32_t v) { return static_cast<int>(v) - 4; };
      Matrix a = matrix(16, k, [&](unsigned r, unsigned i) { return e4m3Of(signedOf(ai[r][i])); });
      Matrix b = matrix(k, 8, [&](unsigned i, unsigned c) { return e4m3Of(signedOf(bi[i][c])); });
      Matrix cm = matrix(16, 8, [&](unsigned r, unsigned c) {
        int v = static_cast<int>(r) - static_cast<int>(c) * 3;
        return f16Acc ? f16Of(v) : f32Of(v);
      });
      std::string acc = f16Acc ? ".f16" : ".f32";
      std::string mma = "mma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col" + acc + ".e4m3.e4m3" + acc;
      Matrix d = unfragC(runMma(mma, f16Acc ? 2 : 4, {fragA(a, 8), fragB(b, 8), fragC(cm, f16Acc)}), 16, f16Acc);
      for (unsigned r = 0; r < 16; ++r)
        for (unsigned c = 0; c < 8; ++c) {
          int sum = static_cast<int>(r) - static_cast<int>(c) * 3;
          for (unsigned i = 0; i < k; ++i) sum += signedOf(ai[r][i]) * signedOf(bi[i][c]);
          ASSERT_EQ(d[r][c], f16Acc ? f16Of(sum) : f32Of(sum)) << mma << " row " << r << " col " << c;
        }
    }
  }
}

// The step model's mark: row 0 of A holds 256, 1, 1 at k = 0, 1, 2 (e4m3),
// B's column 0 holds 8, 1, 1. k 0 and 1 make the first step (2049, an f16
// tie, rounds to 2048), k 2 the second (2048 + 1, rounds to 2048 again):
// D = 2048 where the exact sum, 2050, is an f16 too.
TEST(MmaForms, Fp8WithF16AccumulatorsRoundsEachStep) {
  Matrix a = matrix(16, 32, [](unsigned r, unsigned i) {
    if (r != 0 || i > 2) return 0u;
    return i == 0 ? 0x78u : 0x38u;  // e4m3 256 and 1
  });
  Matrix b = matrix(32, 8, [](unsigned i, unsigned c) {
    if (c != 0 || i > 2) return 0u;
    return i == 0 ? 0x50u : 0x38u;  // e4m3 8 and 1
  });
  Matrix cm = matrix(16, 8, [](unsigned, unsigned) { return 0u; });
  Matrix d = unfragC(runMma("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", 2,
                            {fragA(a, 8), fragB(b, 8), fragC(cm, true)}),
                     16, true);
  EXPECT_EQ(d[0][0], f16Of(2048));
  EXPECT_EQ(d[0][1], 0u);
}

// m8n8k4 with f16 inputs: four independent products, one per quad pair,
// fragments as the PTX ISA places them (written out here again).
struct QuadPair {
  bool aCol, bCol, cF32, dF32;
};

TEST(MmaForms, M8n8k4QuadPairsEachLayout) {
  for (QuadPair q : {QuadPair{false, false, true, true}, QuadPair{false, true, false, false},
                     QuadPair{true, false, false, true}, QuadPair{true, true, true, true},
                     QuadPair{true, true, false, false}, QuadPair{false, true, true, true}}) {
    // Pair p's A, B and C: small integers, different for each pair.
    auto aOf = [](unsigned p, unsigned r, unsigned k) { return static_cast<int>((p * 5 + r * 3 + k) % 7) - 3; };
    auto bOf = [](unsigned p, unsigned k, unsigned c) { return static_cast<int>((p + k * 2 + c * 5) % 9) - 4; };
    auto cOf = [](unsigned p, unsigned r, unsigned c) { return static_cast<int>(p * 16 + r * 8 + c) - 40; };
    std::vector<uint32_t> a(2 * kLanes), b(2 * kLanes), c((q.cF32 ? 8 : 4) * kLanes);
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      unsigned p = (lane / 4) % 4, l = lane % 4, h = lane >= 16 ? 4 : 0;
      for (unsigned i = 0; i < 4; ++i) {
        int av = q.aCol ? aOf(p, i + h, l) : aOf(p, l + h, i);
        int bv = q.bCol ? bOf(p, i, l + h) : bOf(p, l, i + h);
        a[(i / 2) * kLanes + lane] |= f16Of(av) << (16 * (i % 2));
        b[(i / 2) * kLanes + lane] |= f16Of(bv) << (16 * (i % 2));
      }
      for (unsigned i = 0; i < 8; ++i) {
        if (q.cF32) {
          c[i * kLanes + lane] = f32Of(cOf(p, (lane & 1) + (i & 2) + h, (i & 4) + (lane & 2) + (i & 1)));
        } else {
          c[(i / 2) * kLanes + lane] |= f16Of(cOf(p, l + h, i)) << (16 * (i % 2));
        }
      }
    }
    std::string mma = std::string("mma.sync.aligned.m8n8k4") + (q.aCol ? ".col" : ".row") +
                      (q.bCol ? ".col" : ".row") + (q.dF32 ? ".f32" : ".f16") + ".f16.f16" +
                      (q.cF32 ? ".f32" : ".f16");
    std::vector<uint32_t> d = runMma(mma, q.dF32 ? 8 : 4, {a, b, c});
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      unsigned p = (lane / 4) % 4, l = lane % 4, h = lane >= 16 ? 4 : 0;
      for (unsigned i = 0; i < 8; ++i) {
        unsigned row = q.dF32 ? (lane & 1) + (i & 2) + h : l + h;
        unsigned col = q.dF32 ? (i & 4) + (lane & 2) + (i & 1) : i;
        int sum = cOf(p, row, col);
        for (unsigned k = 0; k < 4; ++k) sum += aOf(p, row, k) * bOf(p, k, col);
        uint32_t got = q.dF32 ? d[i * kLanes + lane] : (d[(i / 2) * kLanes + lane] >> (16 * (i % 2))) & 0xffff;
        ASSERT_EQ(got, q.dF32 ? f32Of(sum) : f16Of(sum)) << mma << " lane " << lane << " element " << i;
      }
    }
  }
}

TEST(MmaForms, RefusedFormsNameTheReason) {
  const std::string declarations = ".reg .b32 %r<24>;\n.reg .f32 %f<16>;";
  struct Case {
    const char* instruction;
    const char* reason;
  };
  const Case cases[] = {
      {"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r0, %r1, %r2, %r3}, {%r4, %r5}, {%r6, %r7}, "
       "{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};",
       "this mma.m8n8k4 type combination"},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, "
       "{%r4, %r5}, {%r6, %r7};",
       "this mma shape and type combination"},
      {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1};",
       ".b1 needs .and.popc or .xor.popc"},
      {"mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%r0, %r1, %r2, %r3}, {%r4}, {%r6}, {%r0, %r1, %r2, %r3};",
       "wrong number of registers"},
  };
  for (const Case& c : cases) {
    std::string error = test::loadError(declarations, c.instruction);
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos) << c.instruction << ": " << error;
    EXPECT_NE(error.find(c.reason), std::string::npos) << c.instruction << ": " << error;
  }
}

}  // namespace
}  // namespace ptxsim
