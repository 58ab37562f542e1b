// wgmma.mma_async as the H100 computes it. Each case writes one kernel in
// PTX (a warpgroup of 128 threads; one wgmma, or a chain of them along K),
// loads it with cuModuleLoadData and runs it on a shared-memory image the
// host filled byte by byte. The cases print every thread's D registers as
// raw words, so the output does not depend on any reading of the layouts:
//  - "map" cases: A from registers holding an identity (A[m][k] = 1 where
//    k = m mod 16), B from a descriptor over f16 elements whose values are
//    their own element numbers. D then names, for each of B's elements,
//    the shared-memory element the tensor core read: the layout of every
//    swizzle mode, transposed or not, and of the descriptor's offsets.
//  - "num" cases: numerics (N = 8, warp 0's words printed in full) for
//    every input and accumulator type, families of values as in
//    mma_numerics.cu and mma_fp8.cu.
//  - "form" cases: every shape's N, A from registers and from shared
//    memory, each swizzle, the transpose and negate flags, scale-d, the
//    integer and single-bit forms and chains along K (a hash of all 128
//    threads' words and the first words). The sparse form has its own
//    program, wgmma_sparse.cu.
// A case whose PTX the driver refuses prints the refusal.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "wgmma_probe.h"

namespace {

using namespace wgmma_probe;

uint64_t state = 0x2545f4914f6cdd1dull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

// A value family: exponents in [lo, hi] (unbiased), sign random.
struct Family {
  const char* name;
  int lo, hi;
  int cExponent;  // the accumulator's binade, or kNoC
  int special;    // 0 none, 1 subnormals and specials, 2 zero products and special accumulators
};
constexpr int kNoC = 1000;

uint32_t randomFloat(T t, int lo, int hi) {
  int e = lo + static_cast<int>(next() % static_cast<unsigned>(hi - lo + 1));
  uint32_t sign = next() & 1;
  switch (t) {
    case T::F16: return (sign << 15) | (uint32_t(e + 15) << 10) | (next() & 0x3ff);
    case T::BF16: return (sign << 15) | (uint32_t(e + 127) << 7) | (next() & 0x7f);
    case T::TF32:  // the 13 low bits hold garbage: the tensor core should not read them
    case T::F32: return (sign << 31) | (uint32_t(e + 127) << 23) | (next() & 0x7fffff);
    case T::E4M3: {
      uint32_t m = next() & 7, field = uint32_t(e + 7);
      if (field == 15 && m == 7) m = 6;
      return (sign << 7) | (field << 3) | m;
    }
    case T::E5M2: return (sign << 7) | (uint32_t(e + 15) << 2) | (next() & 3);
    default: return next();
  }
}

// A family's exponents clamped to what the type holds as normal numbers.
void rangeOf(T t, const Family& f, int& lo, int& hi) {
  int minE = -14, maxE = 15;
  if (t == T::BF16 || t == T::TF32) minE = -126, maxE = 127;
  if (t == T::E4M3) minE = -6, maxE = 8;
  if (t == T::E5M2) minE = -14, maxE = 15;
  lo = f.lo < minE ? minE : f.lo;
  hi = f.hi > maxE ? maxE : f.hi;
  if (lo > hi) lo = hi;
}

uint32_t subnormalOf(T t, uint32_t v) {
  switch (t) {
    case T::F16: return v & 0x83ff;
    case T::BF16: return v & 0x807f;
    case T::TF32: return v & 0x807fffff;
    case T::E4M3: return v & 0x87;
    case T::E5M2: return v & 0x83;
    default: return v;
  }
}

uint32_t nanOf(T t) {
  switch (t) {
    case T::F16: return 0x7e00;
    case T::BF16: return 0x7fc0;
    case T::TF32: return 0x7fc00000;
    case T::E4M3: return 0x7f;
    default: return 0x7e;
  }
}
uint32_t infOf(T t, bool negative) {
  switch (t) {
    case T::F16: return negative ? 0xfc00 : 0x7c00;
    case T::BF16: return negative ? 0xff80 : 0x7f80;
    case T::TF32: return negative ? 0xff800000 : 0x7f800000;
    case T::E4M3: return negative ? 0xfe : 0x7e;  // e4m3 has no infinity: its largest normal
    default: return negative ? 0xfc : 0x7c;
  }
}

// Random elements of `t` over image[from, to).
void fillRegion(std::vector<uint8_t>& image, unsigned from, unsigned to, T t, const Family& f) {
  int lo, hi;
  rangeOf(t, f, lo, hi);
  unsigned bytes = t == T::B1 || bitsOf(t) < 8 ? 1 : bitsOf(t) / 8;
  for (unsigned o = from; o + bytes <= to; o += bytes) {
    uint32_t v = (t == T::S8 || t == T::U8 || t == T::B1) ? next() : randomFloat(t, lo, hi);
    if (f.special == 1 && next() % 23 == 0) v = subnormalOf(t, v);
    if (f.special == 1 && next() % 97 == 0) v = next() & 1 ? nanOf(t) : infOf(t, next() & 1);
    putElement(image, o, t == T::B1 ? T::U8 : t, v);
  }
}

std::vector<uint32_t> accumulators(const Case& k, const Family& f) {
  unsigned dRegs = dRegisters(k);
  std::vector<uint32_t> c(128 * dRegs);
  const uint32_t specials[8] = {0x80000000u, 0, 0x00012345u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                0x80654321u, 0x80000000u};
  const uint16_t specialsF16[8] = {0x8000, 0, 0x0123, 0x7c00, 0xfc00, 0x7e00, 0x8321, 0x8000};
  for (unsigned i = 0; i < c.size(); ++i) {
    if (k.d == T::S32) {
      c[i] = f.cExponent == kNoC ? 0 : next();
    } else if (f.special == 2) {
      c[i] = k.d == T::F16 ? uint32_t(specialsF16[i % 8]) | uint32_t(specialsF16[(i + 3) % 8]) << 16
                           : specials[i % 8];
    } else if (f.cExponent == kNoC) {
      c[i] = 0;
    } else {
      int e = f.cExponent + static_cast<int>(next() % 3) - 1;
      if (k.d == T::F16) {
        int clamped = e < -14 ? -14 : e > 15 ? 15 : e;
        c[i] = randomFloat(T::F16, clamped, clamped) | randomFloat(T::F16, clamped, clamped) << 16;
      } else {
        c[i] = randomFloat(T::F32, e, e);
      }
    }
  }
  return c;
}

constexpr unsigned kAOffset = 0, kBOffset = 8192;

// A case with A and B in shared memory laid out without swizzling, K-major:
// core matrices of 8 rows x 16 bytes, LBO 128 (along K), SBO 256 (8 rows on).
Case plainCase(std::string name, T d, T a, T b, unsigned n, const Family& f) {
  Case k;
  k.name = std::move(name);
  k.d = d, k.a = a, k.b = b, k.n = n;
  k.image.assign(kBOffset + 256 * 32 * 2, 0);
  fillRegion(k.image, kAOffset, kAOffset + 64 * 32, a, f);
  fillRegion(k.image, kBOffset, kBOffset + n * 32, b, f);
  k.descA = descriptor(kAOffset, 128, 256, 0);
  k.descB = descriptor(kBOffset, 128, 256, 0);
  k.c = accumulators(k, f);
  return k;
}

// The layout probes: A holds an identity in registers; B's f16 elements
// hold their element numbers (mod 2048) from the B region's start.
Case mapCase(std::string name, unsigned n, uint64_t descB, unsigned transB, unsigned regionBytes) {
  Case k;
  k.name = std::move(name);
  k.n = n;
  k.aFromRegisters = true;
  k.descB = descB | descriptor(kBOffset, 0, 0, 0);
  k.transB = transB;
  k.scaleD = false;
  k.image.assign(kBOffset + regionBytes, 0);
  for (unsigned e = 0; e < regionBytes / 2; ++e) {
    // f16 of the integer e mod 2048 (exact).
    unsigned v = e % 2048;
    uint16_t h = 0;
    if (v != 0) {
      int exp = 31 - __builtin_clz(v);
      uint32_t mant = (v << (10 - exp)) & 0x3ff;
      h = static_cast<uint16_t>(((exp + 15) << 10) | mant);
    }
    putElement(k.image, kBOffset + 2 * e, T::F16, h);
  }
  std::vector<uint32_t> a(64 * 16);
  for (unsigned m = 0; m < 64; ++m) a[m * 16 + m % 16] = 0x3c00;
  k.aRegs = aRegisters(a, 16, T::F16, 1);
  k.c.assign(128 * dRegisters(k), 0);
  k.printIntegers = true;
  return k;
}

}  // namespace

int main() {
  Device dev;
  CU_CHECK(setUp(dev));
  std::vector<Case> cases;

  // Layouts of B: each swizzle mode (0 none, 1 128-byte, 2 64-byte, 3
  // 32-byte), K-major and transposed (N-major), with a few strides.
  struct MapForm {
    const char* name;
    unsigned swizzle, lbo, sbo, trans, n, region;
  };
  const MapForm maps[] = {
      {"none lbo128 sbo256", 0, 128, 256, 0, 32, 2048},
      {"none lbo256 sbo512", 0, 256, 512, 0, 16, 4096},
      {"none lbo512 sbo128", 0, 512, 128, 0, 16, 4096},
      {"none trans lbo128 sbo256", 0, 128, 256, 1, 32, 4096},
      {"none trans lbo256 sbo128", 0, 256, 128, 1, 32, 4096},
      {"none trans lbo1024 sbo128", 0, 1024, 128, 1, 16, 4096},
      {"sw128 sbo1024", 1, 16, 1024, 0, 32, 4096},
      {"sw128 lbo2048 sbo1024", 1, 2048, 1024, 0, 16, 4096},
      {"sw128 trans lbo8192 sbo1024", 1, 8192, 1024, 1, 64, 4096},
      {"sw128 trans lbo1024 sbo2048", 1, 1024, 2048, 1, 128, 8192},
      {"sw64 sbo512", 2, 16, 512, 0, 32, 4096},
      {"sw64 trans lbo512 sbo1024", 2, 512, 1024, 1, 64, 4096},
      {"sw64 trans lbo2048 sbo512", 2, 2048, 512, 1, 32, 4096},
      {"sw32 sbo256", 3, 16, 256, 0, 32, 4096},
      {"sw32 trans lbo256 sbo512", 3, 256, 512, 1, 32, 4096},
      {"sw32 trans lbo1024 sbo256", 3, 1024, 256, 1, 16, 4096},
  };
  for (const MapForm& m : maps) {
    cases.push_back(mapCase(std::string("map ") + m.name, m.n, descriptor(0, m.lbo, m.sbo, m.swizzle), m.trans,
                            m.region));
  }
  // The start address 128 bytes (and 512) into a 1024-byte swizzle pattern,
  // with and without the base offset field.
  cases.push_back(mapCase("map sw128 start+128", 16, descriptor(128, 16, 1024, 1), 0, 4096));
  cases.push_back(mapCase("map sw128 start+512 base1", 16, descriptor(512, 16, 1024, 1, 1), 0, 4096));
  cases.push_back(mapCase("map sw64 start+128", 16, descriptor(128, 16, 512, 2), 0, 4096));
  cases.push_back(mapCase("map none start+32", 16, descriptor(32, 128, 256, 0), 0, 4096));

  // Numerics: N = 8, A from registers (its layout known), B plain.
  const Family families[] = {
      {"one binade", 0, 0, kNoC, 0},      {"a few binades", -2, 2, kNoC, 0},
      {"all binades", -12, 12, kNoC, 0},  {"accumulator", -2, 2, 2, 0},
      {"large accumulator", -2, 2, 14, 0}, {"small accumulator", -2, 2, -12, 0},
      {"subnormals and specials", -4, 4, 0, 1}, {"special accumulators", -2, 2, 0, 2},
  };
  struct Types {
    T d, a, b;
  };
  const Types floatTypes[] = {
      {T::F32, T::F16, T::F16},   {T::F16, T::F16, T::F16},   {T::F32, T::BF16, T::BF16},
      {T::F32, T::TF32, T::TF32}, {T::F32, T::E4M3, T::E4M3}, {T::F32, T::E4M3, T::E5M2},
      {T::F32, T::E5M2, T::E4M3}, {T::F32, T::E5M2, T::E5M2}, {T::F16, T::E4M3, T::E4M3},
      {T::F16, T::E5M2, T::E5M2},
  };
  for (const Types& ty : floatTypes) {
    for (const Family& f : families) {
      for (int repeat = 0; repeat < 2; ++repeat) {
        Case k = plainCase(std::string("num ") + ptxName(ty.d) + "." + ptxName(ty.a) + "." + ptxName(ty.b) + " " +
                               f.name + " " + std::to_string(repeat),
                           ty.d, ty.a, ty.b, 8, f);
        // A from registers: the same random rows, given as a matrix.
        unsigned kk = kOf(ty.a), bytes = bitsOf(ty.a) / 8;
        std::vector<uint32_t> a(64 * kk);
        int lo, hi;
        rangeOf(ty.a, f, lo, hi);
        for (uint32_t& v : a) {
          v = randomFloat(ty.a, lo, hi);
          if (f.special == 1 && next() % 23 == 0) v = subnormalOf(ty.a, v);
          if (f.special == 1 && next() % 97 == 0) v = nanOf(ty.a);
          if (f.special == 2) v = (next() & 1) ? 0 : (bytes == 4 ? 0x80000000u : bytes == 2 ? 0x8000u : 0x80u);
        }
        k.aFromRegisters = true;
        k.aRegs = aRegisters(a, kk, ty.a, 1);
        k.printAll = true;
        cases.push_back(std::move(k));
      }
    }
  }

  // Forms: every N for f16 (A from shared memory), the other types at a
  // few N, with swizzles, flags, scale-d and chains.
  const Family mixed = {"mixed", -3, 3, 0, 0};
  for (unsigned n = 8; n <= 256; n += 8) {
    cases.push_back(plainCase("form f32.f16.f16 n" + std::to_string(n), T::F32, T::F16, T::F16, n, mixed));
  }
  const unsigned intNs[] = {8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256};
  for (unsigned n : intNs) {
    cases.push_back(plainCase("form s32.s8.u8 n" + std::to_string(n), T::S32, T::S8, T::U8, n, mixed));
  }
  const Types formTypes[] = {
      {T::F16, T::F16, T::F16},   {T::F32, T::BF16, T::BF16}, {T::F32, T::TF32, T::TF32},
      {T::F32, T::E4M3, T::E5M2}, {T::F16, T::E5M2, T::E4M3}, {T::S32, T::S8, T::S8},
      {T::S32, T::U8, T::U8},     {T::S32, T::U8, T::S8},     {T::S32, T::B1, T::B1},
  };
  const unsigned someNs[] = {8, 64, 136, 256};
  for (const Types& ty : formTypes) {
    for (unsigned n : someNs) {
      if ((ty.a == T::S8 || ty.a == T::U8 || ty.a == T::B1) && n == 136) continue;
      cases.push_back(plainCase(std::string("form ") + ptxName(ty.d) + "." + ptxName(ty.a) + "." + ptxName(ty.b) +
                                    " n" + std::to_string(n),
                                ty.d, ty.a, ty.b, n, mixed));
    }
  }
  // A from registers for each type that allows it.
  const Types registerTypes[] = {{T::F32, T::F16, T::F16},  {T::F32, T::BF16, T::BF16}, {T::F32, T::TF32, T::TF32},
                                 {T::F32, T::E4M3, T::E4M3}, {T::S32, T::S8, T::U8},    {T::S32, T::U8, T::U8}};
  for (const Types& ty : registerTypes) {
    Case k = plainCase(std::string("form registers ") + ptxName(ty.d) + "." + ptxName(ty.a) + "." + ptxName(ty.b),
                       ty.d, ty.a, ty.b, 64, mixed);
    std::vector<uint32_t> a(64 * kOf(ty.a));
    int lo, hi;
    rangeOf(ty.a, mixed, lo, hi);
    for (uint32_t& v : a) v = (ty.a == T::S8 || ty.a == T::U8) ? next() : randomFloat(ty.a, lo, hi);
    k.aFromRegisters = true;
    k.aRegs = aRegisters(a, kOf(ty.a), ty.a, 1);
    cases.push_back(std::move(k));
  }
  // Saturation: s8 x s8 sums far past the s32 range need 32 products of
  // 127 * 127 and a large accumulator.
  for (int sat = 0; sat < 2; ++sat) {
    Case k = plainCase(std::string("form s32.s8.s8 accumulator near the limit") + (sat ? " satfinite" : ""),
                       T::S32, T::S8, T::S8, 16, {"limit", 0, 0, 0, 0});
    for (unsigned o = 0; o < 64 * 32; ++o) k.image[kAOffset + o] = (o % 3) ? 0x7f : 0x80;
    for (unsigned o = 0; o < 16 * 32; ++o) k.image[kBOffset + o] = (o % 5) ? 0x7f : 0x81;
    for (unsigned i = 0; i < k.c.size(); ++i) k.c[i] = (i & 1) ? 0x7fffff00u : 0x80000100u;
    k.satfinite = sat != 0;
    cases.push_back(std::move(k));
  }
  // Swizzles and transposes of A and B from shared memory, f16 and bf16.
  struct Layout {
    const char* name;
    unsigned swizzle, lbo, sbo, trans;
  };
  const Layout layouts[] = {
      {"none", 0, 128, 256, 0},     {"sw128", 1, 16, 1024, 0},       {"sw64", 2, 16, 512, 0},
      {"sw32", 3, 16, 256, 0},      {"none trans", 0, 128, 256, 1},  {"sw128 trans", 1, 8192, 1024, 1},
      {"sw64 trans", 2, 4096, 512, 1}, {"sw32 trans", 3, 2048, 256, 1},
  };
  for (const Layout& la : layouts) {
    for (const Layout& lb : layouts) {
      if (la.swizzle != lb.swizzle && la.trans == lb.trans) continue;
      Case k = plainCase(std::string("form layouts A ") + la.name + ", B " + lb.name, T::F32, T::F16, T::F16, 64,
                         mixed);
      k.image.assign(32768, 0);
      fillRegion(k.image, 0, 32768, T::F16, mixed);
      k.descA = descriptor(kAOffset, la.lbo, la.sbo, la.swizzle);
      k.descB = descriptor(16384, lb.lbo, lb.sbo, lb.swizzle);
      k.transA = la.trans, k.transB = lb.trans;
      cases.push_back(std::move(k));
    }
  }
  for (const Layout& l : layouts) {
    Case k = plainCase(std::string("form layouts bf16 ") + l.name, T::F32, T::BF16, T::BF16, 128, mixed);
    k.image.assign(32768, 0);
    fillRegion(k.image, 0, 32768, T::BF16, mixed);
    k.descA = descriptor(kAOffset, l.lbo, l.sbo, l.swizzle);
    k.descB = descriptor(16384, l.lbo, l.sbo, l.swizzle);
    k.transA = k.transB = l.trans;
    cases.push_back(std::move(k));
  }
  for (const Layout& l : layouts) {
    if (l.trans) continue;
    const Types others[] = {{T::F32, T::TF32, T::TF32}, {T::F32, T::E4M3, T::E4M3}, {T::S32, T::S8, T::S8}};
    for (const Types& ty : others) {
      Case k = plainCase(std::string("form layouts ") + ptxName(ty.a) + " " + l.name, ty.d, ty.a, ty.b, 32, mixed);
      k.image.assign(32768, 0);
      fillRegion(k.image, 0, 32768, ty.a, mixed);
      k.descA = descriptor(kAOffset, l.lbo, l.sbo, l.swizzle);
      k.descB = descriptor(16384, l.lbo, l.sbo, l.swizzle);
      cases.push_back(std::move(k));
    }
  }
  // Flags: negated A and B, scale-d off.
  for (int flags = 0; flags < 4; ++flags) {
    Case k = plainCase("form flags f32.f16.f16 scale-a " + std::to_string(flags & 1 ? -1 : 1) + " scale-b " +
                           std::to_string(flags & 2 ? -1 : 1),
                       T::F32, T::F16, T::F16, 32, {"acc", -3, 3, 1, 0});
    k.scaleA = flags & 1 ? -1 : 1;
    k.scaleB = flags & 2 ? -1 : 1;
    cases.push_back(std::move(k));
  }
  {
    Case k = plainCase("form flags e4m3 scale-a -1", T::F32, T::E4M3, T::E4M3, 32, {"acc", -3, 3, 1, 0});
    k.scaleA = -1;
    cases.push_back(std::move(k));
    Case z = plainCase("form flags scale-d 0", T::F32, T::F16, T::F16, 32, {"acc", -3, 3, 1, 0});
    z.scaleD = false;
    cases.push_back(std::move(z));
    Case zi = plainCase("form flags s32 scale-d 0", T::S32, T::S8, T::S8, 32, {"acc", -3, 3, 1, 0});
    zi.scaleD = false;
    cases.push_back(std::move(zi));
  }
  // Chains along K: four wgmmas over a 64-element (f16) K, 128-byte swizzle,
  // the start address advanced 32 bytes each step, as CUTLASS's mainloops do.
  for (unsigned chain : {2u, 4u}) {
    Case k = plainCase("form chain " + std::to_string(chain) + " sw128 f32.f16.f16", T::F32, T::F16, T::F16, 128,
                       {"acc", -3, 3, 0, 0});
    k.image.assign(32768, 0);
    fillRegion(k.image, 0, 32768, T::F16, mixed);
    k.descA = descriptor(0, 16, 1024, 1);
    k.descB = descriptor(16384, 16, 1024, 1);
    k.chain = chain;
    cases.push_back(std::move(k));
    Case e = plainCase("form chain " + std::to_string(chain) + " sw64 f32.e4m3.e4m3", T::F32, T::E4M3, T::E4M3, 64,
                       {"acc", -3, 3, 0, 0});
    e.image.assign(32768, 0);
    fillRegion(e.image, 0, 32768, T::E4M3, mixed);
    e.descA = descriptor(0, 16, 512, 2);
    e.descB = descriptor(16384, 16, 512, 2);
    e.chain = chain;
    cases.push_back(std::move(e));
  }
  for (const Case& k : cases) {
    if (!runCase(k, dev)) return 1;
  }
  return 0;
}
