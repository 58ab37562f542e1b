// wmma.load, wmma.mma and wmma.store: a warp's 16x16x16 matrix fragments in
// registers. The forms cuBLASLt's int8 kernels use: .m16n16k16 with .s8
// and .u8 A and B, .s32 accumulators (with or without .satfinite), loads
// and stores in either layout, with a stride, from and to global, shared or
// generic memory. Other shapes and types are refused when the module loads
// (issue 46 brings the rest).
//
// PTX leaves the fragments' layout to the GPU; ptxsim places each element
// where the H100 does (tests/cuda/programs/wmma_int8.expected prints it),
// so code that reads a fragment's elements sees the GPU's values. With
// groupID = lane / 4 and t = lane % 4, for m16n16k16 with 8-bit inputs:
//  - A (2 registers, 4 elements each): element i is row groupID + 8 (i / 4),
//    column 4t + i % 4 ... as register r = i / 4 holds;
//  - B (2 registers): element i is row 4t + i % 4, column groupID + 8 (i / 4);
//  - C and D (8 registers of s32): element i is row groupID + 8 ((i / 2) % 2),
//    column 2t + i % 2 + 8 (i / 4).
// The address is the warp's (every lane gives the same); the stride is in
// elements between rows (.row) or columns (.col).

#include <algorithm>
#include <cstring>

#include "access_counts.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "warp_aligned.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

constexpr unsigned kSize = 16;  // m = n = k
constexpr unsigned kMaxPerLane = 8;

enum class Part : uint8_t { A, B, C };

// The plan of one wmma instruction, kept in pi.aux.
struct Plan {
  Part part;
  bool columnMajor;  // .col: the stride separates columns
  bool isSigned;     // A and B: .s8 (else .u8)
  bool satfinite;    // wmma.mma
  uint8_t pad[4];
};
static_assert(sizeof(Plan) == 8);

struct Cell {
  unsigned row, col;
};

// Where element i of a lane's fragment lives in the 16x16 matrix.
Cell cellOf(Part part, unsigned lane, unsigned i) {
  unsigned group = lane / 4, t = lane % 4;
  switch (part) {
    case Part::A: return {group + 8 * (i / 4), 4 * t + i % 4};
    case Part::B: return {4 * t + i % 4, group + 8 * (i / 4)};
    case Part::C: return {group + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
  }
  return {0, 0};
}

unsigned elementBytes(Part part) { return part == Part::C ? 4 : 1; }
unsigned elementsPerRegister(Part part) { return part == Part::C ? 1 : 4; }
unsigned registerCount(Part part) { return part == Part::C ? 8 : 2; }

uint64_t* registerRow(const PreparedInstruction& pi, ExecContext& ctx, unsigned operand, unsigned r) {
  const PreparedOperand& op = pi.ops[operand];
  return ctx.row(op.elementCount != 0 ? ctx.vectorRows(op)[r] : op.row);
}

// The bytes of every element a lane's fragment holds, checked; false after
// a fault was reported. Operand 1 of a load and 0 of a store is the
// address; operand 2, if there is one, the stride.
bool resolveElements(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, unsigned addressOperand,
                     bool hasStride, AccessKind kind, uint8_t* (&at)[exec::kWarpSize][kMaxPerLane]) {
  const PreparedOperand& address = pi.ops[addressOperand];
  const uint64_t* base = ctx.row(address.row);
  uint64_t stride = kSize;
  if (hasStride) stride = static_cast<uint32_t>(ctx.row(pi.ops[2].row)[0]);
  unsigned bytes = elementBytes(p.part);
  unsigned count = registerCount(p.part) * elementsPerRegister(p.part);
  ctx.recordAccess(kind, pi.space, bytes);
  uint64_t matrix = address.effectiveAddress(base[0]);
  for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
    for (unsigned i = 0; i < count; ++i) {
      Cell c = cellOf(p.part, lane, i);
      uint64_t offset = p.columnMajor ? c.col * stride + c.row : c.row * stride + c.col;
      uint64_t elementAddress = matrix + offset * bytes;
      if (i == 0) ctx.report.addresses[lane] = elementAddress;
      at[lane][i] = ctx.access(pi.space, elementAddress, bytes, lane, kind);
      if (at[lane][i] == nullptr) return false;
    }
  }
  countAccess(ctx, pi.space, kind == AccessKind::Store);
  return true;
}

void loadHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.load")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  uint8_t* at[exec::kWarpSize][kMaxPerLane];
  if (!resolveElements(pi, ctx, p, 1, pi.aux2 != 0, AccessKind::Load, at)) return;
  unsigned per = elementsPerRegister(p.part), bytes = elementBytes(p.part);
  uint64_t values[kMaxPerLane][exec::kWarpSize];
  for (unsigned r = 0; r < registerCount(p.part); ++r) {
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint32_t value = 0;
      for (unsigned e = 0; e < per; ++e) {
        uint32_t element = 0;
        std::memcpy(&element, at[lane][r * per + e], bytes);
        value |= element << (8 * bytes * e);
      }
      values[r][lane] = value;
    }
  }
  // Written after every read: a destination may be the address register.
  for (unsigned r = 0; r < registerCount(p.part); ++r) {
    uint64_t* d = registerRow(pi, ctx, 0, r);
    std::copy(values[r], values[r] + exec::kWarpSize, d);
  }
}

void storeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.store")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  uint8_t* at[exec::kWarpSize][kMaxPerLane];
  if (!resolveElements(pi, ctx, p, 0, pi.aux2 != 0, AccessKind::Store, at)) return;
  for (unsigned r = 0; r < registerCount(p.part); ++r) {
    const uint64_t* v = registerRow(pi, ctx, 1, r);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      auto value = static_cast<uint32_t>(v[lane]);
      std::memcpy(at[lane][r], &value, 4);
    }
  }
}

// D = A B + C on the integers, wrapping modulo 2^32 or, with .satfinite,
// clamped to the s32 range.
void mmaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.mma")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  int64_t a[kSize][kSize], b[kSize][kSize], c[kSize][kSize];
  auto input = [&](uint64_t word, unsigned e) {
    auto byte = static_cast<uint8_t>(word >> (8 * e));
    return p.isSigned ? int64_t{static_cast<int8_t>(byte)} : int64_t{byte};
  };
  for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      Cell ca = cellOf(Part::A, lane, i), cb = cellOf(Part::B, lane, i), cc = cellOf(Part::C, lane, i);
      a[ca.row][ca.col] = input(registerRow(pi, ctx, 1, i / 4)[lane], i % 4);
      b[cb.row][cb.col] = input(registerRow(pi, ctx, 2, i / 4)[lane], i % 4);
      c[cc.row][cc.col] = static_cast<int32_t>(registerRow(pi, ctx, 3, i)[lane]);
    }
  }
  uint32_t d[kSize][kSize];
  for (unsigned row = 0; row < kSize; ++row) {
    for (unsigned col = 0; col < kSize; ++col) {
      int64_t sum = c[row][col];
      for (unsigned k = 0; k < kSize; ++k) sum += a[row][k] * b[k][col];
      if (p.satfinite) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
      d[row][col] = static_cast<uint32_t>(static_cast<uint64_t>(sum));
    }
  }
  for (unsigned i = 0; i < 8; ++i) {
    uint64_t* out = registerRow(pi, ctx, 0, i);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      Cell cell = cellOf(Part::C, lane, i);
      out[lane] = d[cell.row][cell.col];
    }
  }
}

bool isM16n16k16(const isa::Instruction& inst) {
  return inst.shape.m == kSize && inst.shape.n == kSize && inst.shape.k == kSize;
}

unsigned operandRegisters(const PreparedOperand& op) { return op.elementCount != 0 ? op.elementCount : 1; }

// wmma.load.{a,b,c} and wmma.store.d: the part, its layout and element type.
bool selectMove(const isa::Instruction& inst, PreparedInstruction& pi, bool store, std::string& why) {
  Plan p{};
  Mod part = inst.modifiers.get(ModGroup::MatrixPart);
  DataType type = inst.typeCount == 1 ? inst.types[0] : DataType::None;
  bool int8 = type == DataType::S8 || type == DataType::U8;
  if (!isM16n16k16(inst) || (part == Mod::PartA || part == Mod::PartB ? !int8 : type != DataType::S32) ||
      (store != (part == Mod::PartD))) {
    why = "this wmma shape and type (only .m16n16k16 with .s8/.u8 inputs and .s32 accumulators)";
    return false;
  }
  p.part = part == Mod::PartA ? Part::A : part == Mod::PartB ? Part::B : Part::C;
  p.columnMajor = inst.modifiers.get(ModGroup::Layout) == Mod::ColA;
  p.isSigned = type == DataType::S8;
  if (operandRegisters(pi.ops[store ? 1 : 0]) != registerCount(p.part)) {
    why = "a wmma fragment with the wrong number of registers for its shape and type";
    return false;
  }
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.aux2 = inst.operandCount == 3 ? 1 : 0;  // a stride operand
  pi.handler = store ? &storeHandler : &loadHandler;
  return true;
}

bool selectLoad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMove(inst, pi, false, why);
}

bool selectStore(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMove(inst, pi, true, why);
}

bool selectMma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  // Types: d, a, b, c.
  bool int8 = inst.typeCount == 4 && inst.types[0] == DataType::S32 && inst.types[3] == DataType::S32 &&
              inst.types[1] == inst.types[2] && (inst.types[1] == DataType::S8 || inst.types[1] == DataType::U8);
  if (!isM16n16k16(inst) || !int8) {
    why = "this wmma.mma shape and type (only .m16n16k16 .s32 with .s8/.u8 inputs)";
    return false;
  }
  if (operandRegisters(pi.ops[0]) != 8 || operandRegisters(pi.ops[1]) != 2 || operandRegisters(pi.ops[2]) != 2 ||
      operandRegisters(pi.ops[3]) != 8) {
    why = "wmma.mma fragments with the wrong number of registers for the shape and types";
    return false;
  }
  Plan p{};
  p.isSigned = inst.types[1] == DataType::S8;
  p.satfinite = inst.modifiers.has(Mod::Satfinite);
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = &mmaHandler;
  return true;
}

}  // namespace

void registerMatrixWmmaSemantics(SemanticsTable& table) {
  table.add(Opcode::WmmaLoad, &selectLoad);
  table.add(Opcode::WmmaStore, &selectStore);
  table.add(Opcode::WmmaMma, &selectMma);
}

}  // namespace ptxsim::sim::semantics
