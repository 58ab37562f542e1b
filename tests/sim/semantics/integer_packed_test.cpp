// The packed 16-bit integer forms (add, min, max on .u16x2/.s16x2, min/max
// .relu on .s16x2) against a host reference that takes each half apart,
// computes it as a plain C++ int, and puts the two back together; and the
// forms the ISA does not have (sub, .relu on .u16x2, .sat), refused at load.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>

#include "lane_op_runner.h"

namespace ptxsim {
namespace {

using test::edgeValues;
using test::low;
using test::runLaneOp;

// Half i (0: bits 15..0) of a word as an unsigned or signed int.
int halfOf(uint64_t word, unsigned i, bool isSigned) {
  int v = static_cast<int>((word >> (16 * i)) & 0xffff);
  return isSigned && v >= 0x8000 ? v - 0x10000 : v;
}

// Each half of a and b through f, each result kept to its low 16 bits.
uint32_t reference(uint64_t a, uint64_t b, bool isSigned, const std::function<int(int, int)>& f) {
  uint32_t result = 0;
  for (unsigned i = 0; i < 2; ++i) {
    int r = f(halfOf(a, i, isSigned), halfOf(b, i, isSigned));
    result |= static_cast<uint32_t>(r & 0xffff) << (16 * i);
  }
  return result;
}

// Operand pairs whose halves mix the 16-bit edge values (0, 1, 0x7fff,
// 0x8000, 0xffff, ...) independently, so a carry or a sign crossing from
// one half into the other would show.
std::vector<std::array<uint64_t, 3>> packedInputs() {
  std::vector<uint64_t> lo = edgeValues(16, 7), hi = edgeValues(16, 8);
  std::rotate(hi.begin(), hi.begin() + 4, hi.end());
  std::vector<std::array<uint64_t, 3>> in;
  for (unsigned i = 0; i < 32; ++i) {
    uint64_t a = (hi[i] << 16) | lo[i];
    uint64_t b = (lo[(i + 3) % 32] << 16) | hi[(i + 11) % 32];
    in.push_back({a, b, 0});
  }
  return in;
}

struct PackedCase {
  const char* instruction;
  bool isSigned;
  std::function<int(int, int)> f;
};

TEST(PackedIntegerSemantics, EachHalfMatchesItsOwnScalarResult) {
  auto relu = [](int v) { return std::max(v, 0); };
  const PackedCase cases[] = {
      {"add.u16x2", false, [](int a, int b) { return a + b; }},
      {"add.s16x2", true, [](int a, int b) { return a + b; }},
      {"min.u16x2", false, [](int a, int b) { return std::min(a, b); }},
      {"min.s16x2", true, [](int a, int b) { return std::min(a, b); }},
      {"max.u16x2", false, [](int a, int b) { return std::max(a, b); }},
      {"max.s16x2", true, [](int a, int b) { return std::max(a, b); }},
      {"min.relu.s16x2", true, [&](int a, int b) { return relu(std::min(a, b)); }},
      {"max.relu.s16x2", true, [&](int a, int b) { return relu(std::max(a, b)); }},
  };
  auto in = packedInputs();
  for (const PackedCase& c : cases) {
    auto run = runLaneOp({"b32", "b32", "b32", "b32"}, std::string(c.instruction) + " %d, %a, %b;", in);
    for (unsigned i = 0; i < 32; ++i) {
      EXPECT_EQ(low(run[i], 32), reference(in[i][0], in[i][1], c.isSigned, c.f))
          << c.instruction << " lane " << i << " a=0x" << std::hex << in[i][0] << " b=0x" << in[i][1];
    }
  }
}

TEST(PackedIntegerSemantics, HandDerivedValues) {
  // 0x7fff + 1 wraps to 0x8000 in its half; 0xffff + 1 wraps to 0 with no
  // carry into the upper half; signed min/max see 0x8000 as -32768.
  std::vector<std::array<uint64_t, 3>> in = {{0x7fffffff, 0x00010001, 0}};
  EXPECT_EQ(low(runLaneOp({"b32", "b32", "b32", "b32"}, "add.u16x2 %d, %a, %b;", in)[0], 32), 0x80000000u);
  in = {{0x80007fff, 0x00018000, 0}};
  EXPECT_EQ(low(runLaneOp({"b32", "b32", "b32", "b32"}, "max.s16x2 %d, %a, %b;", in)[0], 32), 0x00017fffu);
  EXPECT_EQ(low(runLaneOp({"b32", "b32", "b32", "b32"}, "max.u16x2 %d, %a, %b;", in)[0], 32), 0x80008000u);
  EXPECT_EQ(low(runLaneOp({"b32", "b32", "b32", "b32"}, "min.relu.s16x2 %d, %a, %b;", in)[0], 32), 0u);
}

TEST(PackedIntegerSemantics, FormsTheIsaLacksAreRefusedAtLoad) {
  const char* refused[] = {"sub.u16x2 %d, %a, %b;", "sub.s16x2 %d, %a, %b;", "min.relu.u16x2 %d, %a, %b;",
                           "add.sat.s16x2 %d, %a, %b;", "mul.lo.u16x2 %d, %a, %b;"};
  for (const char* instruction : refused) {
    std::string error = test::loadError(".reg .b32 %d, %a, %b;",
                                        std::string("mov.b32 %a, 1;\nmov.b32 %b, 2;\n") + instruction);
    EXPECT_NE(error.find("x2"), std::string::npos) << instruction << ": " << error;
  }
}

TEST(PackedIntegerSemantics, NeedsPtx80AndSm90) {
  std::string body = "mov.b32 %a, 1;\nmov.b32 %b, 2;\nadd.u16x2 %d, %a, %b;\n";
  EXPECT_EQ(test::loadError(".reg .b32 %d, %a, %b;", body), "");
  EXPECT_NE(test::loadError(".reg .b32 %d, %a, %b;", body, "sm_80"), "");
}

}  // namespace
}  // namespace ptxsim
