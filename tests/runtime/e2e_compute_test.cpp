// End to end: the numeric kernels of tests/cuda/e2e (vector add, reductions,
// tiled sgemm, transpose, histogram, scans, bitonic sort, n-body) against
// host references written here, each on 1 and 4 host threads and with the
// finest warp interleaving.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "e2e_harness.h"

namespace ptxsim::e2e {
namespace {

std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

std::vector<uint32_t> randomU32(size_t n, uint32_t seed,
                                uint32_t max = std::numeric_limits<uint32_t>::max()) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> dist(0, max);
  std::vector<uint32_t> v(n);
  for (uint32_t& x : v) x = dist(rng);
  return v;
}

uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

TEST(E2eKernels, VectorAddIsExactIncludingThePartialLastBlock) {
  const int n = 100003;
  std::vector<float> a = randomFloats(n, 1, -100.0f, 100.0f), b = randomFloats(n, 2, -1.0f, 1.0f);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/vector_add");
    uint64_t da = device.upload(a), db = device.upload(b), dc = device.malloc(n * sizeof(float));
    launchOrThrow(device, *module, "vector_add", {ceilDiv(n, 256)}, {256}, 0,
                  KernelArgs().add(da).add(db).add(dc).add(n));
    std::vector<float> c = device.read<float>(dc, n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
    Bytes out;
    appendBytes(out, c);
    return out;
  });
}

// The host replay of the kernel's shuffle tree: __shfl_down_sync returns a
// lane's own value when lane + offset is past the warp.
template <typename T>
T warpReduce(std::vector<T> v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    std::vector<T> next(32);
    for (int l = 0; l < 32; ++l) next[l] = v[l] + v[l + offset < 32 ? l + offset : l];
    v = next;
  }
  return v[0];
}

// The kernel's exact order of additions: per-thread grid-stride sums, warp
// trees, then warp 0's tree over the warp sums. Replaying it makes the f32
// result bit-exact (no tolerance needed).
template <typename T>
std::vector<T> blockReduceReference(const std::vector<T>& in, uint32_t grid, uint32_t block) {
  std::vector<T> out(grid);
  const uint32_t warps = ceilDiv(block, 32);
  for (uint32_t b = 0; b < grid; ++b) {
    std::vector<T> warpSums(32, T(0));
    for (uint32_t w = 0; w < warps; ++w) {
      std::vector<T> lanes(32, T(0));
      for (uint32_t l = 0; l < 32 && w * 32 + l < block; ++l) {
        T acc = 0;
        for (size_t i = b * block + w * 32 + l; i < in.size(); i += size_t{grid} * block) acc += in[i];
        lanes[l] = acc;
      }
      warpSums[w] = warpReduce(lanes);
    }
    out[b] = warpReduce(warpSums);
  }
  return out;
}

TEST(E2eKernels, ReductionWithWarpShufflesU32) {
  const int n = (1 << 16) + 123;
  const uint32_t grid = 7, block = 256;
  std::vector<uint32_t> in = randomU32(n, 3);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/reduction");
    uint64_t din = device.upload(in), dout = device.malloc(grid * 4);
    launchOrThrow(device, *module, "reduce_u32", {grid}, {block}, 0, KernelArgs().add(din).add(dout).add(n));
    std::vector<uint32_t> got = device.read<uint32_t>(dout, grid);
    EXPECT_EQ(got, blockReduceReference(in, grid, block));
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

TEST(E2eKernels, ReductionWithWarpShufflesF32InTheKernelsOrder) {
  const int n = 50000;
  const uint32_t grid = 5, block = 192;  // six warps: warp 0's second tree sees zeros past lane 5
  std::vector<float> in = randomFloats(n, 4);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/reduction");
    uint64_t din = device.upload(in), dout = device.malloc(grid * 4);
    launchOrThrow(device, *module, "reduce_f32", {grid}, {block}, 0, KernelArgs().add(din).add(dout).add(n));
    std::vector<float> got = device.read<float>(dout, grid);
    std::vector<float> expected = blockReduceReference(in, grid, block);
    for (uint32_t b = 0; b < grid; ++b) EXPECT_EQ(got[b], expected[b]) << b;
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

// The kernel's exact arithmetic: tiles padded with zeros, one fmaf per k.
std::vector<float> sgemmReference(const std::vector<float>& A, const std::vector<float>& B, int M, int N,
                                  int K) {
  std::vector<float> C(size_t(M) * N);
  for (int row = 0; row < M; ++row) {
    for (int col = 0; col < N; ++col) {
      float acc = 0.0f;
      for (int t = 0; t < K; t += 16) {
        for (int k = 0; k < 16; ++k) {
          float a = t + k < K ? A[row * K + t + k] : 0.0f;
          float b = t + k < K ? B[(t + k) * N + col] : 0.0f;
          acc = std::fma(a, b, acc);
        }
      }
      C[size_t(row) * N + col] = acc;
    }
  }
  return C;
}

void checkSgemm(int M, int N, int K, uint32_t seed) {
  std::vector<float> A = randomFloats(size_t(M) * K, seed), B = randomFloats(size_t(K) * N, seed + 1);
  std::vector<float> expected = sgemmReference(A, B, M, N, K);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/sgemm");
    uint64_t dA = device.upload(A), dB = device.upload(B), dC = device.malloc(size_t(M) * N * 4);
    sim::LaunchResult result =
        launchOrThrow(device, *module, "sgemm_tiled", {ceilDiv(N, 16), ceilDiv(M, 16)}, {16, 16}, 0,
                      KernelArgs().add(dA).add(dB).add(dC).add(M).add(N).add(K));
    // Counted from the source: every warp (two rows of a tile) reaches both
    // barriers of every K tile; a warp issues the (branch-guarded) store
    // when one of its lanes has row < M and col < N.
    uint64_t warps = 0, storingWarps = 0;
    for (uint32_t by = 0; by < ceilDiv(M, 16); ++by)
      for (uint32_t bx = 0; bx < ceilDiv(N, 16); ++bx)
        for (uint32_t w = 0; w < 8; ++w) {
          ++warps;
          bool stores = false;
          for (uint32_t lane = 0; lane < 32; ++lane) {
            uint32_t row = by * 16 + w * 2 + lane / 16, col = bx * 16 + lane % 16;
            stores = stores || (row < uint32_t(M) && col < uint32_t(N));
          }
          storingWarps += stores ? 1 : 0;
        }
    if (runsInLockstep(device)) {
      EXPECT_EQ(result.stats.barriers, warps * 2 * ceilDiv(K, 16));
      EXPECT_EQ(result.stats.globalStoreInstructions, storingWarps);
    }
    std::vector<float> C = device.read<float>(dC, size_t(M) * N);
    for (size_t i = 0; i < C.size(); ++i) EXPECT_EQ(C[i], expected[i]) << "row " << i / N << " col " << i % N;
    Bytes out;
    appendBytes(out, C);
    return out;
  });
}

TEST(E2eKernels, TiledSgemmSquareIsBitExact) { checkSgemm(64, 64, 64, 5); }

TEST(E2eKernels, TiledSgemmRaggedEdgesIsBitExact) { checkSgemm(72, 40, 57, 7); }

TEST(E2eKernels, TransposeThroughPaddedSharedTiles) {
  const int rows = 70, cols = 45;
  std::vector<float> in = randomFloats(size_t(rows) * cols, 9);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/transpose");
    uint64_t din = device.upload(in), dout = device.malloc(in.size() * 4);
    device.memset(dout, 0xff, in.size() * 4);
    sim::LaunchResult result =
        launchOrThrow(device, *module, "transpose", {ceilDiv(cols, 32), ceilDiv(rows, 32)}, {32, 8}, 0,
                      KernelArgs().add(din).add(dout).add(rows).add(cols));
    // Counted from the source: a warp is one tile row, and every tile
    // column has valid lanes, so a warp's guarded load (and shared store)
    // issues once per valid input row of its tile: `rows` per tile column.
    // Likewise a store per valid output row: `cols` per tile row. Every
    // warp (6 blocks of 8) passes the one barrier.
    const uint64_t tileCols = ceilDiv(cols, 32), tileRows = ceilDiv(rows, 32);
    if (runsInLockstep(device)) {
      EXPECT_EQ(result.stats.globalLoadInstructions, tileCols * rows);
      EXPECT_EQ(result.stats.sharedStoreInstructions, tileCols * rows);
      EXPECT_EQ(result.stats.globalStoreInstructions, tileRows * cols);
      EXPECT_EQ(result.stats.sharedLoadInstructions, tileRows * cols);
      EXPECT_EQ(result.stats.barriers, tileCols * tileRows * 8);
    }
    std::vector<float> got = device.read<float>(dout, in.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) EXPECT_EQ(got[c * rows + r], in[r * cols + c]) << r << "," << c;
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

TEST(E2eKernels, HistogramWithSharedThenGlobalAtomics) {
  const int n = 100003;
  // Half the bytes from four values, so many lanes of a warp hit one bin.
  std::mt19937 rng(11);
  std::vector<uint8_t> data(n);
  for (uint8_t& d : data) d = static_cast<uint8_t>(rng() % 2 == 0 ? rng() % 256 : 40 + rng() % 4);
  std::vector<uint32_t> expected(256, 0);
  for (uint8_t d : data) ++expected[d];
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/histogram");
    uint64_t ddata = device.upload(data), dbins = device.malloc(256 * 4);
    device.memset(dbins, 0, 256 * 4);
    launchOrThrow(device, *module, "histogram256", {13}, {192}, 0, KernelArgs().add(ddata).add(dbins).add(n));
    std::vector<uint32_t> bins = device.read<uint32_t>(dbins, 256);
    EXPECT_EQ(bins, expected);
    Bytes out;
    appendBytes(out, bins);
    return out;
  });
}

std::vector<uint32_t> exclusiveScan(const std::vector<uint32_t>& in) {
  std::vector<uint32_t> out(in.size());
  uint32_t sum = 0;  // wraps modulo 2^32, as the kernel's u32 adds do
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = sum;
    sum += in[i];
  }
  return out;
}

TEST(E2eKernels, BlellochScanOfAWholeArrayInThreeLaunches) {
  const int n = 5000;
  const uint32_t block = 128, width = 2 * block, blocks = ceilDiv(n, width);  // 20 blocks
  const uint32_t sumsBlock = 16;                                              // 2 * 16 >= 20 block sums
  std::vector<uint32_t> in = randomU32(n, 13);
  std::vector<uint32_t> expected = exclusiveScan(in);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/scan");
    uint64_t din = device.upload(in), dout = device.malloc(n * 4), dsums = device.malloc(blocks * 4),
             doffsets = device.malloc(blocks * 4);
    launchOrThrow(device, *module, "scan_blocks", {blocks}, {block}, width * 4,
                  KernelArgs().add(din).add(dout).add(dsums).add(n));
    std::vector<uint32_t> sums = device.read<uint32_t>(dsums, blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
      uint32_t total = 0;
      for (uint32_t i = b * width; i < std::min<uint32_t>(n, (b + 1) * width); ++i) total += in[i];
      EXPECT_EQ(sums[b], total) << b;
    }
    launchOrThrow(device, *module, "scan_blocks", {1}, {sumsBlock}, 2 * sumsBlock * 4,
                  KernelArgs().add(dsums).add(doffsets).add(uint64_t{0}).add(int(blocks)));
    launchOrThrow(device, *module, "add_offsets", {ceilDiv(n, block)}, {block}, 0,
                  KernelArgs().add(dout).add(doffsets).add(n));
    std::vector<uint32_t> got = device.read<uint32_t>(dout, n);
    EXPECT_EQ(got, expected);
    Bytes out;
    appendBytes(out, sums);
    appendBytes(out, got);
    return out;
  });
}

TEST(E2eKernels, WarpInclusiveScanWithShflUp) {
  const int n = 1000;  // the last warp is partial: its missing lanes contribute zeros
  std::vector<uint32_t> in = randomU32(n, 17);
  std::vector<uint32_t> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = in[i] + (i % 32 == 0 ? 0u : expected[i - 1]);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/warp_scan");
    uint64_t din = device.upload(in), dout = device.malloc(n * 4);
    launchOrThrow(device, *module, "warp_scan", {ceilDiv(n, 128)}, {128}, 0,
                  KernelArgs().add(din).add(dout).add(n));
    std::vector<uint32_t> got = device.read<uint32_t>(dout, n);
    EXPECT_EQ(got, expected);
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

TEST(E2eKernels, BitonicSortOfEachBlockInSharedMemory) {
  const uint32_t block = 256, blocks = 6;
  std::vector<uint32_t> keys = randomU32(block * blocks, 19, 999);  // many duplicates
  std::vector<uint32_t> expected = keys;
  for (uint32_t b = 0; b < blocks; ++b)
    std::sort(expected.begin() + b * block, expected.begin() + (b + 1) * block);
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/bitonic");
    uint64_t dkeys = device.upload(keys);
    launchOrThrow(device, *module, "bitonic_sort", {blocks}, {block}, block * 4, KernelArgs().add(dkeys));
    std::vector<uint32_t> got = device.read<uint32_t>(dkeys, keys.size());
    EXPECT_EQ(got, expected);
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

struct Float4 {
  float x, y, z, w;
};

TEST(E2eKernels, NBodyStepAgainstADoublePrecisionReference) {
  const int n = 300;  // not a multiple of the block: the last tile is partial
  const uint32_t block = 128;
  const float dt = 0.01f, softening2 = 0.01f;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> coord(-1.0f, 1.0f), mass(0.5f, 1.5f);
  std::vector<Float4> pos(n), vel(n);
  for (int i = 0; i < n; ++i) {
    pos[i] = {coord(rng), coord(rng), coord(rng), mass(rng)};
    vel[i] = {coord(rng), coord(rng), coord(rng), 0.0f};
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/nbody");
    uint64_t dpos = device.upload(pos), dvel = device.upload(vel), dnewPos = device.malloc(n * 16),
             dnewVel = device.malloc(n * 16);
    launchOrThrow(device, *module, "nbody_step", {ceilDiv(n, block)}, {block}, block * 16,
                  KernelArgs().add(dpos).add(dvel).add(dnewPos).add(dnewVel).add(n).add(dt).add(softening2));
    std::vector<Float4> newPos = device.read<Float4>(dnewPos, n), newVel = device.read<Float4>(dnewVel, n);
    // Tolerance: each interaction term d * m / r^3 carries rsqrt.approx's
    // relative error (at most 2^-22.9 per the PTX ISA, so ~3 * 2^-22.9 for
    // r^-3) plus about ten f32 roundings (u = 2^-24 each): under 1e-6
    // relative. The f32 sum of n terms adds at most (n - 1) * u of the sum
    // of their magnitudes. So |a - a_ref| <= (1e-6 + n * 2^-24) * sum|term|;
    // the velocity and position updates add a few roundings of their own.
    const double u = std::ldexp(1.0, -24);
    for (int i = 0; i < n; ++i) {
      double a[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
      for (int j = 0; j < n; ++j) {
        double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y, double(pos[j].z) - pos[i].z};
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening2;
        double s = pos[j].w / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) {
          a[k] += d[k] * s;
          magnitude[k] += std::fabs(d[k] * s);
        }
      }
      const float v0[3] = {vel[i].x, vel[i].y, vel[i].z}, p0[3] = {pos[i].x, pos[i].y, pos[i].z};
      const float v1[3] = {newVel[i].x, newVel[i].y, newVel[i].z},
                  p1[3] = {newPos[i].x, newPos[i].y, newPos[i].z};
      for (int k = 0; k < 3; ++k) {
        double tolA = (1e-6 + n * u) * magnitude[k];
        double v = v0[k] + a[k] * dt;
        double tolV = dt * tolA + 4 * u * (std::fabs(v0[k]) + std::fabs(a[k] * dt));
        double p = p0[k] + v * dt;
        double tolP = dt * tolV + 4 * u * (std::fabs(p0[k]) + std::fabs(v * dt));
        EXPECT_NEAR(v1[k], v, tolV) << "body " << i << " axis " << k;
        EXPECT_NEAR(p1[k], p, tolP) << "body " << i << " axis " << k;
      }
      EXPECT_EQ(newPos[i].w, pos[i].w);
      EXPECT_EQ(newVel[i].w, vel[i].w);
    }
    Bytes out;
    appendBytes(out, newPos);
    appendBytes(out, newVel);
    return out;
  });
}

}  // namespace
}  // namespace ptxsim::e2e
