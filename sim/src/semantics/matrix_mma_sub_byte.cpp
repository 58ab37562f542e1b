// mma.sync's sub-byte integer forms: m8n8k32, m16n8k32 and m16n8k64 with
// s4/u4 inputs (wrapping, or .satfinite clamped to the s32 range), and
// m8n8k128, m16n8k128 and m16n8k256 with b1 inputs, whose "products" are
// the AND or XOR of two bits and whose sum is a population count
// (.and.popc, .xor.popc). All exact: D = C + the sum, modulo 2^32.
//
// The fragments are the s8 forms' with 8 or 32 elements a register
// (matrix_fragment.h; PTX ISA "Matrix Fragments for mma.m8n8k32",
// "...mma.m16n8k64", "...mma.m16n8k256"), element e in bits 4e..4e+3 or
// bit e. A b1 register therefore holds 32 consecutive columns of a row of
// A (or rows of a column of B), so the b1 path keeps words and counts
// bits a word at a time.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "matrix_fragment.h"
#include "matrix_mma_forms.h"
#include "mma_elements.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using mma::Elem;
using mma::registerRow;
using mma::registersOf;

enum class Combine : uint8_t { Multiply, AndPopc, XorPopc };

// The form, decided at prepare time and kept in pi.aux.
struct Plan {
  uint16_t k;
  uint8_t m, n;
  Elem a, b;
  Combine combine;
  bool satfinite;
};
static_assert(sizeof(Plan) == 8);

constexpr unsigned kMaxM = 16, kN = 8, kMaxK4 = 64, kMaxWords = 256 / 32;

unsigned perRegister(Elem e) { return e == Elem::B1 ? 32 : 8; }

// The operands decoded once: s4/u4 elements as small integers, A row by
// row (row K + k) and B column by column (col K + k); b1 rows of A and
// columns of B as words of 32 k.
struct Tiles {
  int8_t a[kMaxM * kMaxK4], b[kN * kMaxK4];
  uint32_t aWords[kMaxM * kMaxWords], bWords[kN * kMaxWords];
  int32_t c[kMaxM * kN];
  uint32_t d[kMaxM * kN];
};

int8_t nibble(uint32_t word, unsigned e, bool isSigned) {
  auto v = static_cast<uint8_t>((word >> (4 * e)) & 0xf);
  return isSigned ? static_cast<int8_t>(static_cast<int8_t>(v << 4) >> 4) : static_cast<int8_t>(v);
}

void gather(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, Tiles& t) {
  bool bits = p.a == Elem::B1;
  unsigned per = perRegister(p.a), words = p.k / 32;
  for (unsigned r = 0; r < registersOf(pi.ops[1]); ++r) {
    const uint64_t* row = registerRow(ctx, pi.ops[1], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      auto word = static_cast<uint32_t>(row[lane]);
      mma::Cell first = mma::aCell(p.m, per, lane, r, 0);
      if (bits) {
        t.aWords[first.row * words + first.col / 32] = word;
        continue;
      }
      for (unsigned e = 0; e < per; ++e) t.a[first.row * p.k + first.col + e] = nibble(word, e, p.a == Elem::S4);
    }
  }
  for (unsigned r = 0; r < registersOf(pi.ops[2]); ++r) {
    const uint64_t* row = registerRow(ctx, pi.ops[2], r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      auto word = static_cast<uint32_t>(row[lane]);
      mma::Cell first = mma::bCell(per, lane, r, 0);  // rows first.row .. + per - 1 of column first.col
      if (bits) {
        t.bWords[first.col * words + first.row / 32] = word;
        continue;
      }
      for (unsigned e = 0; e < per; ++e) t.b[first.col * p.k + first.row + e] = nibble(word, e, p.b == Elem::S4);
    }
  }
  for (unsigned i = 0; i < p.m * p.n / exec::kWarpSize; ++i) {
    const uint64_t* row = registerRow(ctx, pi.ops[3], i);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      mma::Cell cell = mma::cCell(p.m, lane, i);
      t.c[cell.row * p.n + cell.col] = static_cast<int32_t>(row[lane]);
    }
  }
}

uint32_t element(const Plan& p, const Tiles& t, unsigned row, unsigned col) {
  int64_t sum = t.c[row * p.n + col];
  if (p.a == Elem::B1) {
    uint32_t count = 0;
    for (unsigned w = 0; w < p.k / 32; ++w) {
      uint32_t x = t.aWords[row * (p.k / 32) + w], y = t.bWords[col * (p.k / 32) + w];
      count += std::popcount(p.combine == Combine::AndPopc ? x & y : x ^ y);
    }
    return static_cast<uint32_t>(sum + count);  // modulo 2^32
  }
  int32_t products = 0;  // at most 64 of 15 x 15 in magnitude
  for (unsigned i = 0; i < p.k; ++i) products += t.a[row * p.k + i] * t.b[col * p.k + i];
  sum += products;
  if (p.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(static_cast<uint64_t>(sum));
}

void subByteHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "mma")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  Tiles t;
  gather(pi, ctx, p, t);
  for (unsigned row = 0; row < p.m; ++row)
    for (unsigned col = 0; col < p.n; ++col) t.d[row * p.n + col] = element(p, t, row, col);
  // Written after every read: D may name C's registers.
  for (unsigned i = 0; i < p.m * p.n / exec::kWarpSize; ++i) {
    uint64_t* row = registerRow(ctx, pi.ops[0], i);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      mma::Cell cell = mma::cCell(p.m, lane, i);
      row[lane] = t.d[cell.row * p.n + cell.col];
    }
  }
}

// Whether sm_90 has the shape for these types (PTX ISA, mma's shape table;
// ptxas 13.0 accepts each of them for sm_90).
bool shapeExists(const Plan& p) {
  if (p.n != 8) return false;
  if (p.a == Elem::B1) return (p.m == 8 && p.k == 128) || (p.m == 16 && (p.k == 128 || p.k == 256));
  return (p.m == 8 && p.k == 32) || (p.m == 16 && (p.k == 32 || p.k == 64));
}

}  // namespace

bool selectMmaSubByte(const isa::Instruction& inst, PreparedInstruction& pi, std::string& why) {
  Plan p{};
  p.m = static_cast<uint8_t>(inst.shape.m);
  p.n = static_cast<uint8_t>(inst.shape.n);
  p.k = static_cast<uint16_t>(inst.shape.k);
  Elem c, d;
  bool typed = mma::elemOf(inst.types[0], d) && mma::elemOf(inst.types[1], p.a) &&
               mma::elemOf(inst.types[2], p.b) && mma::elemOf(inst.types[3], c);
  bool b1 = p.a == Elem::B1;
  bool pairs = b1 ? p.b == Elem::B1 : (p.b == Elem::S4 || p.b == Elem::U4);
  if (!typed || !pairs || c != Elem::S32 || d != Elem::S32 || !shapeExists(p)) {
    why = "this sub-byte mma shape and type combination";
    return false;
  }
  Mod op = inst.modifiers.get(ModGroup::BoolOp);
  p.combine = op == Mod::BoolXor ? Combine::XorPopc : op == Mod::BoolAnd ? Combine::AndPopc : Combine::Multiply;
  if (b1 != (p.combine != Combine::Multiply)) {
    why = "mma on .b1 needs .and.popc or .xor.popc, and only .b1 takes them";
    return false;
  }
  p.satfinite = inst.modifiers.has(Mod::Satfinite);
  if (p.satfinite && b1) {
    why = "mma .b1 with .satfinite";
    return false;
  }
  if (inst.modifiers.get(ModGroup::Layout) != Mod::RowA || inst.modifiers.get(ModGroup::LayoutB) != Mod::ColB) {
    why = "sub-byte mma with layouts other than .row.col";
    return false;
  }
  unsigned per = perRegister(p.a);
  if (registersOf(pi.ops[1]) != p.m * p.k / (exec::kWarpSize * per) ||
      registersOf(pi.ops[2]) != p.k * p.n / (exec::kWarpSize * per) ||
      registersOf(pi.ops[0]) != p.m * p.n / exec::kWarpSize || registersOf(pi.ops[3]) != p.m * p.n / exec::kWarpSize) {
    why = "mma operands with the wrong number of registers for the shape and types";
    return false;
  }
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = &subByteHandler;
  return true;
}

}  // namespace ptxsim::sim::semantics
