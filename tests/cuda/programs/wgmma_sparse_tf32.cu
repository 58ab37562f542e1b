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
#include "wgmma_sparse_probe.h"

namespace {

using namespace wgmma_sparse_probe;

uint64_t state = 0x3c6ef372fe94f82bull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
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
                          T::F32, type, 8, selector, randomMetadata());
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
                          T::F32, type, 16, selector, randomMetadata());
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
