// Logic and shift semantics against host references written independently
// of the handlers: and/or/xor/not/cnot on bits and (negated) predicates,
// lop3 and its predicate form, shf, shl/shr past the width, prmt modes.

#include <gtest/gtest.h>

#include <cstdint>

#include "lane_op_runner.h"

namespace ptxsim {
namespace {

using test::edgeValues;
using test::low;
using test::runLaneOp;

std::vector<std::array<uint64_t, 3>> triples(unsigned bits, uint32_t seed) {
  auto v = edgeValues(bits, seed);
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({v[i], v[(i + 7) % 32], v[(i + 13) % 32]});
  return in;
}

TEST(LogicSemantics, BitwiseOpsForEveryWidth) {
  for (unsigned bits : {16u, 32u, 64u}) {
    auto in = triples(bits, bits);
    std::string b = "b" + std::to_string(bits);
    auto andr = runLaneOp({b, b, b, b}, "and." + b + " %d, %a, %b;", in);
    auto orr = runLaneOp({b, b, b, b}, "or." + b + " %d, %a, %b;", in);
    auto xorr = runLaneOp({b, b, b, b}, "xor." + b + " %d, %a, %b;", in);
    auto notr = runLaneOp({b, b, b, b}, "not." + b + " %d, %a;", in);
    auto cnot = runLaneOp({b, b, b, b}, "cnot." + b + " %d, %a;", in);
    for (unsigned i = 0; i < 32; ++i) {
      uint64_t a = in[i][0], c = in[i][1];
      EXPECT_EQ(low(andr[i], bits), a & c) << b << i;
      EXPECT_EQ(low(orr[i], bits), a | c) << b << i;
      EXPECT_EQ(low(xorr[i], bits), a ^ c) << b << i;
      EXPECT_EQ(low(notr[i], bits), low(~a, bits)) << b << i;
      EXPECT_EQ(low(cnot[i], bits), a == 0 ? 1u : 0u) << b << i;
    }
  }
}

TEST(LogicSemantics, PredicateOpsHonourNegatedSources) {
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({i & 1, (i >> 1) & 1, 0});
  auto andr = runLaneOp({"pred", "pred", "pred", "pred"}, "and.pred %d, %a, !%b;", in);
  auto orr = runLaneOp({"pred", "pred", "pred", "pred"}, "or.pred %d, !%a, %b;", in);
  auto xorr = runLaneOp({"pred", "pred", "pred", "pred"}, "xor.pred %d, %a, %b;", in);
  auto notr = runLaneOp({"pred", "pred", "pred", "pred"}, "not.pred %d, %a;", in);
  for (unsigned i = 0; i < 4; ++i) {
    bool a = in[i][0] != 0, b = in[i][1] != 0;
    EXPECT_EQ(andr[i], (a && !b) ? 1u : 0u) << i;
    EXPECT_EQ(orr[i], (!a || b) ? 1u : 0u) << i;
    EXPECT_EQ(xorr[i], (a != b) ? 1u : 0u) << i;
    EXPECT_EQ(notr[i], a ? 0u : 1u) << i;
  }
}

// The truth table of lop3 is indexed by (a, b, c) bits as a*4 + b*2 + c.
uint32_t lut3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (unsigned bit = 0; bit < 32; ++bit) {
    unsigned index = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
    r |= ((lut >> index) & 1) << bit;
  }
  return r;
}

TEST(LogicSemantics, Lop3EvaluatesItsTruthTable) {
  auto in = triples(32, 40);
  for (uint32_t lut : {0x00u, 0xffu, 0x80u, 0x96u, 0xe8u, 0xcau, 0x1bu, 0xf0u, 0xccu, 0xaau}) {
    auto r = runLaneOp({"b32", "b32", "b32", "b32"}, "lop3.b32 %d, %a, %b, %c, " + std::to_string(lut) + ";", in);
    for (unsigned i = 0; i < 32; ++i) {
      EXPECT_EQ(r[i], lut3(static_cast<uint32_t>(in[i][0]), static_cast<uint32_t>(in[i][1]),
                           static_cast<uint32_t>(in[i][2]), lut))
          << "lut " << lut << " lane " << i;
    }
  }
}

// lop3.op.b32 d|p, a, b, c, lut, q: p = (d != 0) op q.
TEST(LogicSemantics, Lop3PredicateForm) {
  auto in = triples(32, 41);
  in[0] = {0, 0, 0};
  in[1] = {0, 5, 0};
  for (const char* op : {"and", "or"}) {
    for (const char* q : {"%pc", "!%pc"}) {
      auto r = runLaneOp({"b32", "b32", "b32", "b32"},
                         std::string("lop3.") + op + ".b32 %d|%pd, %a, %b, %c, 0x80, " + q + ";", in);
      for (unsigned i = 0; i < 32; ++i) {
        uint32_t d = lut3(static_cast<uint32_t>(in[i][0]), static_cast<uint32_t>(in[i][1]),
                          static_cast<uint32_t>(in[i][2]), 0x80);
        bool qv = (static_cast<uint32_t>(in[i][2]) != 0) != (q[0] == '!');
        bool p = std::string(op) == "and" ? (d != 0 && qv) : (d != 0 || qv);
        EXPECT_EQ(r[i], d) << op << q << i;
        EXPECT_EQ(r.flag[i], p ? 1u : 0u) << op << q << i;
      }
    }
  }
}

TEST(LogicSemantics, FunnelShifts) {
  const uint32_t amounts[] = {0, 1, 8, 31, 32, 33, 63, 64, 100, 0xffffffff};
  auto v = edgeValues(32, 50);
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) in.push_back({v[i], v[(i + 3) % 32], amounts[i % 10]});
  for (bool left : {true, false}) {
    for (bool clamp : {true, false}) {
      std::string text = std::string("shf.") + (left ? "l" : "r") + (clamp ? ".clamp" : ".wrap") + ".b32 %d, %a, %b, %c;";
      auto r = runLaneOp({"b32", "b32", "b32", "u32"}, text, in);
      for (unsigned i = 0; i < 32; ++i) {
        uint32_t a = static_cast<uint32_t>(in[i][0]), b = static_cast<uint32_t>(in[i][1]);
        uint32_t c = static_cast<uint32_t>(in[i][2]);
        uint32_t n = clamp ? (c > 32 ? 32 : c) : c % 32;
        uint32_t expected;
        if (n == 0) {
          expected = left ? b : a;
        } else if (n == 32) {
          expected = left ? a : b;
        } else {
          expected = left ? (b << n) | (a >> (32 - n)) : (a >> n) | (b << (32 - n));
        }
        EXPECT_EQ(r[i], expected) << text << " n " << c;
      }
    }
  }
}

TEST(LogicSemantics, ShiftsClampAmountsAtTheWidth) {
  const uint32_t amounts[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 0xffffffff};
  for (unsigned bits : {16u, 32u, 64u}) {
    auto v = edgeValues(bits, 60 + bits);
    std::vector<std::array<uint64_t, 3>> in;
    for (unsigned i = 0; i < 32; ++i) in.push_back({v[i], amounts[i % 14], 0});
    std::string w = std::to_string(bits);
    auto shl = runLaneOp({"b" + w, "b" + w, "u32", "u32"}, "shl.b" + w + " %d, %a, %b;", in);
    auto shru = runLaneOp({"u" + w, "u" + w, "u32", "u32"}, "shr.u" + w + " %d, %a, %b;", in);
    auto shrb = runLaneOp({"b" + w, "b" + w, "u32", "u32"}, "shr.b" + w + " %d, %a, %b;", in);
    auto shrs = runLaneOp({"s" + w, "s" + w, "u32", "u32"}, "shr.s" + w + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      uint64_t a = in[i][0];
      uint32_t n = static_cast<uint32_t>(in[i][1]);
      bool negative = ((a >> (bits - 1)) & 1) != 0;
      uint64_t l = n >= bits ? 0 : low(a << n, bits);
      uint64_t r = n >= bits ? 0 : a >> n;
      // Arithmetic: shift in copies of the sign one bit at a time.
      uint64_t s = a;
      for (uint32_t k = 0; k < std::min<uint32_t>(n, bits); ++k) s = (s >> 1) | (negative ? uint64_t{1} << (bits - 1) : 0);
      EXPECT_EQ(low(shl[i], bits), l) << w << " n " << n;
      EXPECT_EQ(low(shru[i], bits), r) << w << " n " << n;
      EXPECT_EQ(low(shrb[i], bits), r) << w << " n " << n;
      EXPECT_EQ(low(shrs[i], bits), s) << w << " n " << n;
    }
  }
}

// prmt: the ISA's byte-selection tables, written out per mode as the
// source byte of d.b0..d.b3 for each value of c[1:0].
TEST(LogicSemantics, PrmtEveryMode) {
  const char* modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
  const unsigned tables[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const uint32_t a = 0x83a2c1f0u, b = 0x47e6d5b4u;  // bytes with and without their top bit
  auto bytes = [&](unsigned k) { return k < 4 ? (a >> (8 * k)) & 0xff : (b >> (8 * (k - 4))) & 0xff; };
  std::vector<std::array<uint64_t, 3>> in;
  auto v = edgeValues(32, 70);
  for (unsigned i = 0; i < 32; ++i) in.push_back({a, b, i < 16 ? i * 0x1111u + (i << 16) : v[i]});
  auto plain = runLaneOp({"b32", "b32", "b32", "b32"}, "prmt.b32 %d, %a, %b, %c;", in);
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t c = static_cast<uint32_t>(in[i][2]), expected = 0;
    for (unsigned k = 0; k < 4; ++k) {
      unsigned sel = (c >> (4 * k)) & 0xf;
      uint32_t byte = bytes(sel & 7);
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
      expected |= byte << (8 * k);
    }
    EXPECT_EQ(plain[i], expected) << "c " << c;
  }
  for (unsigned m = 0; m < 6; ++m) {
    auto r = runLaneOp({"b32", "b32", "b32", "b32"}, std::string("prmt.b32.") + modes[m] + " %d, %a, %b, %c;", in);
    for (unsigned i = 0; i < 32; ++i) {
      unsigned s = static_cast<uint32_t>(in[i][2]) & 3;
      uint32_t expected = 0;
      for (unsigned k = 0; k < 4; ++k) expected |= bytes(tables[m][s][k]) << (8 * k);
      EXPECT_EQ(r[i], expected) << modes[m] << " c " << in[i][2];
    }
  }
}

}  // namespace
}  // namespace ptxsim
