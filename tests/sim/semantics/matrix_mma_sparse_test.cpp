// mma.sp and mma.sp::ordered_metadata, every form sm_90 has, each selector:
// random sparse A whose compressed form and metadata are built here from
// the PTX ISA's rules (mma_sparse_fixture.h). Integer forms against exact
// sums; floating-point forms against the tensor core's adder model
// (mma_numerics.h) applied to the dense expansion, and, where mma.sync has
// the same dense shape, bit for bit against mma.sync on the expanded A;
// plus hand-derived exact cases and the metadata PTX leaves undefined.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "../../../sim/src/semantics/mma_elements.h"
#include "../../../sim/src/semantics/mma_numerics.h"
#include "mma_sparse_fixture.h"

namespace ptxsim::sparse_test {
namespace {

using sim::semantics::mma::Elem;

struct Form {
  std::string types;  // .dtype.atype.btype.ctype, without dots between shape and types
  unsigned k, bits;
  Elem a, b, c;
  bool satfinite = false;
};

unsigned selectors(const Form& f) {
  unsigned fields = f.bits == 32 ? f.k / 2 : f.bits == 4 ? f.k / 8 : f.k / 4;
  return 4 / (fields / 4);
}

std::string instruction(const Form& f, bool ordered) {
  return std::string(ordered ? "mma.sp::ordered_metadata" : "mma.sp") + ".sync.aligned.m16n8k" +
         std::to_string(f.k) + ".row.col" + (f.satfinite ? ".satfinite" : "") + f.types;
}

// Random bits of an element type, exponents in a window so that the
// adder's alignment truncates; fp8 without NaN or infinity.
uint32_t randomBits(Elem e, std::mt19937& rng) {
  uint32_t r = rng(), sign = r & 1;
  switch (e) {
    case Elem::F16: return sign << 15 | (8 + rng() % 14) << 10 | (r >> 8 & 0x3ff);
    case Elem::BF16: return sign << 15 | (120 + rng() % 14) << 7 | (r >> 8 & 0x7f);
    case Elem::TF32:
    case Elem::F32: return sign << 31 | (120 + rng() % 14) << 23 | (r >> 8 & 0x7fffff);
    case Elem::E4M3: return (r >> 8) % 0x7f | sign << 7;
    case Elem::E5M2: return (r >> 8) % 0x7c | sign << 7;
    case Elem::S32: return r;
    default: return r >> 8 & ((1u << sim::semantics::mma::bitsOf(e)) - 1);
  }
}

int64_t integerOf(uint32_t v, Elem e) {
  unsigned bits = sim::semantics::mma::bitsOf(e);
  bool isSigned = e == Elem::S8 || e == Elem::S4;
  if (!isSigned) return v;
  return static_cast<int32_t>(v << (32 - bits)) >> (32 - bits);
}

// D from the dense expansion: exact for integers; the adder model of
// mma.sync's dense forms otherwise (fp8: two steps, A's register chunks
// alternating between them, as matrix_mma_sparse.cpp models sm_90).
Matrix reference(const Form& f, const Matrix& a, const Matrix& b, const Matrix& c) {
  namespace mma = sim::semantics::mma;
  Matrix d = zeros(kM, kN);
  if (mma::isInteger(f.a)) {
    for (unsigned r = 0; r < kM; ++r)
      for (unsigned col = 0; col < kN; ++col) {
        int64_t sum = static_cast<int32_t>(c[r][col]);
        for (unsigned i = 0; i < f.k; ++i) sum += integerOf(a[r][i], f.a) * integerOf(b[i][col], f.b);
        if (f.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
        d[r][col] = static_cast<uint32_t>(sum);
      }
    return d;
  }
  bool fp8 = mma::isFp8(f.a);
  auto order = [&](unsigned i) { return fp8 ? (i / 4) % 2 * (f.k / 2) + (i / 8) * 4 + i % 4 : i; };
  std::vector<uint32_t> bBits(f.k * kN);
  for (unsigned i = 0; i < f.k; ++i)
    for (unsigned col = 0; col < kN; ++col) bBits[order(i) * kN + col] = b[i][col];
  std::vector<float> bSig(f.k * kN), aSig(f.k), cSig(kN);
  std::vector<int32_t> bExp(f.k * kN), aExp(f.k), cExp(kN);
  mma::scaleAll(f.b, bBits.data(), f.k * kN, bSig.data(), bExp.data());
  for (unsigned r = 0; r < kM; ++r) {
    std::vector<uint32_t> aBits(f.k);
    for (unsigned i = 0; i < f.k; ++i) aBits[order(i)] = a[r][i];
    mma::scaleAll(f.a, aBits.data(), f.k, aSig.data(), aExp.data());
    mma::scaleAll(f.c, c[r].data(), kN, cSig.data(), cExp.data());
    uint32_t out[kN];
    if (fp8) {
      mma::fp8DotF32({aSig.data(), aExp.data()}, {bSig.data(), bExp.data(), kN}, f.k, c[r].data(), out);
    } else {
      mma::wgmmaDot(mma::wgmmaDotModel(false, f.c == Elem::F16), {aSig.data(), aExp.data()},
                    {bSig.data(), bExp.data(), kN}, f.k, {cSig.data(), cExp.data()}, out);
    }
    std::copy(out, out + kN, d[r].begin());
  }
  return d;
}

// Runs one form with each selector, .ordered_metadata or not, on fresh
// random operands each time.
void expectForm(const Form& f, unsigned seed) {
  std::mt19937 rng(seed);
  bool halves = f.c == Elem::F16;
  for (unsigned selector = 0; selector < selectors(f); ++selector) {
    for (bool ordered : {true, false}) {
      SparseA s = makeSparse(f.k, f.bits, rng, [&] { return randomBits(f.a, rng); });
      Matrix b = zeros(f.k, kN), c = zeros(kM, kN);
      for (auto& row : b) std::generate(row.begin(), row.end(), [&] { return randomBits(f.b, rng); });
      for (unsigned r = 0; r < kM; ++r)
        for (uint32_t& v : c[r])
          v = f.c == Elem::S32 ? (f.satfinite && r % 4 == 0 ? 0x7fffff00u + (rng() & 0xff) : rng())
                               : randomBits(f.c, rng);
      std::vector<uint32_t> meta = metadataOf(s, f.bits, selector, rng);
      std::string mma = instruction(f, ordered);
      Matrix d =
          unfragC(runMma(mma, halves ? 2 : 4, {fragA(s.stored, f.bits), fragB(b, f.bits), fragC(c, halves)},
                         &meta, selector),
                  halves);
      Matrix want = reference(f, s.dense, b, c);
      for (unsigned r = 0; r < kM; ++r)
        for (unsigned col = 0; col < kN; ++col)
          ASSERT_EQ(d[r][col], want[r][col])
              << mma << " selector " << selector << " row " << r << " col " << col;
    }
  }
}

const Form kForms[] = {
    {".f32.f16.f16.f32", 16, 16, Elem::F16, Elem::F16, Elem::F32},
    {".f16.f16.f16.f16", 16, 16, Elem::F16, Elem::F16, Elem::F16},
    {".f32.f16.f16.f32", 32, 16, Elem::F16, Elem::F16, Elem::F32},
    {".f16.f16.f16.f16", 32, 16, Elem::F16, Elem::F16, Elem::F16},
    {".f32.bf16.bf16.f32", 16, 16, Elem::BF16, Elem::BF16, Elem::F32},
    {".f32.bf16.bf16.f32", 32, 16, Elem::BF16, Elem::BF16, Elem::F32},
    {".f32.tf32.tf32.f32", 8, 32, Elem::TF32, Elem::TF32, Elem::F32},
    {".f32.tf32.tf32.f32", 16, 32, Elem::TF32, Elem::TF32, Elem::F32},
    {".f32.e4m3.e4m3.f32", 64, 8, Elem::E4M3, Elem::E4M3, Elem::F32},
    {".f32.e5m2.e4m3.f32", 64, 8, Elem::E5M2, Elem::E4M3, Elem::F32},
    {".s32.s8.s8.s32", 32, 8, Elem::S8, Elem::S8, Elem::S32},
    {".s32.u8.s8.s32", 32, 8, Elem::U8, Elem::S8, Elem::S32, true},
    {".s32.s8.u8.s32", 64, 8, Elem::S8, Elem::U8, Elem::S32},
    {".s32.u8.u8.s32", 64, 8, Elem::U8, Elem::U8, Elem::S32, true},
    {".s32.s4.s4.s32", 64, 4, Elem::S4, Elem::S4, Elem::S32},
    {".s32.u4.s4.s32", 64, 4, Elem::U4, Elem::S4, Elem::S32, true},
    {".s32.s4.u4.s32", 128, 4, Elem::S4, Elem::U4, Elem::S32, true},
    {".s32.u4.u4.s32", 128, 4, Elem::U4, Elem::U4, Elem::S32},
};

TEST(MmaSparse, EveryFormEachSelectorMatchesTheDenseExpansion) {
  unsigned seed = 100;
  for (const Form& f : kForms) expectForm(f, seed++);
}

// Where mma.sync has the expanded shape, mma.sp gives its bits exactly.
TEST(MmaSparse, EqualsDenseMmaSyncOnTheExpandedA) {
  const Form forms[] = {kForms[0], kForms[1], kForms[4], kForms[6], kForms[10], kForms[11], kForms[14]};
  std::mt19937 rng(7);
  for (const Form& f : forms) {
    bool halves = f.c == Elem::F16;
    SparseA s = makeSparse(f.k, f.bits, rng, [&] { return randomBits(f.a, rng); });
    Matrix b = zeros(f.k, kN), c = zeros(kM, kN);
    for (auto& row : b) std::generate(row.begin(), row.end(), [&] { return randomBits(f.b, rng); });
    for (auto& row : c) std::generate(row.begin(), row.end(), [&] { return randomBits(f.c, rng); });
    unsigned selector = selectors(f) - 1;
    std::vector<uint32_t> meta = metadataOf(s, f.bits, selector, rng);
    std::vector<std::vector<uint32_t>> sparseOps{fragA(s.stored, f.bits), fragB(b, f.bits), fragC(c, halves)};
    std::vector<std::vector<uint32_t>> denseOps{fragA(s.dense, f.bits), sparseOps[1], sparseOps[2]};
    std::string dense = "mma.sync.aligned.m16n8k" + std::to_string(f.k) + ".row.col" +
                        (f.satfinite ? ".satfinite" : "") + f.types;
    EXPECT_EQ(runMma(instruction(f, true), halves ? 2 : 4, sparseOps, &meta, selector),
              runMma(dense, halves ? 2 : 4, denseOps))
        << dense;
  }
}

// A small integer's f16 bits.
uint32_t f16Of(int v) {
  if (v == 0) return 0;
  uint32_t sign = v < 0 ? 0x8000 : 0, m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = std::bit_width(m) - 1;  // m < 2048
  return sign | static_cast<uint32_t>(e + 15) << 10 | ((m << (10 - e)) & 0x3ff);
}

// Worked by hand. m16n8k16 .f16, selector 3: lane 4g + 3 holds row g's
// fields in bits 0-15 (0x4E4E: chunks keep positions 2,3 / 0,1 / 2,3 /
// 0,1) and row g + 8's in bits 16-31 (0xE4E4); stored element j of every
// row is j + 1 and B(k, n) = k, so row g gives 1*2 + 2*3 + 3*4 + 4*5 +
// 5*10 + 6*11 + 7*12 + 8*13 = 344 and row g + 8 2 + 18 + 28 + 40 + 54 +
// 98 + 120 = 360. The other lanes' metadata is ignored.
TEST(MmaSparse, HandWorkedF16SelectorThree) {
  Matrix stored = zeros(kM, 8), b = zeros(16, kN), c = zeros(kM, kN);
  for (auto& row : stored)
    for (unsigned j = 0; j < 8; ++j) row[j] = f16Of(static_cast<int>(j) + 1);
  for (unsigned k = 0; k < 16; ++k)
    for (uint32_t& v : b[k]) v = f16Of(static_cast<int>(k));
  std::vector<uint32_t> meta(kLanes, 0xffffffffu);
  for (unsigned g = 0; g < 8; ++g) meta[4 * g + 3] = 0xE4E44E4Eu;
  Matrix d = unfragC(runMma("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4,
                            {fragA(stored, 16), fragB(b, 16), fragC(c, false)}, &meta, 3),
                     false);
  for (unsigned r = 0; r < kM; ++r)
    for (unsigned col = 0; col < kN; ++col)
      ASSERT_EQ(std::bit_cast<float>(d[r][col]), r < 8 ? 344.0f : 360.0f) << r << " " << col;
}

// m16n8k32 .s8, selector 1: lanes 4g + 2 and 4g + 3 hold rows g and g + 8
// (eight fields each); 0x44444444 keeps positions 0,1 of every chunk,
// 0xEEEEEEEE positions 2,3. A's stored elements are 1 and B(k, n) = k:
// row g sums 8c + 1 over chunks c < 8 (232), row g + 8 8c + 5 (264).
TEST(MmaSparse, HandWorkedS8SelectorOne) {
  Matrix stored = zeros(kM, 16), b = zeros(32, kN), c = zeros(kM, kN);
  for (auto& row : stored) std::fill(row.begin(), row.end(), 1u);
  for (unsigned k = 0; k < 32; ++k) std::fill(b[k].begin(), b[k].end(), k);
  std::vector<uint32_t> meta(kLanes, 0x12345678u);
  for (unsigned g = 0; g < 8; ++g) {
    meta[4 * g + 2] = 0x44444444u;
    meta[4 * g + 3] = 0xEEEEEEEEu;
  }
  Matrix d = unfragC(runMma("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4,
                            {fragA(stored, 8), fragB(b, 8), fragC(c, false)}, &meta, 1),
                     false);
  for (unsigned r = 0; r < kM; ++r)
    for (unsigned col = 0; col < kN; ++col) ASSERT_EQ(d[r][col], r < 8 ? 232u : 264u) << r << " " << col;
}

// Metadata PTX leaves undefined, expanded as mma_sparse_layout.h says:
// 0b0000 puts both elements of a chunk at position 0 and the second one
// stays; tf32's 0b0110 puts the low half at half 2 and the high half at
// half 1 of the chunk. And an infinity of B facing a pruned zero of A
// makes NaN, the product being the dense one.
TEST(MmaSparse, UndefinedMetadataExpandsNaturally) {
  Matrix stored = zeros(kM, 8), b = zeros(16, kN), c = zeros(kM, kN);
  for (auto& row : stored)
    for (unsigned j = 0; j < 8; ++j) row[j] = f16Of(static_cast<int>(j) + 1);
  for (unsigned k = 0; k < 16; ++k)
    for (uint32_t& v : b[k]) v = f16Of(1 << (k % 8));
  std::vector<uint32_t> meta(kLanes, 0);  // every field 0b0000
  Matrix d = unfragC(runMma("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4,
                            {fragA(stored, 16), fragB(b, 16), fragC(c, false)}, &meta, 0),
                     false);
  // Chunk q keeps element 2q + 2 at position 4q: 2 * 1 + 4 * 16 + 6 * 1 + 8 * 16.
  EXPECT_EQ(std::bit_cast<float>(d[0][0]), 200.0f);

  b[1][3] = 0x7c00;  // +inf at k = 1, column 3, where 0b0000 leaves A zero
  d = unfragC(runMma("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4,
                     {fragA(stored, 16), fragB(b, 16), fragC(c, false)}, &meta, 0),
              false);
  EXPECT_TRUE(std::isnan(std::bit_cast<float>(d[0][3])));
  EXPECT_EQ(std::bit_cast<float>(d[0][2]), 200.0f);

  // tf32 m16n8k8: stored element 0x3f80'4000 (low half 0x4000, high 0x3f80);
  // 0b0110 gives dense element 0 = 0x3f80'0000 (1.0, the high half at half
  // 1) and element 1 = 0x0000'4000 (a denormal, the low half at half 2).
  Matrix ts = zeros(kM, 4), tb = zeros(8, kN), tc = zeros(kM, kN);
  for (auto& row : ts) std::fill(row.begin(), row.end(), 0x3f804000u);
  for (auto& row : tb) std::fill(row.begin(), row.end(), std::bit_cast<uint32_t>(1.0f));
  std::vector<uint32_t> tmeta(kLanes, 0x66666666u);
  Matrix td = unfragC(runMma("mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4,
                             {fragA(ts, 32), fragB(tb, 32), fragC(tc, false)}, &tmeta, 0),
                      false);
  // Four chunks of 1.0; the subnormals fall below the adder's alignment.
  EXPECT_EQ(std::bit_cast<float>(td[0][0]), 4.0f);
}

TEST(MmaSparse, RefusedFormsNameTheForm) {
  const std::string declarations = ".reg .b32 %r<24>;\n.reg .f32 %f<16>;";
  const std::string r4 = " {%r0, %r1, %r2, %r3}, ", a4 = "{%r4, %r5, %r6, %r7}, ",
                    b4 = "{%r8, %r9, %r10, %r11}, ";
  struct Case {
    std::string instruction, reason;
  };
  const Case cases[] = {
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32" + r4 + a4 + b4 +
           "{%r12, %r13, %r14, %r15}, %r16, 2;",
       "m16n8k32.f32.f16.f16.f32 needs a sparsity selector immediate from 0 to 1"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f16" + r4 + a4 + b4 +
           "{%r12, %r13}, %r16, 0;",
       "m16n8k32.f32.f16.f16.f16 (not a form sm_90 has)"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f16.e4m3.e4m3.f16 {%r0, %r1}, " + a4 + b4 +
           "{%r12, %r13}, %r16, 0;",
       "m16n8k64.f16.e4m3.e4m3.f16 (not a form sm_90 has)"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32" + r4 + "{%r4}, {%r8, %r9}, " +
           "{%r12, %r13, %r14, %r15}, %r16, 0;",
       "m16n8k16.s32.s8.s8.s32 (not a form sm_90 has)"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32" + r4 + a4 + b4 +
           "{%r12, %r13, %r14, %r15}, %r16, 1;",
       "from 0 to 0"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" + r4 + "{%r4, %r5}, " +
           "{%r8, %r9}, {%r12, %r13, %r14, %r15}, 0x44444444, 0;",
       "metadata that is not a register"},
  };
  for (const Case& c : cases) {
    std::string error = test::loadError(declarations, c.instruction);
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos) << c.instruction << ": " << error;
    EXPECT_NE(error.find(c.reason), std::string::npos) << c.instruction << ": " << error;
  }
}

}  // namespace
}  // namespace ptxsim::sparse_test
