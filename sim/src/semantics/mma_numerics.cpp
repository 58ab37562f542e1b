// The adder of mma_numerics.h on integers, a row of D at a time: each
// element comes decoded once per instruction as a float significand and an
// integer raw exponent (mma_elements.h Scaled), so a product's significand
// is one exact float multiplication and its raw exponent one integer
// addition; aligning a term is a multiplication by a power of two built
// from its bits, and truncating it toward zero the float-to-integer
// conversion. The loops run over the columns of D, which the compiler
// turns into vector instructions. A column with a NaN or infinite term, or
// a result in f32's subnormal range, takes the term-by-term path
// (mma_term_by_term.h) that defines the model.

#include "mma_numerics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "mma_term_by_term.h"

namespace ptxsim::sim::semantics::mma {

namespace {

// An anchor below this had no nonzero term (zero's exponent is
// kZeroExponent; real raw exponents are above -300).
constexpr int kNoTerm = kZeroExponent / 2;
// A term more than 64 places below its unit is 0 whatever its significand
// (below 4); clamping the shift there keeps the power of two a normal
// float. As a biased float exponent:
constexpr int32_t kMinBiasedShift = 127 - 64;
// Terms summed in int32 before they join the int64 sum: each is below
// 2^(alignBits + 2) <= 2^27, so 16 of them stay below 2^31.
constexpr unsigned kChunk = 16;
// Columns computed side by side (DotColumns::n is a multiple).
constexpr unsigned kBlock = 8;

double powerOfTwo(int e) { return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52); }

// The aligned sums of one row: for each column c, anchor[c] is the largest
// raw exponent among the products a[k] b[k][c] and extra[c], and units[c]
// the sum of those terms in units of 2^(anchor[c] - alignBits), each
// truncated toward zero. A product's significand is below 4 and exact in
// a float, and its exponent at most the anchor, so its aligned value is
// below 2^(alignBits + 2): the scaling by a power of two is exact and the
// truncation is the conversion to int32.
struct RowSums {
  int32_t anchor[kMaxDotColumns];
  int64_t units[kMaxDotColumns];
};

// kBlock columns side by side, as the compiler's vector extension (8
// lanes: one AVX2 register, two SSE2 ones).
using Ints = int32_t __attribute__((vector_size(32)));
using Floats = float __attribute__((vector_size(32)));
static_assert(sizeof(Ints) / sizeof(int32_t) == kBlock);

// Where the host has AVX2 the blocks run in one register each with a
// native 32-bit max, about twice the SSE2 baseline; the clone is chosen
// once, when the program loads. A block's anchors and sums stay in
// registers across K.
[[gnu::target_clones("avx2", "default")]]
void alignedSums(int alignBits, DotOperand a, DotColumns b, unsigned k, DotOperand extra, RowSums& s) {
  unsigned n = b.n;
  for (unsigned c0 = 0; c0 < n; c0 += kBlock) {
    Ints anchor;
    std::memcpy(&anchor, extra.exponents + c0, sizeof anchor);
    for (unsigned i = 0; i < k; ++i) {
      Ints e;
      std::memcpy(&e, b.exponents + i * n + c0, sizeof e);
      e += a.exponents[i];
      anchor = anchor > e ? anchor : e;
    }
    // The biased float exponent of 2^(alignBits - anchor), less the term's.
    Ints bias = (127 + alignBits) - anchor;
    Ints extraShift;
    Floats extraSignificands;
    std::memcpy(&extraShift, extra.exponents + c0, sizeof extraShift);
    std::memcpy(&extraSignificands, extra.significands + c0, sizeof extraSignificands);
    extraShift += bias;
    extraShift = extraShift > kMinBiasedShift ? extraShift : kMinBiasedShift;
    const Ints extraUnits =
        __builtin_convertvector(extraSignificands * reinterpret_cast<Floats>(extraShift << 23), Ints);
    int64_t units[kBlock];
    for (unsigned j = 0; j < kBlock; ++j) units[j] = extraUnits[j];
    for (unsigned start = 0; start < k; start += kChunk) {
      Ints partial{};
      for (unsigned i = start; i < std::min(k, start + kChunk); ++i) {
        Ints shift;
        Floats significands;
        std::memcpy(&shift, b.exponents + i * n + c0, sizeof shift);
        std::memcpy(&significands, b.significands + i * n + c0, sizeof significands);
        shift += bias + a.exponents[i];
        shift = shift > kMinBiasedShift ? shift : kMinBiasedShift;
        auto scale = reinterpret_cast<Floats>(shift << 23);
        Floats term = a.significands[i] * significands * scale;
        partial += __builtin_convertvector(term, Ints);  // truncation toward zero
      }
      for (unsigned j = 0; j < kBlock; ++j) units[j] += partial[j];
    }
    for (unsigned j = 0; j < kBlock; ++j) {
      s.anchor[c0 + j] = anchor[j];
      s.units[c0 + j] = units[j];
    }
  }
}

// `units` (nonzero) x 2^lsb truncated toward zero to `bits` significant
// bits and f32, when the result is a normal f32 or infinite; false
// otherwise. In integers: the magnitude's top 24 bits (the rest truncated)
// are the significand, its length the exponent.
bool f32Result(int64_t units, int lsb, unsigned bits, uint32_t& result) {
  const uint32_t sign = units < 0 ? 0x80000000u : 0u;
  const uint64_t magnitude = units < 0 ? uint64_t{0} - static_cast<uint64_t>(units) : static_cast<uint64_t>(units);
  const int length = 64 - std::countl_zero(magnitude);
  const int exponent = lsb + length - 1;
  if (exponent >= 128) {
    result = 0x7f800000u | sign;
    return true;
  }
  if (exponent < -126) return false;
  uint64_t significand = length > 24 ? magnitude >> (length - 24) : magnitude << (24 - length);
  significand &= ~((uint64_t{1} << (24 - bits)) - 1);
  result = sign | static_cast<uint32_t>(exponent + 127) << 23 | (static_cast<uint32_t>(significand) & 0x7fffffu);
  return true;
}

// Column c of b as one operand, for the term-by-term path.
struct Column {
  float significands[kMaxDotK];
  int32_t exponents[kMaxDotK];
  Column(DotColumns b, unsigned k, unsigned c) {
    for (unsigned i = 0; i < k; ++i) {
      significands[i] = b.significands[i * b.n + c];
      exponents[i] = b.exponents[i * b.n + c];
    }
  }
  DotOperand operand() const { return {significands, exponents}; }
};

}  // namespace

void wgmmaDot(const WgmmaDotModel& model, DotOperand a, DotColumns b, unsigned k, DotOperand c, uint32_t* d) {
  RowSums s;
  alignedSums(model.alignBits, a, b, k, c, s);
  for (unsigned col = 0; col < b.n; ++col) {
    int anchor = s.anchor[col], lsb = anchor - model.alignBits;
    if (anchor >= kSpecialAnchor) {
      d[col] = wgmmaDotTermByTerm(model, a, Column(b, k, col).operand(), k, {c.significands[col], c.exponents[col]});
    } else if (anchor < kNoTerm || s.units[col] == 0) {
      d[col] = 0;  // only zeros, or a zero sum: +0, as mma_numerics.expected's "zero:" lines
    } else if (model.f16Result || !f32Result(s.units[col], lsb, model.resultBits, d[col])) {
      d[col] = wgmmaResult(model, static_cast<double>(s.units[col]) * powerOfTwo(lsb));
    }
  }
}

void fp8DotF32(DotOperand a, DotColumns b, unsigned k, const uint32_t* cBits, uint32_t* d) {
  unsigned kStep = k / 2;
  constexpr int kAlignBits = 25;
  unsigned n = b.n;
  // The first step's terms are the products alone; its results are terms
  // of the second.
  float carriedSignificands[kMaxDotColumns] = {};
  int32_t carriedExponents[kMaxDotColumns];
  std::fill(carriedExponents, carriedExponents + n, kZeroExponent);
  DotOperand carried{carriedSignificands, carriedExponents};
  bool special[kMaxDotColumns] = {};
  uint32_t products[kMaxDotColumns];  // a step's results as f32
  for (unsigned step = 0; step < 2; ++step) {
    RowSums s;
    DotColumns half{b.significands + step * kStep * n, b.exponents + step * kStep * n, n};
    alignedSums(kAlignBits, {a.significands + step * kStep, a.exponents + step * kStep}, half, kStep, carried, s);
    for (unsigned c = 0; c < n; ++c) {
      int anchor = s.anchor[c];
      special[c] = special[c] || anchor >= kSpecialAnchor;
      uint32_t bits = 0;
      if (!special[c] && anchor >= kNoTerm && s.units[c] != 0 &&
          !f32Result(s.units[c], anchor - kAlignBits, 24, bits)) {
        bits = f32TowardZero(static_cast<double>(s.units[c]) * powerOfTwo(anchor - kAlignBits));
      }
      products[c] = bits;
    }
    scaleAll(Elem::F32, products, n, carriedSignificands, carriedExponents);
  }
  for (unsigned c = 0; c < n; ++c) {
    if (special[c]) {
      d[c] = fp8DotF32TermByTerm(a, Column(b, k, c).operand(), k, cBits[c]);
      continue;
    }
    // The host's f32 addition is IEEE's, rounded to nearest even.
    float sum = std::bit_cast<float>(products[c]) + std::bit_cast<float>(cBits[c]);
    d[c] = std::isnan(sum) ? 0x7fffffffu : std::bit_cast<uint32_t>(sum);
  }
}

void fp8DotF16(DotOperand a, DotColumns b, unsigned k, const uint32_t* cBits, uint32_t* d) {
  const WgmmaDotModel step = wgmmaDotModel(false, true);
  unsigned n = b.n, half = k / 2;
  // The first step's accumulator is zero; the second's the first's result.
  float carriedSignificands[kMaxDotColumns] = {};
  int32_t carriedExponents[kMaxDotColumns];
  std::fill(carriedExponents, carriedExponents + n, kZeroExponent);
  uint32_t sums[kMaxDotColumns];
  for (unsigned s = 0; s < 2; ++s) {
    DotColumns part{b.significands + s * half * n, b.exponents + s * half * n, n};
    wgmmaDot(step, {a.significands + s * half, a.exponents + s * half}, part, half,
             {carriedSignificands, carriedExponents}, sums);
    scaleAll(Elem::F16, sums, n, carriedSignificands, carriedExponents);
  }
  // HADD2: both f16, so their sum is exact in a double and rounds once.
  for (unsigned c = 0; c < n; ++c)
    d[c] = wgmmaResult(step, valueOf(sums[c], Elem::F16) + valueOf(cBits[c], Elem::F16));
}

}  // namespace ptxsim::sim::semantics::mma
