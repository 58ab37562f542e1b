// wgmma.mma_async.sp with tf32 inputs as the H100 computes it: A is 1:2
// structured sparse and held compressed, half of K; a metadata field covers
// a pair of K positions and is 0b0100 (the first kept) or 0b1110 (the
// second), the two codes PTX allows for tf32 (wgmma_sparse.cu covers the
// 16- and 8-bit types).
//  - "where" cases: A's kept elements are all 1, and column n of B holds
//    the powers 2^0 .. 2^(w-1) over a window of w consecutive rows of K
//    (zero elsewhere), so D[m][n] is the bit mask of the K positions row m
//    selected in that window. The metadata is random (valid 2-of-4 codes)
//    and different in each of three cases per selector: together they tie
//    each (row, group) to the thread and the bits of its metadata.
//  - "random" cases: random values, for the numerics.
// Every case prints the hash of all 128 threads' D words, then warp 0's
// words (16 rows) in full.
// nvcc flags: -lcuda
#include "wgmma_probe.h"

namespace {

using namespace wgmma_probe;

uint64_t state = 0x3c6ef372fe94f82bull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

constexpr unsigned kAOffset = 0, kBOffset = 16384;

// The bits of the value 2^e (e >= 0, small) and of 1 in each input type.
uint32_t powerOfTwo(T t, unsigned e) {
  switch (t) {
    case T::F16: return (15 + e) << 10;
    case T::BF16: return (127 + e) << 7;
    case T::TF32: return (127 + e) << 23;
    case T::E4M3: return (7 + e) << 3;
    case T::E5M2: return (15 + e) << 2;
    default: return 1u << e;
  }
}

// Random valid tf32 metadata: each 4-bit field keeps the first (0b0100)
// or the second (0b1110) element of its pair.
std::vector<uint32_t> randomMetadata() {
  std::vector<uint32_t> meta(128);
  for (uint32_t& m : meta) {
    m = 0;
    for (int field = 0; field < 8; ++field) m |= (next() % 2 ? 0xeu : 0x4u) << (4 * field);
  }
  return meta;
}

Case sparseCase(std::string name, T d, T a, unsigned n, unsigned selector) {
  Case k;
  k.name = std::move(name);
  k.d = d, k.a = a, k.b = a, k.n = n;
  k.sparse = true;
  k.sparseSelector = selector;
  k.descA = descriptor(kAOffset, 128, 256, 0);
  // B: K-major, K of the sparse shape (twice the dense one): 64 bytes a
  // row, core matrices 128 bytes apart along K, 8 rows 512 bytes apart.
  k.descB = descriptor(kBOffset, 128, 512, 0);
  k.image.assign(kBOffset + 256 * 64, 0);
  k.c.assign(128 * dRegisters(k), 0);
  k.meta = randomMetadata();
  k.printAll = true;
  return k;
}

// B element (n, k) of the sparse shape's K in the layout of descB.
void putB(Case& k, unsigned n, unsigned kk, uint32_t v) {
  unsigned bytes = bitsOf(k.b) / 8, kb = kk * bytes;
  putElement(k.image, kBOffset + (n / 8) * 512 + (kb / 16) * 128 + (n % 8) * 16 + kb % 16, k.b, v);
}

}  // namespace

int main() {
  Device dev;
  CU_CHECK(setUp(dev));
  const T type = T::TF32;
  const unsigned window = 8, sparseK = 2 * kOf(type), bytes = 4;
  std::vector<Case> cases;
  for (unsigned selector = 0; selector < 2; ++selector) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      Case k = sparseCase("where f32.tf32 selector " + std::to_string(selector) + " " + std::to_string(repeat),
                          T::F32, type, 8, selector);
      for (unsigned o = 0; o < 64 * 32; o += bytes) putElement(k.image, kAOffset + o, type, powerOfTwo(type, 0));
      for (unsigned kk = 0; kk < sparseK; ++kk) putB(k, kk / window, kk, powerOfTwo(type, kk % window));
      cases.push_back(std::move(k));
    }
  }
  // Random values over a few binades; the "wide" cases over 50 binades,
  // one element in eight subnormal.
  for (unsigned selector = 0; selector < 2; ++selector) {
    for (int wide = 0; wide < 2; ++wide) {
      Case k = sparseCase(std::string("random f32.tf32 selector ") + std::to_string(selector) +
                              (wide ? " wide" : ""),
                          T::F32, type, 16, selector);
      auto randomValue = [&]() -> uint32_t {
        uint32_t sign = next() & 1, e = wide ? (next() % 8 == 0 ? 0 : 100 + next() % 50) : 125 + next() % 5;
        return (sign << 31) | (e << 23) | (next() & 0x7fffff);
      };
      for (unsigned o = 0; o < 64 * 32; o += bytes) putElement(k.image, kAOffset + o, type, randomValue());
      for (unsigned nn = 0; nn < 16; ++nn)
        for (unsigned kk = 0; kk < sparseK; ++kk) putB(k, nn, kk, randomValue());
      for (uint32_t& c : k.c) c = ((next() & 1) << 31) | ((126 + next() % 3) << 23) | (next() & 0x7fffff);
      cases.push_back(std::move(k));
    }
  }
  for (const Case& k : cases) {
    if (!runCase(k, dev)) return 1;
  }
  return 0;
}
