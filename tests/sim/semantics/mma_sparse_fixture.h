#pragma once

// Test support for mma.sp (matrix_mma_sparse_test.cpp): a random 2:4
// (1:2, pairwise 4:8) sparse A, its compressed form and metadata built
// from the PTX ISA's rules as written out here (not taken from the
// simulator), fragments, and a runner for one mma or mma.sp instruction.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim::sparse_test {

constexpr unsigned kLanes = 32, kM = 16, kN = 8;

using Matrix = std::vector<std::vector<uint32_t>>;  // element bits, [row][col]

inline Matrix zeros(unsigned rows, unsigned cols) { return Matrix(rows, std::vector<uint32_t>(cols, 0)); }

// Runs `mma` (its operands appended) with registers %r0.. as D, then A, B,
// C and, when `meta` is given, the metadata register and the immediate
// selector; register i of each lane comes from in[i * 32 + lane], D goes
// to the output the same way.
inline std::vector<uint32_t> runMma(const std::string& mma, unsigned dRegs,
                                    const std::vector<std::vector<uint32_t>>& srcs,
                                    const std::vector<uint32_t>* meta = nullptr, unsigned selector = 0) {
  std::string body = "add.u64 %rd0, %in, %tx8;\nadd.u64 %rd1, %out, %tx8;\n";
  std::string operands[4];
  unsigned reg = 0, inReg = 0;
  for (unsigned i = 0; i < dRegs; ++i) operands[0] += (i ? ", %r" : "{%r") + std::to_string(reg++);
  operands[0] += "}";
  std::vector<uint64_t> in;
  auto load = [&](const std::vector<uint32_t>& words, unsigned i) {
    body += "ld.global.u32 %r" + std::to_string(reg) + ", [%rd0+" + std::to_string(inReg++ * 256) + "];\n";
    for (unsigned lane = 0; lane < kLanes; ++lane) in.push_back(words[i * kLanes + lane]);
    return "%r" + std::to_string(reg++);
  };
  for (unsigned o = 0; o < 3; ++o) {
    for (unsigned i = 0; i < srcs[o].size() / kLanes; ++i)
      operands[o + 1] += (i ? ", " : "{") + load(srcs[o], i);
    operands[o + 1] += "}";
  }
  std::string tail;
  if (meta != nullptr) tail = ", " + load(*meta, 0) + ", " + std::to_string(selector);
  body +=
      mma + " " + operands[0] + ", " + operands[1] + ", " + operands[2] + ", " + operands[3] + tail + ";\n";
  for (unsigned i = 0; i < dRegs; ++i)
    body += "st.global.u32 [%rd1+" + std::to_string(i * 256) + "], %r" + std::to_string(i) + ";\n";
  std::string decl = ".reg .b32 %r<" + std::to_string(reg + 1) + ">;\n.reg .b64 %rd<2>;";
  test::KernelRun run = test::runKernel(test::ptxKernel(decl, body), in, dRegs * kLanes);
  EXPECT_FALSE(run.result.error) << mma << ": " << run.result.error.message;
  std::vector<uint32_t> out;
  for (uint64_t w : run.out) out.push_back(static_cast<uint32_t>(w));
  return out;
}

// The PTX ISA's m16n8kK fragments, E = 32 / bits elements a register:
// A register r, element e: row g + 8 (r % 2), column (r / 2) 4E + t E + e
// (the sparse forms' compressed A too, K/2 wide); B: row r 4E + t E + e,
// column g; C/D element i: row g + 8 (i / 2), column 2t + i % 2, f16 two
// a register.
inline std::vector<uint32_t> fragA(const Matrix& a, unsigned bits) {
  unsigned k = a[0].size(), per = 32 / bits, regs = kM * k / (kLanes * per);
  uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  std::vector<uint32_t> out(regs * kLanes);
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned e = 0; e < per; ++e)
        out[r * kLanes + lane] |= (a[lane / 4 + 8 * (r % 2)][(r / 2) * 4 * per + (lane % 4) * per + e] & mask)
                                  << (e * bits);
  return out;
}

inline std::vector<uint32_t> fragB(const Matrix& b, unsigned bits) {
  unsigned k = b.size(), per = 32 / bits, regs = k * kN / (kLanes * per);
  uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  std::vector<uint32_t> out(regs * kLanes);
  for (unsigned r = 0; r < regs; ++r)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      for (unsigned e = 0; e < per; ++e)
        out[r * kLanes + lane] |= (b[r * 4 * per + (lane % 4) * per + e][lane / 4] & mask) << (e * bits);
  return out;
}

inline std::vector<uint32_t> fragC(const Matrix& c, bool halves) {
  std::vector<uint32_t> out((halves ? 2 : 4) * kLanes);
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      uint32_t v = c[lane / 4 + 8 * (i / 2)][2 * (lane % 4) + i % 2];
      if (halves)
        out[(i / 2) * kLanes + lane] |= v << (16 * (i % 2));
      else
        out[i * kLanes + lane] = v;
    }
  return out;
}

inline Matrix unfragC(const std::vector<uint32_t>& d, bool halves) {
  Matrix out = zeros(kM, kN);
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned lane = 0; lane < kLanes; ++lane)
      out[lane / 4 + 8 * (i / 2)][2 * (lane % 4) + i % 2] =
          halves ? (d[(i / 2) * kLanes + lane] >> (16 * (i % 2))) & 0xffff : d[i * kLanes + lane];
  return out;
}

// A sparse A: `dense` (16 x K, zeros where pruned), `stored` (16 x K/2,
// the kept elements in order) and one 4-bit metadata field per chunk.
struct SparseA {
  Matrix dense, stored, fields;
};

// The chunks of the PTX ISA's sparse storage: 16- and 8-bit types keep 2
// of 4 (field = the two positions), tf32 1 of 2 (0b0100 or 0b1110), 4-bit
// types 2 of 4 pairs (field = the two pairs).
inline SparseA makeSparse(unsigned k, unsigned bits, std::mt19937& rng,
                          const std::function<uint32_t()>& value) {
  const unsigned chunk = bits == 32 ? 2 : bits == 4 ? 8 : 4;
  SparseA s{zeros(kM, k), zeros(kM, k / 2), zeros(kM, k / chunk)};
  static const unsigned kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (unsigned row = 0; row < kM; ++row) {
    unsigned j = 0;
    for (unsigned c = 0; c < k / chunk; ++c) {
      if (bits == 32) {
        unsigned keep = rng() % 2;
        s.fields[row][c] = keep ? 0xe : 0x4;
        s.dense[row][2 * c + keep] = s.stored[row][j++] = value();
        continue;
      }
      const unsigned* pick = kPairs[rng() % 6];
      s.fields[row][c] = pick[0] | pick[1] << 2;
      for (unsigned i = 0; i < 2; ++i) {
        if (bits == 4) {
          for (unsigned e = 0; e < 2; ++e)
            s.dense[row][8 * c + 2 * pick[i] + e] = s.stored[row][j++] = value();
        } else {
          s.dense[row][4 * c + pick[i]] = s.stored[row][j++] = value();
        }
      }
    }
  }
  return s;
}

// The metadata registers: each group of four lanes (rows g, g + 8) lays
// its fields out as a stream, A register by register, lane by lane within
// the group, chunk by chunk within the register, eight fields a 32-bit
// word, word w in lane `selector * words + w` of the group. The lanes that
// hold no metadata get noise, which the instruction must ignore.
inline std::vector<uint32_t> metadataOf(const SparseA& s, unsigned bits, unsigned selector,
                                        std::mt19937& rng) {
  const unsigned k = s.dense[0].size(), per = 32 / bits, perChunk = bits == 32 ? 1 : bits == 4 ? 4 : 2;
  const unsigned regs = kM * (k / 2) / (kLanes * per), words = kM * s.fields[0].size() * 4 / 32 / 8;
  std::vector<uint32_t> meta(kLanes);
  for (uint32_t& m : meta) m = rng();
  for (unsigned g = 0; g < 8; ++g) {
    std::vector<uint32_t> stream;
    for (unsigned r = 0; r < regs; ++r)
      for (unsigned t = 0; t < 4; ++t)
        for (unsigned f = 0; f < per / perChunk; ++f)
          stream.push_back(s.fields[g + 8 * (r % 2)][((r / 2) * 4 * per + t * per) / perChunk + f]);
    EXPECT_EQ(stream.size(), words * 8);
    for (unsigned w = 0; w < words; ++w) meta[4 * g + selector * words + w] = 0;
    for (unsigned i = 0; i < stream.size(); ++i)
      meta[4 * g + selector * words + i / 8] |= stream[i] << (4 * (i % 8));
  }
  return meta;
}

}  // namespace ptxsim::sparse_test
