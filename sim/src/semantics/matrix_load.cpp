// ldmatrix and stmatrix .sync.aligned.m8n8.{x1,x2,x4}{.trans}.b16: a warp
// moves one, two or four 8x8 matrices of 16-bit elements between shared
// memory and mma fragments. Lanes 8i..8i+7 give the addresses of the eight
// 16-byte rows of matrix i; lane l holds, in its register i, the two
// elements of row l/4 at columns 2(l%4) and 2(l%4)+1 (low half first), or
// with .trans those of column l/4 at rows 2(l%4) and 2(l%4)+1 (PTX ISA,
// "ldmatrix"). Other shapes and element formats are refused at load.

#include <cstring>

#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

constexpr unsigned kRows = 8;
constexpr unsigned kRowBytes = 16;
constexpr unsigned kMaxMatrices = 4;

// pi.aux: the number of matrices; pi.aux2: 1 for .trans.
struct Matrices {
  uint8_t* rows[kMaxMatrices][kRows];  // host bytes of each row
};

// Checks and resolves the rows' addresses (operand `addressOperand`);
// false after a fault was reported.
bool resolveRows(const PreparedInstruction& pi, ExecContext& ctx, unsigned addressOperand, AccessKind kind,
                 Matrices& m) {
  auto count = static_cast<unsigned>(pi.aux);
  const PreparedOperand& address = pi.ops[addressOperand];
  const uint64_t* base = ctx.row(address.row);
  ctx.recordAccess(kind, pi.space, kRowBytes);
  for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
    // Lanes beyond the last matrix give no address: they are reported as
    // touching their row of the last one (a broadcast, no extra traffic).
    unsigned source = lane % (count * kRows);
    uint64_t rowAddress = address.effectiveAddress(base[source]);
    ctx.report.addresses[lane] = rowAddress;
    if (source != lane) continue;
    uint8_t* p = ctx.access(pi.space, rowAddress, kRowBytes, lane, kind);
    if (p == nullptr) return false;
    m.rows[lane / kRows][lane % kRows] = p;
  }
  ++(kind == AccessKind::Load ? ctx.stats.sharedLoadInstructions : ctx.stats.sharedStoreInstructions);
  return true;
}

// The byte offset in its matrix of element `half` (0: low) of lane l's
// register: row and column as the fragment places them.
inline uint8_t* elementAt(const Matrices& m, unsigned matrix, unsigned lane, unsigned half, bool transpose) {
  unsigned a = lane / 4, b = 2 * (lane % 4) + half;
  unsigned row = transpose ? b : a, col = transpose ? a : b;
  return m.rows[matrix][row] + 2 * col;
}

uint64_t* destinationRow(const PreparedInstruction& pi, ExecContext& ctx, unsigned operand, unsigned i) {
  const PreparedOperand& op = pi.ops[operand];
  return ctx.row(op.elementCount != 0 ? ctx.vectorRows(op)[i] : op.row);
}

void ldmatrixHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "ldmatrix")) return;
  Matrices m;
  if (!resolveRows(pi, ctx, 1, AccessKind::Load, m)) return;
  auto count = static_cast<unsigned>(pi.aux);
  bool transpose = pi.aux2 != 0;
  uint32_t values[kMaxMatrices][exec::kWarpSize];
  for (unsigned i = 0; i < count; ++i) {
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint16_t lo, hi;
      std::memcpy(&lo, elementAt(m, i, lane, 0, transpose), 2);
      std::memcpy(&hi, elementAt(m, i, lane, 1, transpose), 2);
      values[i][lane] = lo | (uint32_t{hi} << 16);
    }
  }
  // Written after every read: a destination may be the address register.
  for (unsigned i = 0; i < count; ++i) {
    uint64_t* d = destinationRow(pi, ctx, 0, i);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) d[lane] = values[i][lane];
  }
}

void stmatrixHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "stmatrix")) return;
  Matrices m;
  if (!resolveRows(pi, ctx, 0, AccessKind::Store, m)) return;
  auto count = static_cast<unsigned>(pi.aux);
  bool transpose = pi.aux2 != 0;
  for (unsigned i = 0; i < count; ++i) {
    const uint64_t* v = destinationRow(pi, ctx, 1, i);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      auto lo = static_cast<uint16_t>(v[lane]);
      auto hi = static_cast<uint16_t>(v[lane] >> 16);
      std::memcpy(elementAt(m, i, lane, 0, transpose), &lo, 2);
      std::memcpy(elementAt(m, i, lane, 1, transpose), &hi, 2);
    }
  }
}

bool selectMatrixMove(const isa::Instruction& inst, PreparedInstruction& pi, unsigned registerOperand,
                      std::string& why) {
  unsigned count = 0;
  switch (inst.modifiers.get(ModGroup::MatrixCount)) {
    case Mod::X1: count = 1; break;
    case Mod::X2: count = 2; break;
    case Mod::X4: count = 4; break;
    default: break;
  }
  bool m8n8 = inst.shape.m == 8 && inst.shape.n == 8;
  if (!m8n8 || count == 0 || inst.typeCount != 1 || inst.types[0] != isa::DataType::B16) {
    why = "this shape or element format (only .m8n8 .x1/.x2/.x4 .b16)";
    return false;
  }
  const PreparedOperand& regs = pi.ops[registerOperand];
  if ((regs.elementCount != 0 ? regs.elementCount : 1u) != count) {
    why = "a register count other than the number of matrices";
    return false;
  }
  pi.aux = count;
  pi.aux2 = inst.modifiers.has(Mod::Trans) ? 1 : 0;
  return true;
}

bool selectLdmatrix(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!selectMatrixMove(inst, pi, 0, why)) return false;
  pi.handler = &ldmatrixHandler;
  return true;
}

bool selectStmatrix(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!selectMatrixMove(inst, pi, 1, why)) return false;
  pi.handler = &stmatrixHandler;
  return true;
}

}  // namespace

void registerMatrixLoadSemantics(SemanticsTable& table) {
  table.add(Opcode::Ldmatrix, &selectLdmatrix);
  table.add(Opcode::Stmatrix, &selectStmatrix);
}

}  // namespace ptxsim::sim::semantics
