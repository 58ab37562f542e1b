// How the tensor core adds fp8 products: mma.sync m16n8k32 with e4m3 and
// e5m2 inputs (every pairing) and f32 accumulators, the form cuBLASLt's
// fp8 kernels use. Each case is a whole 16x8x32 tile of operands drawn from
// a family (a deterministic generator), and prints D's 128 words in hex:
// what sim/src/semantics/mma_numerics.cpp's fp8 model is fitted to and held
// to. The families: values of one binade and of all binades, with and
// without an accumulator, accumulators far larger and far smaller than the
// products, near-cancelling sums, subnormals, NaN and infinity mixed in,
// and zero sums and special accumulators (signed zeros, a subnormal, the
// infinities, NaN).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "check.h"

struct Tile {
  uint8_t a[16][32];  // row-major
  uint8_t b[32][8];   // b[k][n]
  uint32_t c[16][8];  // f32 bits
};

enum Types { kE4M3E4M3, kE4M3E5M2, kE5M2E4M3, kE5M2E5M2 };

template <int kTypes>
__device__ void mma(const uint32_t (&a)[4], const uint32_t (&b)[2], const uint32_t (&c)[4], uint32_t (&d)[4]) {
#define MMA_FP8(TA, TB)                                                                                         \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TA "." TB ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, " \
               "{%10,%11,%12,%13};"                                                                             \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                                 \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),         \
                 "r"(c[2]), "r"(c[3]))
  if constexpr (kTypes == kE4M3E4M3) MMA_FP8("e4m3", "e4m3");
  if constexpr (kTypes == kE4M3E5M2) MMA_FP8("e4m3", "e5m2");
  if constexpr (kTypes == kE5M2E4M3) MMA_FP8("e5m2", "e4m3");
  if constexpr (kTypes == kE5M2E5M2) MMA_FP8("e5m2", "e5m2");
#undef MMA_FP8
}

// The PTX ISA's fragments for m16n8k32 with 8-bit inputs: register r of A
// holds row g + 8 (r & 1), columns (r / 2) 16 + 4t .. + 3; register r of B
// column g, rows 16 r + 4t .. + 3; accumulator i row g + 8 (i / 2),
// column 2t + (i & 1).
template <int kTypes>
__global__ void tileMma(const Tile* tile, uint32_t* d) {
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  uint32_t a[4], b[2], c[4], out[4];
  for (int r = 0; r < 4; ++r) {
    a[r] = 0;
    for (int e = 0; e < 4; ++e) a[r] |= uint32_t(tile->a[g + 8 * (r & 1)][(r >> 1) * 16 + 4 * t + e]) << (8 * e);
  }
  for (int r = 0; r < 2; ++r) {
    b[r] = 0;
    for (int e = 0; e < 4; ++e) b[r] |= uint32_t(tile->b[16 * r + 4 * t + e][g]) << (8 * e);
  }
  for (int i = 0; i < 4; ++i) c[i] = tile->c[g + 8 * (i >> 1)][2 * t + (i & 1)];
  mma<kTypes>(a, b, c, out);
  for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = out[i];
}

namespace {

uint64_t state = 0x9e3779b97f4a7c15ull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

// An fp8 value with a random sign and mantissa and an exponent field in
// [lo, hi]; e5m2 has 2 mantissa bits, e4m3 3. NaN patterns are avoided.
uint8_t fp8(bool e5m2, unsigned lo, unsigned hi) {
  unsigned manBits = e5m2 ? 2 : 3;
  unsigned exponent = lo + next() % (hi - lo + 1);
  unsigned mantissa = next() & ((1u << manBits) - 1);
  if (!e5m2 && exponent == 15 && mantissa == 7) mantissa = 6;  // 0x7f is e4m3's NaN
  return static_cast<uint8_t>(((next() & 1) << 7) | (exponent << manBits) | mantissa);
}

uint32_t f32(int exponent) {  // random sign and significand, 2^exponent scale
  return ((next() & 1) << 31) | (uint32_t(exponent + 127) << 23) | (next() & 0x7fffff);
}

struct Family {
  const char* name;
  unsigned lo, hi;  // exponent fields of A and B (e4m3 biased; e5m2 shifted by 8)
  int c;            // the accumulator's binade (f32), or kNoC
};
constexpr int kNoC = 1000;

void fill(Tile& tile, bool aE5m2, bool bE5m2, const Family& f, int special) {
  auto field = [](bool e5m2, unsigned v) { return e5m2 ? v + 8 : v; };
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 32; ++k) tile.a[i][k] = fp8(aE5m2, field(aE5m2, f.lo), field(aE5m2, f.hi));
  for (int k = 0; k < 32; ++k)
    for (int n = 0; n < 8; ++n) tile.b[k][n] = fp8(bE5m2, field(bE5m2, f.lo), field(bE5m2, f.hi));
  for (int i = 0; i < 16; ++i)
    for (int n = 0; n < 8; ++n) tile.c[i][n] = f.c == kNoC ? 0 : f32(f.c + static_cast<int>(next() % 3) - 1);
  if (special == 1) {
    // Near-cancelling rows: the second half of each row of A negates the
    // first half, one element nudged.
    for (int i = 0; i < 16; ++i) {
      for (int k = 0; k < 16; ++k) tile.a[i][k + 16] = tile.a[i][k] ^ 0x80;
      tile.a[i][16 + i] ^= 1;
    }
    for (int k = 0; k < 16; ++k)
      for (int n = 0; n < 8; ++n) tile.b[k + 16][n] = tile.b[k][n];
  } else if (special == 2) {
    // Subnormals (exponent field 0) in A, and NaN / infinity in a few places.
    for (int i = 0; i < 16; ++i) tile.a[i][(i * 5) % 32] &= 0x87;
    tile.a[3][7] = aE5m2 ? 0x7c : 0x7f;   // e5m2 +inf, e4m3 NaN
    tile.b[9][5] = bE5m2 ? 0xfc : 0xff;   // e5m2 -inf, e4m3 NaN
    tile.b[20][2] = bE5m2 ? 0x7d : 0x7f;  // NaN
  } else if (special == 3) {
    // Rows 0-7: A zero (signs mixed), so every product is zero; rows 8-15:
    // products that cancel exactly. Each row's accumulators: -0, +0, a
    // subnormal, +inf, -inf, NaN, a negative subnormal, -0.
    const uint32_t accumulators[8] = {0x80000000u, 0x00000000u, 0x00012345u, 0x7f800000u,
                                      0xff800000u, 0x7fc00000u, 0x80654321u, 0x80000000u};
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 32; ++k) tile.a[i][k] = (k & 1) ? 0x80 : 0x00;
    for (int i = 8; i < 16; ++i)
      for (int k = 0; k < 16; ++k) tile.a[i][k + 16] = tile.a[i][k] ^ 0x80;
    for (int k = 0; k < 16; ++k)
      for (int n = 0; n < 8; ++n) tile.b[k + 16][n] = tile.b[k][n];
    for (int i = 0; i < 16; ++i)
      for (int n = 0; n < 8; ++n) tile.c[i][n] = accumulators[n];
  }
}

}  // namespace

int main() {
  const Family families[] = {
      {"one binade", 7, 7, kNoC},      {"a few binades", 5, 9, kNoC},   {"all binades", 1, 14, kNoC},
      {"accumulator", 5, 9, 2},        {"large accumulator", 5, 9, 14}, {"small accumulator", 5, 9, -12},
      {"near-cancelling", 4, 10, kNoC}, {"subnormals and specials", 3, 11, 0},
      {"zero sums and special accumulators", 5, 9, 0},
  };
  const char* typeNames[] = {"e4m3.e4m3", "e4m3.e5m2", "e5m2.e4m3", "e5m2.e5m2"};
  Tile* tile = nullptr;
  uint32_t* d = nullptr;
  CHECK(cudaMallocManaged(&tile, sizeof(Tile)));
  CHECK(cudaMallocManaged(&d, 128 * sizeof(uint32_t)));
  for (int types = 0; types < 4; ++types) {
    for (int f = 0; f < 9; ++f) {
      for (int repeat = 0; repeat < 2; ++repeat) {
        int special = f == 6 ? 1 : f == 7 ? 2 : f == 8 ? 3 : 0;
        fill(*tile, types >= kE5M2E4M3, types == kE4M3E5M2 || types == kE5M2E5M2, families[f], special);
        switch (types) {
          case kE4M3E4M3: tileMma<kE4M3E4M3><<<1, 32>>>(tile, d); break;
          case kE4M3E5M2: tileMma<kE4M3E5M2><<<1, 32>>>(tile, d); break;
          case kE5M2E4M3: tileMma<kE5M2E4M3><<<1, 32>>>(tile, d); break;
          default: tileMma<kE5M2E5M2><<<1, 32>>>(tile, d); break;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::printf("%s %s %d:", typeNames[types], families[f].name, repeat);
        for (int i = 0; i < 128; ++i) std::printf(" %08x", d[i]);
        std::printf("\n");
      }
    }
  }
  return 0;
}
