// wgmma.mma_async.sp as the H100 computes it: A is 2:4 structured sparse
// (1:2 for tf32) and held compressed, half of K, with metadata registers
// naming where each kept element sits in its group of four along K, and a
// sparsity selector naming which threads' metadata counts.
//  - "where" cases: A's kept elements are all 1, and column n of B holds
//    the powers 2^0 .. 2^(w-1) over a window of w consecutive rows of K
//    (zero elsewhere), so D[m][n] is the bit mask of the K positions row m
//    selected in that window. The metadata is random (valid 2-of-4 codes)
//    and different in each of three cases per selector: together they tie
//    each (row, group) to the thread and the bits of its metadata.
//  - "random" cases: random values, for the numerics.
// tf32's cases are built (their random draws keep the others' values as
// recorded) but not run: their metadata used codes PTX leaves undefined for
// tf32; wgmma_sparse_tf32.cu runs tf32 with the two codes it allows.
// Every case prints the hash of all 128 threads' D words, then warp 0's
// words (16 rows) in full.
// nvcc flags: -lcuda
#include "wgmma_sparse_probe.h"

namespace {

using namespace wgmma_sparse_probe;

uint64_t state = 0xbb67ae8584caa73bull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

// Random valid metadata: each 4-bit field names two distinct positions of
// a group of four, the lower first (for tf32, whose groups are pairs
// holding one element, the same codes name positions 0-1 and 2-3 of two
// pairs).
std::vector<uint32_t> randomMetadata() {
  const uint32_t codes[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
  std::vector<uint32_t> meta(128);
  for (uint32_t& m : meta) {
    m = 0;
    for (int field = 0; field < 8; ++field) m |= codes[next() % 6] << (4 * field);
  }
  return meta;
}

}  // namespace

int main() {
  Device dev;
  CU_CHECK(setUp(dev));
  struct Form {
    T d, a;
    unsigned window, selectors;
  };
  // A window is as many powers of two as the type holds (s8: 2^0..2^6);
  // the selectors are those ptxas accepts for the type.
  const Form forms[] = {{T::F32, T::F16, 8, 2}, {T::F32, T::BF16, 8, 2}, {T::F32, T::TF32, 8, 2},
                        {T::F32, T::E4M3, 8, 1}, {T::S32, T::S8, 7, 1}};
  std::vector<Case> cases;
  for (const Form& f : forms) {
    unsigned sparseK = 2 * kOf(f.a);
    unsigned n = (sparseK + f.window - 1) / f.window;
    n = (n + 7) / 8 * 8;
    for (unsigned selector = 0; selector < f.selectors; ++selector) {
      for (int repeat = 0; repeat < 3; ++repeat) {
        Case k = sparseCase(std::string("where ") + ptxName(f.d) + "." + ptxName(f.a) + " selector " +
                                std::to_string(selector) + " " + std::to_string(repeat),
                            f.d, f.a, n, selector, randomMetadata());
        unsigned bytes = bitsOf(f.a) / 8;
        for (unsigned o = 0; o < 64 * 32; o += bytes) putElement(k.image, kAOffset + o, f.a, powerOfTwo(f.a, 0));
        for (unsigned kk = 0; kk < sparseK; ++kk) putB(k, kk / f.window, kk, powerOfTwo(f.a, kk % f.window));
        cases.push_back(std::move(k));
      }
    }
  }
  // Random values over a few binades (integers over their range).
  for (const Form& f : forms) {
    for (unsigned selector = 0; selector < f.selectors; ++selector) {
      Case k = sparseCase(std::string("random ") + ptxName(f.d) + "." + ptxName(f.a) + " selector " +
                              std::to_string(selector),
                          f.d, f.a, 16, selector, randomMetadata());
      unsigned bytes = bitsOf(f.a) / 8;
      auto randomValue = [&]() -> uint32_t {
        uint32_t sign = next() & 1, e = next() % 5;
        switch (f.a) {
          case T::F16: return (sign << 15) | ((13 + e) << 10) | (next() & 0x3ff);
          case T::BF16: return (sign << 15) | ((125 + e) << 7) | (next() & 0x7f);
          case T::TF32: return (sign << 31) | ((125 + e) << 23) | (next() & 0x7fffff);
          case T::E4M3: return (sign << 7) | ((5 + e) << 3) | (next() & 7);
          default: return next();
        }
      };
      for (unsigned o = 0; o < 64 * 32; o += bytes) putElement(k.image, kAOffset + o, f.a, randomValue());
      for (unsigned nn = 0; nn < 16; ++nn)
        for (unsigned kk = 0; kk < 2 * kOf(f.a); ++kk) putB(k, nn, kk, randomValue());
      for (uint32_t& c : k.c) c = f.d == T::S32 ? next() : (((next() & 1) << 31) | ((126 + next() % 3) << 23) | (next() & 0x7fffff));
      cases.push_back(std::move(k));
    }
  }
  for (const Case& k : cases) {
    if (k.a == T::TF32) continue;
    if (!runCase(k, dev)) return 1;
  }
  return 0;
}
