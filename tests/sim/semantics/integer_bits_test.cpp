// Bit-manipulation semantics against host references written independently
// of the handlers: popc, clz, bfind, brev, bfe, bfi, fns, szext, bmsk,
// dp4a, dp2a.

#include <gtest/gtest.h>

#include <cstdint>

#include "lane_op_runner.h"

namespace ptxsim {
namespace {

using test::edgeValues;
using test::low;
using test::runLaneOp;

std::vector<std::array<uint64_t, 3>> singles(unsigned bits, uint32_t seed) {
  std::vector<std::array<uint64_t, 3>> in;
  for (uint64_t v : edgeValues(bits, seed)) in.push_back({v, 0, 0});
  return in;
}

unsigned bitAt(uint64_t v, unsigned i) { return static_cast<unsigned>((v >> i) & 1); }

// The low `bits` bits of the first `count` lanes' results.
std::vector<uint64_t> firstLanes(const test::LaneOpRun& r, size_t count, unsigned bits) {
  std::vector<uint64_t> v;
  for (size_t i = 0; i < count; ++i) v.push_back(low(r[i], bits));
  return v;
}

TEST(IntegerBitSemantics, PopcClzBrev) {
  for (unsigned bits : {32u, 64u}) {
    auto in = singles(bits, bits);
    std::string b = "b" + std::to_string(bits);
    auto popc = runLaneOp({"u32", b, b, b}, "popc." + b + " %d, %a;", in);
    auto clz = runLaneOp({"u32", b, b, b}, "clz." + b + " %d, %a;", in);
    auto brev = runLaneOp({b, b, b, b}, "brev." + b + " %d, %a;", in);
    for (unsigned i = 0; i < 32; ++i) {
      uint64_t v = in[i][0];
      unsigned ones = 0, leading = 0;
      uint64_t reversed = 0;
      for (unsigned k = 0; k < bits; ++k) {
        ones += bitAt(v, k);
        reversed |= uint64_t{bitAt(v, k)} << (bits - 1 - k);
      }
      while (leading < bits && bitAt(v, bits - 1 - leading) == 0) ++leading;
      EXPECT_EQ(popc[i], ones) << b << i;
      EXPECT_EQ(clz[i], leading) << b << i;
      EXPECT_EQ(low(brev[i], bits), reversed) << b << i;
    }
  }
}

TEST(IntegerBitSemantics, BfindFindsTheTopNonSignBit) {
  for (unsigned bits : {32u, 64u}) {
    for (bool isSigned : {false, true}) {
      auto in = singles(bits, 100 + bits);
      std::string ty = (isSigned ? "s" : "u") + std::to_string(bits);
      auto pos = runLaneOp({"u32", ty, ty, ty}, "bfind." + ty + " %d, %a;", in);
      auto shift = runLaneOp({"u32", ty, ty, ty}, "bfind.shiftamt." + ty + " %d, %a;", in);
      for (unsigned i = 0; i < 32; ++i) {
        uint64_t v = in[i][0];
        bool negative = isSigned && bitAt(v, bits - 1) != 0;
        int found = -1;
        for (int k = static_cast<int>(bits) - 1; k >= 0 && found < 0; --k) {
          if (bitAt(v, static_cast<unsigned>(k)) != (negative ? 1u : 0u)) found = k;
        }
        EXPECT_EQ(pos[i], found < 0 ? 0xffffffffu : static_cast<uint32_t>(found)) << ty << i;
        EXPECT_EQ(shift[i], found < 0 ? 0xffffffffu : static_cast<uint32_t>(bits - 1 - found)) << ty << i;
      }
    }
  }
}

// bfe with positions and lengths past the width: .32 reads their low 8 bits
// (the ISA's pseudocode); .64, which ptxas emulates with 64-bit funnel
// shifts on sm_90, reads all 32 bits, so a position of 64 or more extracts
// nothing (H100 conformance records). The sign of a signed field is its top
// extracted bit.
uint64_t bfeReference(unsigned bits, bool isSigned, uint64_t a, uint32_t rawPos, uint32_t rawLen) {
  if (bits == 32) {
    unsigned pos = rawPos & 0xff, len = rawLen & 0xff;
    // Bits [pos, pos+len) that exist, then the sign (or 0) above them.
    unsigned have = pos >= bits ? 0 : std::min(len, bits - pos);
    uint64_t field = have == 0 ? 0 : low(a >> pos, have);
    bool sign = false;
    if (isSigned && len != 0) sign = bitAt(a, std::min(pos + len - 1, bits - 1)) != 0;
    if (sign) field |= low(~uint64_t{0}, bits) & ~low(~uint64_t{0}, have);
    return field;
  }
  // 64-bit: bit i < len is a's bit pos + i, or past bit 63 the sign fill of
  // an arithmetic shift; then a signed field's top bit fills the rest.
  uint64_t r = 0;
  for (uint64_t i = 0; i < 64 && i < rawLen; ++i) {
    uint64_t from = uint64_t{rawPos} + i;
    unsigned bit = from < 64 ? bitAt(a, static_cast<unsigned>(from)) : (isSigned ? bitAt(a, 63) : 0u);
    r |= uint64_t{bit} << i;
  }
  if (isSigned && rawLen >= 1 && rawLen <= 64 && bitAt(r, rawLen - 1) != 0) {
    for (uint64_t i = rawLen; i < 64; ++i) r |= uint64_t{1} << i;
  }
  return r;
}

TEST(IntegerBitSemantics, BfeExtractsAndExtends) {
  const uint32_t positions[] = {0, 1, 7, 31, 32, 40, 63, 64, 255, 256 + 3, 0x80000000};
  const uint32_t lengths[] = {0, 1, 8, 24, 32, 33, 64, 200, 256 + 4, 0x80000000};
  for (unsigned bits : {32u, 64u}) {
    for (bool isSigned : {false, true}) {
      std::vector<std::array<uint64_t, 3>> in;
      uint64_t value = 0xf0e1d2c3b4a59687ull;
      for (uint32_t p : positions) {
        for (uint32_t l : lengths) in.push_back({value ^ (uint64_t{p & 0xffff} << 20), p, l});
      }
      std::string ty = (isSigned ? "s" : "u") + std::to_string(bits);
      for (size_t first = 0; first < in.size(); first += 32) {
        std::vector<std::array<uint64_t, 3>> chunk(in.begin() + first, in.begin() + std::min(in.size(), first + 32));
        auto r = runLaneOp({ty, ty, "u32", "u32"}, "bfe." + ty + " %d, %a, %b, %c;", chunk);
        for (unsigned i = 0; i < chunk.size(); ++i) {
          uint32_t pos = static_cast<uint32_t>(chunk[i][1]), len = static_cast<uint32_t>(chunk[i][2]);
          uint64_t expected = bfeReference(bits, isSigned, low(chunk[i][0], bits), pos, len);
          EXPECT_EQ(low(r[i], bits), expected) << ty << " pos " << pos << " len " << len;
        }
      }
    }
  }
}

// Hand-derived .64 values from the H100 conformance records.
TEST(IntegerBitSemantics, Bfe64ReadsTheWholePositionAndLength) {
  std::vector<std::array<uint64_t, 3>> in = {{0x7fffffffffffffffull, 0x363f8217, 3},
                                             {0xffffffffffffffffull, 1, 0x80000000},
                                             {0x8000000000000000ull, 2, 0x80000000},
                                             {0x1, 0x80000000, 1}};
  EXPECT_EQ(firstLanes(runLaneOp({"u64", "u64", "u32", "u32"}, "bfe.u64 %d, %a, %b, %c;", in), in.size(), 64),
            (std::vector<uint64_t>{0, 0x7fffffffffffffffull, 0x2000000000000000ull, 0}));
  in = {{0x8000000000000000ull, 0x80000000, 4}, {0x8000000000000000ull, 60, 0x80000000}, {0x0f, 0, 4}};
  EXPECT_EQ(firstLanes(runLaneOp({"s64", "s64", "u32", "u32"}, "bfe.s64 %d, %a, %b, %c;", in), in.size(), 64),
            (std::vector<uint64_t>{~uint64_t{0}, 0xfffffffffffffff8ull, ~uint64_t{0}}));
}

TEST(IntegerBitSemantics, BfiInsertsTheLowBitsOfA) {
  const uint32_t positions[] = {0, 4, 31, 32, 63, 64, 300, 0x80000000};
  const uint32_t lengths[] = {0, 1, 8, 32, 40, 64, 257, 0x80000000};
  for (unsigned bits : {32u, 64u}) {
    std::vector<std::array<uint64_t, 3>> in;
    for (uint32_t p : positions) {
      for (uint32_t l : lengths) in.push_back({p, l, 0});
    }
    std::string b = "b" + std::to_string(bits);
    const uint64_t a = 0x123456789abcdef1ull, base = 0xf0f0f0f0f0f0f0f0ull;
    for (size_t first = 0; first < in.size(); first += 32) {
      std::vector<std::array<uint64_t, 3>> chunk(in.begin() + first, in.begin() + std::min(in.size(), first + 32));
      std::string text = "{ .reg ." + b + " x, y; mov." + b + " x, " + std::to_string(low(a, bits)) + "; mov." + b +
                         " y, " + std::to_string(low(base, bits)) + "; bfi." + b + " %d, x, y, %a, %b; }";
      auto r = runLaneOp({b, "u32", "u32", "u32"}, text, chunk);
      for (unsigned i = 0; i < chunk.size(); ++i) {
        uint64_t expected = 0;
        if (bits == 32) {
          unsigned pos = chunk[i][0] & 0xff, len = chunk[i][1] & 0xff;
          unsigned have = pos >= bits ? 0 : std::min(len, bits - pos);
          uint64_t fieldMask = have == 0 ? 0 : low(~uint64_t{0}, have) << pos;
          expected = (low(base, bits) & ~fieldMask) | ((a << pos) & fieldMask);
        } else {
          // .64 (ptxas's funnel shifts): bit i is a's bit i - pos where
          // pos <= i < pos + len, with the whole 32-bit pos and len.
          for (uint64_t k = 0; k < 64; ++k) {
            bool inField = k >= chunk[i][0] && k - chunk[i][0] < chunk[i][1];
            expected |= uint64_t{inField ? bitAt(a, static_cast<unsigned>(k - chunk[i][0])) : bitAt(base, k)}
                        << k;
          }
        }
        EXPECT_EQ(low(r[i], bits), expected) << b << " pos " << chunk[i][0] << " len " << chunk[i][1];
      }
    }
  }
}

TEST(IntegerBitSemantics, FnsFindsTheNthSetBit) {
  // The ISA's examples, then a sweep against a counting reference.
  std::vector<std::array<uint64_t, 3>> in = {
      {0xaaaaaaaa, 3, 1}, {0xaaaaaaaa, 3, 0xffffffff}, {0xaaaaaaaa, 2, 1}, {0xaaaaaaaa, 2, 0xffffffff}};
  uint32_t mask = 0x80f00105u;
  for (uint32_t base : {0u, 5u, 20u, 31u}) {
    for (int32_t offset : {0, 1, 2, -2, 7, -7}) in.push_back({mask, base, static_cast<uint32_t>(offset)});
  }
  in.push_back({0, 0, 1});
  in.push_back({0xffffffff, 0, 32});
  auto r = runLaneOp({"b32", "b32", "u32", "s32"}, "fns.b32 %d, %a, %b, %c;", in);
  EXPECT_EQ(r[0], 3u);
  EXPECT_EQ(r[1], 3u);
  EXPECT_EQ(r[2], 3u);
  EXPECT_EQ(r[3], 1u);
  for (unsigned i = 4; i < in.size(); ++i) {
    uint32_t m = static_cast<uint32_t>(in[i][0]), base = static_cast<uint32_t>(in[i][1]);
    int64_t offset = static_cast<int32_t>(in[i][2]);
    uint32_t expected = 0xffffffffu;
    if (offset == 0) {
      if (bitAt(m, base)) expected = base;
    } else {
      // The set bits at or beyond base in the offset's direction, counted.
      int64_t seen = 0;
      for (int64_t p = base; p >= 0 && p < 32; p += offset > 0 ? 1 : -1) {
        if (bitAt(m, static_cast<unsigned>(p)) && ++seen == (offset > 0 ? offset : -offset)) {
          expected = static_cast<uint32_t>(p);
          break;
        }
      }
    }
    EXPECT_EQ(r[i], expected) << i;
  }
}

// Outside the ISA's definition, what ptxas's fns sequence gives on sm_90
// (H100 conformance records): "not found" for a base above 31, whatever the
// offset, and bit 0 for the offset 0x80000000, whatever the mask and base.
TEST(IntegerBitSemantics, FnsOutsideTheIsaFollowsTheH100) {
  std::vector<std::array<uint64_t, 3>> in = {{0xffffffff, 32, 0},
                                             {0xffffffff, 32, 1},
                                             {0xffffffff, 0xffffffff, 0xffffffff},
                                             {0x1, 0x80000000, 0x2},
                                             {0xffffffff, 0x7fffffff, 0x7fffffff},
                                             {0x0, 0, 0x80000000},
                                             {0xffffffff, 31, 0x80000000},
                                             {0x12345678, 0x10, 0x80000000},
                                             {0xffffffff, 40, 0x80000000}};
  EXPECT_EQ(firstLanes(runLaneOp({"b32", "b32", "u32", "s32"}, "fns.b32 %d, %a, %b, %c;", in), in.size(), 32),
            (std::vector<uint64_t>{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0, 0}));
}

TEST(IntegerBitSemantics, SzextAndBmskWrapAndClamp) {
  const uint32_t amounts[] = {0, 1, 5, 16, 31, 32, 33, 63, 64, 200, 0xffffffff};
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({amounts[i % 11], amounts[(i * 7 + 3) % 11], 0});
  const uint32_t value = 0x9a5b3cd6u;
  for (bool clamp : {false, true}) {
    std::string mode = clamp ? "clamp" : "wrap";
    auto zs = runLaneOp({"u32", "u32", "u32", "u32"}, "szext." + mode + ".u32 %d, " + std::to_string(value) + ", %a;", in);
    auto ss = runLaneOp({"s32", "s32", "u32", "u32"}, "szext." + mode + ".s32 %d, " + std::to_string(value) + ", %b;", in);
    auto bm = runLaneOp({"b32", "u32", "u32", "u32"}, "bmsk." + mode + ".b32 %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      uint32_t a = static_cast<uint32_t>(in[i][0]), b = static_cast<uint32_t>(in[i][1]);
      auto width = [&](uint32_t n) { return clamp ? std::min<uint32_t>(n, 32) : n % 32; };
      auto extend = [&](uint32_t n, bool isSigned) -> uint32_t {
        if (n == 0) return 0;
        if (n >= 32) return value;
        uint32_t field = value & ((1u << n) - 1);
        if (isSigned && ((field >> (n - 1)) & 1)) field |= ~((1u << n) - 1);
        return field;
      };
      EXPECT_EQ(zs[i], extend(width(a), false)) << mode << " N " << a;
      EXPECT_EQ(low(ss[i], 32), extend(width(b), true)) << mode << " N " << b;
      // Ones over [start, start + width) cut at bit 32; .clamp: no mask from a start past 31.
      uint32_t start = clamp ? a : a % 32;
      uint64_t end = std::min<uint64_t>(uint64_t{start} + width(b), 32);
      uint32_t expected = 0;
      for (uint64_t k = start; k < end; ++k) expected |= 1u << k;
      EXPECT_EQ(bm[i], expected) << mode << " a " << a << " b " << b;
    }
  }
}

TEST(IntegerBitSemantics, Dp4aAndDp2aForEverySignedness) {
  auto words = edgeValues(32, 300);
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({words[i], words[(i + 9) % 32], words[(i + 17) % 32]});
  for (bool aSigned : {false, true}) {
    for (bool bSigned : {false, true}) {
      std::string at = aSigned ? "s32" : "u32", bt = bSigned ? "s32" : "u32";
      auto dp4 = runLaneOp({"u32", "u32", "u32", "u32"}, "dp4a." + at + "." + bt + " %d, %a, %b, %c;", in);
      auto lo = runLaneOp({"u32", "u32", "u32", "u32"}, "dp2a.lo." + at + "." + bt + " %d, %a, %b, %c;", in);
      auto hi = runLaneOp({"u32", "u32", "u32", "u32"}, "dp2a.hi." + at + "." + bt + " %d, %a, %b, %c;", in);
      for (unsigned i = 0; i < 32; ++i) {
        uint32_t a = static_cast<uint32_t>(in[i][0]), b = static_cast<uint32_t>(in[i][1]);
        auto field = [](uint32_t w, unsigned index, unsigned width, bool isSigned) -> int64_t {
          int64_t v = (w >> (index * width)) & ((1u << width) - 1);
          return isSigned && v >= (int64_t{1} << (width - 1)) ? v - (int64_t{1} << width) : v;
        };
        int64_t sum4 = static_cast<int64_t>(in[i][2] & 0xffffffff), sumLo = sum4, sumHi = sum4;
        for (unsigned k = 0; k < 4; ++k) sum4 += field(a, k, 8, aSigned) * field(b, k, 8, bSigned);
        for (unsigned k = 0; k < 2; ++k) {
          sumLo += field(a, k, 16, aSigned) * field(b, k, 8, bSigned);
          sumHi += field(a, k, 16, aSigned) * field(b, k + 2, 8, bSigned);
        }
        EXPECT_EQ(dp4[i], static_cast<uint32_t>(sum4)) << at << bt << i;
        EXPECT_EQ(lo[i], static_cast<uint32_t>(sumLo)) << at << bt << i;
        EXPECT_EQ(hi[i], static_cast<uint32_t>(sumHi)) << at << bt << i;
      }
    }
  }
}

}  // namespace
}  // namespace ptxsim
