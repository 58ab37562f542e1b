// End to end: the kernels of tests/cuda/e2e that exercise CUDA language
// features (packed halves, device printf, recursion, dynamic shared memory,
// function pointers) against host references, each on 1 and 4 host threads
// and with the finest warp interleaving.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "e2e_harness.h"

namespace ptxsim::e2e {
namespace {

uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// --- binary16 on the host, written from the IEEE 754 format ---------------

long double halfValue(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  long double magnitude = exponent == 0
                              ? std::ldexp(static_cast<long double>(fraction), -24)
                              : std::ldexp(static_cast<long double>(1024 + fraction), exponent - 25);
  if (exponent == 0x1f) magnitude = std::numeric_limits<long double>::infinity();  // no NaN inputs here
  return sign ? -magnitude : magnitude;
}

// Rounds an exactly known value to binary16, to nearest with ties to even:
// the scaled value v / ulp is exact (a power-of-two scaling), so rounding it
// to an integer is the one rounding.
uint16_t roundToHalf(long double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  long double a = std::fabs(v);
  if (a >= 65520.0L) return sign | 0x7c00;  // 65520 is halfway from 65504 to 2^16: ties go to even, i.e. inf
  int e = 0;
  std::frexp(a, &e);                  // a in [2^(e-1), 2^e)
  int binade = std::max(e - 1, -14);  // subnormals share the smallest normal binade's ulp
  long double scaled = std::ldexp(a, 10 - binade);
  long double q = std::floor(scaled), rest = scaled - q;
  if (rest > 0.5L || (rest == 0.5L && std::fmod(q, 2.0L) == 1.0L)) q += 1;
  auto units = static_cast<uint32_t>(q);                         // in [0, 2048]
  if (units < 1024) return sign | static_cast<uint16_t>(units);  // subnormal (binade -14 only)
  if (units == 2048) {                                           // carried into the next binade
    units = 1024;
    ++binade;
  }
  return sign | static_cast<uint16_t>(((binade + 15) << 10) | (units - 1024));
}

// Finite halves only (no inf or NaN): every bit pattern with exponent < 31.
uint16_t randomFiniteHalf(std::mt19937& rng) {
  for (;;) {
    auto h = static_cast<uint16_t>(rng());
    if (((h >> 10) & 0x1f) != 0x1f) return h;
  }
}

uint32_t pack(uint16_t lo, uint16_t hi) { return lo | (uint32_t{hi} << 16); }

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the half-precision references need a 64-bit significand to be exact");

TEST(E2eKernels, HalfTwoAxpyWithHfma2RoundsOnce) {
  // Exactness of the reference: a product of two halves has 22 significant
  // bits between 2^-48 and 2^32; adding a half (bits down to 2^-24) spans at
  // most 56 bits, which the 64-bit long double holds exactly. roundToHalf
  // then applies the fused operation's single rounding.
  const int n = 3000;
  std::mt19937 rng(29);
  std::vector<uint32_t> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = pack(randomFiniteHalf(rng), randomFiniteHalf(rng));
    y[i] = pack(randomFiniteHalf(rng), randomFiniteHalf(rng));
  }
  const uint16_t aLo = 0x3e00 /* 1.5 */, aHi = 0xb5cd /* about -0.3625 */;
  x[0] = pack(0x7bff, 0x7bff);  // 65504: a.lo * x overflows to +inf
  y[0] = pack(0x7bff, 0x0000);
  x[1] = pack(0x0400, 0x0001);  // tiny products: subnormal results
  y[1] = pack(0x0000, 0x8000);
  x[2] = pack(0x4000, 0x3c00);  // 1.5 * 2 - 3 = +0 exactly
  y[2] = pack(0xc200, 0x0000);
  std::vector<uint32_t> expected(n);
  for (int i = 0; i < n; ++i) {
    auto lane = [&](uint16_t a, uint16_t xv, uint16_t yv) {
      return roundToHalf(halfValue(a) * halfValue(xv) + halfValue(yv));
    };
    auto low = [](uint32_t v) { return static_cast<uint16_t>(v); };
    auto high = [](uint32_t v) { return static_cast<uint16_t>(v >> 16); };
    expected[i] = pack(lane(aLo, low(x[i]), low(y[i])), lane(aHi, high(x[i]), high(y[i])));
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/half2");
    uint64_t dx = device.upload(x), dy = device.upload(y);
    launchOrThrow(device, *module, "h2_axpy", {ceilDiv(n, 256)}, {256}, 0,
                  KernelArgs().add(pack(aLo, aHi)).add(dx).add(dy).add(n));
    std::vector<uint32_t> got = device.read<uint32_t>(dy, n);
    for (int i = 0; i < n; ++i)
      EXPECT_EQ(got[i], expected[i]) << i << std::hex << " x=" << x[i] << " y=" << y[i];
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(E2eKernels, HalfTwoMulSubMaxAndConversionToFloat) {
  // Each operation rounds once (the kernel uses the .rn forms, which ptxas
  // may not fuse), and each exact intermediate (a product of halves, a
  // difference of halves) fits a long double exactly. This reference and
  // the axpy one were checked against an H100: no differences.
  const int n = 2000;
  std::mt19937 rng(31);
  std::vector<uint32_t> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = pack(randomFiniteHalf(rng), randomFiniteHalf(rng));
    y[i] = pack(randomFiniteHalf(rng), randomFiniteHalf(rng));
  }
  std::vector<uint32_t> expected(n);
  std::vector<float> expectedSums(n), expectedLarger(n);
  for (int i = 0; i < n; ++i) {
    uint16_t r[2];
    for (int k = 0; k < 2; ++k) {
      auto xv = static_cast<uint16_t>(x[i] >> (16 * k)), yv = static_cast<uint16_t>(y[i] >> (16 * k));
      uint16_t product = roundToHalf(halfValue(xv) * halfValue(yv));
      r[k] = roundToHalf(halfValue(product) - halfValue(xv));  // inf - finite stays inf
    }
    expected[i] = pack(r[0], r[1]);
    auto lo = static_cast<float>(halfValue(r[0])), hi = static_cast<float>(halfValue(r[1]));
    expectedLarger[i] = std::max(lo, hi);
    expectedSums[i] = lo + hi;
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/half2");
    uint64_t dx = device.upload(x), dy = device.upload(y), dout = device.malloc(n * 4),
             dlarger = device.malloc(n * 2), dsums = device.malloc(n * 4);
    launchOrThrow(device, *module, "h2_mix", {ceilDiv(n, 128)}, {128}, 0,
                  KernelArgs().add(dx).add(dy).add(dout).add(dlarger).add(dsums).add(n));
    std::vector<uint32_t> got = device.read<uint32_t>(dout, n);
    std::vector<uint16_t> larger = device.read<uint16_t>(dlarger, n);
    std::vector<float> sums = device.read<float>(dsums, n);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(got[i], expected[i]) << i << std::hex << " x=" << x[i] << " y=" << y[i];
      // Compared as values: the sign of max(+0, -0) is left open by the ISA.
      EXPECT_EQ(static_cast<float>(halfValue(larger[i])), expectedLarger[i]) << i;
      EXPECT_TRUE(sameFloat(sums[i], expectedSums[i])) << i << ": " << sums[i] << " vs " << expectedSums[i];
    }
    Bytes out;
    appendBytes(out, got);
    appendBytes(out, larger);
    appendBytes(out, sums);
    return out;
  });
}

// --- device printf --------------------------------------------------------

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

TEST(E2eKernels, DevicePrintfPrintsEachWarpsLanesInOrder) {
  const uint32_t grid = 3, block = 64;
  const int base = 7;
  // What CUDA prints: one line per printing thread, a warp's lanes in
  // order. The lines' text was checked against an H100; the order of blocks
  // is unspecified there (it printed block 1, 2, then 0), and the simulator
  // orders by block. %f of a float prints the value promoted to double.
  std::string expected;
  for (uint32_t b = 0; b < grid; ++b) {
    for (uint32_t t = 0; t < block; ++t) {
      int lane = static_cast<int>(t % 32);
      if (lane >= 2) continue;
      int warp = static_cast<int>(t / 32), id = static_cast<int>(b * block + t);
      long big = 10000000000L * (id + 1) + base;
      expected +=
          format("block %d warp %d lane %d: u=%u x=%x f=%f s=%s c=%c ld=%ld\n", static_cast<int>(b), warp,
                 lane, static_cast<unsigned>(id * 3000000000u), static_cast<unsigned>(0xabc0 + id),
                 static_cast<double>(0.25f * static_cast<float>(id) - 1.0f), lane == 0 ? "even" : "odd",
                 'A' + id % 26, -big);
    }
  }
  auto outcomes = runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/printf");
    sim::LaunchResult result =
        launchOrThrow(device, *module, "print_values", {grid}, {block}, 0, KernelArgs().add(base));
    // Under other schedules a warp's lanes print in another order.
    if (runsInLockstep(device)) EXPECT_EQ(result.printfOutput, expected);
    EXPECT_EQ(sortedLines(result.printfOutput), sortedLines(expected));
    return Bytes{};
  });
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(outcomes[k].printf, expected);
}

TEST(E2eKernels, DevicePrintfWidthsPrecisionsAndDoubles) {
  const double value = 3.14159265358979;
  std::string expected = format("[%5d] [%-4d] [%08.3f] [%e] [%g] [%5.1f%%] [%llu]\n", -42, 7, value, value,
                                value, 12.25, 18446744073709551615ull);
  auto outcomes = runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/printf");
    launchOrThrow(device, *module, "print_padded", {2}, {32}, 0, KernelArgs().add(value));
    return Bytes{};
  });
  for (const RunOutcome& outcome : outcomes) EXPECT_EQ(outcome.printf, expected);
}

// --- recursion, dynamic shared memory, function pointers -------------------

TEST(E2eKernels, RecursiveDeviceFunctionsWithPerLaneDepths) {
  const int n = 200;
  std::mt19937 rng(37);
  std::vector<uint32_t> depth(n);
  for (uint32_t& d : depth)
    d = static_cast<uint32_t>(rng() % 19);  // fib(18) = 2584: ~8000 calls for the deepest lane
  depth[0] = 0;
  depth[1] = 1;
  depth[2] = 20;  // 20! = 2432902008176640000 still fits 64 bits
  std::vector<uint32_t> fibs(21);
  std::vector<uint64_t> facts(21);
  fibs[0] = 0;
  fibs[1] = 1;
  facts[0] = facts[1] = 1;
  for (int k = 2; k <= 20; ++k) {
    fibs[k] = fibs[k - 1] + fibs[k - 2];
    facts[k] = facts[k - 1] * k;
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/recursion");
    uint64_t ddepth = device.upload(depth), dfibs = device.malloc(n * 4), dfacts = device.malloc(n * 8);
    launchOrThrow(device, *module, "recursion", {ceilDiv(n, 64)}, {64}, 0,
                  KernelArgs().add(ddepth).add(dfibs).add(dfacts).add(n));
    std::vector<uint32_t> gotFibs = device.read<uint32_t>(dfibs, n);
    std::vector<uint64_t> gotFacts = device.read<uint64_t>(dfacts, n);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(gotFibs[i], fibs[depth[i]]) << i << " depth " << depth[i];
      EXPECT_EQ(gotFacts[i], facts[depth[i]]) << i << " depth " << depth[i];
    }
    Bytes out;
    appendBytes(out, gotFibs);
    appendBytes(out, gotFacts);
    return out;
  });
}

TEST(E2eKernels, DynamicSharedMemoryCarvedIntoTwoArrays) {
  const int n = 1000;
  const uint32_t block = 128, blocks = ceilDiv(n, block);  // the last block is partial
  std::mt19937 rng(41);
  std::vector<float> in(n);
  std::vector<uint32_t> keys(n);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>(rng() % 100000) / 7.0f;
    keys[i] = static_cast<uint32_t>(rng());
  }
  // The kernel's exact behaviour, including the partial last block: there a
  // slot past n holds 0 and its mirror image inside n receives that 0.
  std::vector<float> expectedReversed(n);
  std::vector<uint32_t> expectedSums(n);
  for (int j = 0; j < n; ++j) {
    int base = j / block * block, mirror = base + (block - 1 - (j - base));
    expectedReversed[j] = mirror < n ? in[mirror] : 0.0f;
    int t = j - base;
    uint32_t left = t > 0 ? keys[j - 1] : 0u;
    uint32_t right = t + 1 < static_cast<int>(block) && j + 1 < n ? keys[j + 1] : 0u;
    expectedSums[j] = left + right;
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/dynamic_shared");
    uint64_t din = device.upload(in), dkeys = device.upload(keys), dreversed = device.malloc(n * 4),
             dsums = device.malloc(n * 4);
    sim::LaunchResult result =
        launchOrThrow(device, *module, "reverse_and_neighbours", {blocks}, {block}, block * 8,
                      KernelArgs().add(din).add(dreversed).add(dkeys).add(dsums).add(n));
    EXPECT_EQ(result.stats.dynamicSharedBytes, block * 8);
    std::vector<float> reversed = device.read<float>(dreversed, n);
    std::vector<uint32_t> sums = device.read<uint32_t>(dsums, n);
    EXPECT_EQ(reversed, expectedReversed);
    EXPECT_EQ(sums, expectedSums);
    Bytes out;
    appendBytes(out, reversed);
    appendBytes(out, sums);
    return out;
  });
}

TEST(E2eKernels, DynamicSharedMemoryBeyondTheLimitFailsToLaunch) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = test::loadCudaProgram(device, "e2e/dynamic_shared");
  uint64_t buffer = device.malloc(1024);
  sim::LaunchResult result =
      device.launch(*module, "reverse_and_neighbours", {1}, {32}, 16u << 20,
                    KernelArgs().add(buffer).add(buffer).add(buffer).add(buffer).add(8));
  EXPECT_EQ(result.error.kind, sim::LaunchErrorKind::OutOfResources) << result.error.message;
}

TEST(E2eKernels, FunctionPointerTableWithDivergentTargets) {
  const int n = 777;
  std::mt19937 rng(43);
  std::vector<int32_t> a(n), b(n), selector(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(rng());
    b[i] = static_cast<int32_t>(rng());
    selector[i] = static_cast<int32_t>(rng());  // only the low two bits pick the entry
  }
  std::vector<int32_t> expected(n);
  for (int i = 0; i < n; ++i) {
    auto ua = static_cast<uint32_t>(a[i]), ub = static_cast<uint32_t>(b[i]);  // wrap-around as on the GPU
    uint32_t r = 0;
    switch (selector[i] & 3) {
      case 0: r = ua + ub; break;
      case 1: r = ua - ub; break;
      case 2: r = ua * ub; break;
      default: r = (ua ^ ub) << 1; break;
    }
    expected[i] = static_cast<int32_t>(r);
  }
  runInThreeSettings([&](Device& device) {
    auto module = test::loadCudaProgram(device, "e2e/function_pointers");
    uint64_t da = device.upload(a), db = device.upload(b), dsel = device.upload(selector),
             dout = device.malloc(n * 4);
    launchOrThrow(device, *module, "apply_ops", {ceilDiv(n, 96)}, {96}, 0,
                  KernelArgs().add(da).add(db).add(dsel).add(dout).add(n));
    std::vector<int32_t> got = device.read<int32_t>(dout, n);
    EXPECT_EQ(got, expected);
    Bytes out;
    appendBytes(out, got);
    return out;
  });
}

}  // namespace
}  // namespace ptxsim::e2e
