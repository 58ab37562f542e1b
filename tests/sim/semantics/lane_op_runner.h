#pragma once

// Test support for the integer, logic and compare semantics tests: runs one
// instruction for 32 threads, each with its own sources, and returns each
// thread's destination.
//
//   OpRun run = runLaneOp({"u32", "u32", "u32", "u32"}, "add.u32 %d, %a, %b;", inputs);
//
// Thread i loads inputs[i][0..2] into %a, %b, %c (declared with the given
// types, read from the low bytes of 64-bit words at %p, %p+8, %p+16), runs
// the instruction and stores %d (of the destination type, zero-extended)
// in result word 2i at %q. Predicates %pa, %pb, %pc are set from a, b, c
// being non-zero; %pd (false unless the instruction writes it) comes back
// as 0/1 in word 2i+1. With an empty destination type the instruction
// stores its own results at %q.

#include <array>
#include <random>
#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim::test {

struct LaneOpTypes {
  std::string d, a, b, c;
};

inline std::string laneOpKernel(const LaneOpTypes& t, const std::string& instruction) {
  std::string decl = (t.d.empty() ? std::string() : ".reg ." + t.d + " %d;\n") + ".reg ." + t.a + " %a;\n.reg ." + t.b + " %b;\n.reg ." + t.c +
                     " %c;\n.reg .u64 %off, %p, %q;\n.reg .pred %pa, %pb, %pc, %pd;\n.reg .u32 %pdw;";
  auto load = [](const std::string& type, const char* reg, int offset) {
    std::string address = "[%p+" + std::to_string(offset) + "]";
    if (type == "pred") return "ld.global.u32 %pdw, " + address + ";\nsetp.ne.u32 " + reg + ", %pdw, 0;\n";
    return "ld.global." + type + " " + reg + ", " + address + ";\n";
  };
  std::string body = "mul.wide.u32 %off, %tx, 24;\nadd.u64 %p, %in, %off;\n";
  body += load(t.a, "%a", 0) + load(t.b, "%b", 8) + load(t.c, "%c", 16);
  body += "ld.global.u32 %pdw, [%p];\nsetp.ne.u32 %pa, %pdw, 0;\n";
  body += "ld.global.u32 %pdw, [%p+8];\nsetp.ne.u32 %pb, %pdw, 0;\n";
  body += "ld.global.u32 %pdw, [%p+16];\nsetp.ne.u32 %pc, %pdw, 0;\n";
  body += "setp.ne.u32 %pd, %tx, %tx;\n";  // false unless the instruction writes it
  body += "add.u64 %q, %out, %tx8;\nadd.u64 %q, %q, %tx8;\n";
  body += instruction + "\n";
  if (t.d == "pred") {
    body += "selp.u32 %pdw, 1, 0, %d;\nst.global.u32 [%q], %pdw;\n";
  } else if (!t.d.empty()) {
    body += "st.global." + t.d + " [%q], %d;\n";
  }
  body += "selp.u32 %pdw, 1, 0, %pd;\nst.global.u32 [%q+8], %pdw;\n";
  return ptxKernel(decl, body);
}

struct LaneOpRun {
  std::vector<uint64_t> d;     // per lane
  std::vector<uint64_t> flag;  // per lane: %pd
  uint64_t operator[](size_t lane) const { return d[lane]; }
};

// Runs `instruction` on 32 lanes; inputs has one {a, b, c} per lane (fewer
// repeat the last one). Fails the test on a load or launch error.
inline LaneOpRun runLaneOp(const LaneOpTypes& types, const std::string& instruction,
                                       std::vector<std::array<uint64_t, 3>> inputs) {
  while (inputs.size() < 32) inputs.push_back(inputs.empty() ? std::array<uint64_t, 3>{} : inputs.back());
  std::vector<uint64_t> words;
  for (unsigned i = 0; i < 32; ++i) words.insert(words.end(), inputs[i].begin(), inputs[i].end());
  KernelRun run = runKernel(laneOpKernel(types, instruction), words, 64);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  LaneOpRun result;
  for (unsigned i = 0; i < 32; ++i) {
    result.d.push_back(run.out[2 * i]);
    result.flag.push_back(run.out[2 * i + 1]);
  }
  return result;
}

// The low `bits` bits of a result word.
inline uint64_t low(uint64_t word, unsigned bits) { return bits >= 64 ? word : word & ((uint64_t{1} << bits) - 1); }

// Interesting values of a width: zero, one, all ones, the sign bit and its
// neighbours, then seeded random values, 32 in all.
inline std::vector<uint64_t> edgeValues(unsigned bits, uint32_t seed) {
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t sign = uint64_t{1} << (bits - 1);
  std::vector<uint64_t> v = {0, 1, 2, mask, mask - 1, sign, sign - 1, sign + 1, 7, mask - 6};
  std::mt19937_64 rng(seed);
  while (v.size() < 32) v.push_back(rng() & mask);
  return v;
}

}  // namespace ptxsim::test
