// wmma.load and wmma.store: a warp moves a matrix fragment between memory
// and its lanes' registers. Every shape and type of sm_90: f16 and bf16
// (m16n16k16, m32n8k16, m8n32k16), tf32 (m16n16k8), f64 (m8n8k4), s8/u8
// (the three 16-deep shapes), s4/u4 (m8n8k32) and b1 (m8n8k128), with f16,
// f32, s32 and f64 accumulators, in either layout (sub-byte A row-major
// and B column-major only), with a stride, from and to global, shared or
// generic memory. wmma.mma is matrix_wmma_mma.cpp.
//
// Which lane holds which element is the H100's, as measured lane by lane
// (wmma_layout.h has the formulas): the f16/bf16 fragments are mma.sync
// m16n8k16's side by side (m8n32k16 the transpose of m32n8k16), tf32's
// m16n8k8's, f64's m8n8k4's, the accumulators m16n8's tiles; an f16 A or B
// fragment always has 8 registers, the distinct elements repeated to fill
// them. A load reads each distinct element once and writes it to every
// register that holds it; a store writes each element of D once.
//
// The address is the warp's (every lane gives the same); the stride counts
// elements between rows (.row) or columns (.col), by default the matrix's
// width or height. Each row (column) must start aligned to 16 bytes, or to
// its own size if smaller, else the launch fails with a misaligned
// address: the H100 faults so on an s8 matrix of 16-byte rows 24 bytes
// apart in shared memory (wmma_forms.expected), though PTX's rule (aligned
// to the fragment's size) would allow it, and runs f16 rows 48 bytes
// apart, which PTX's rule forbids. Rows narrower than 16 bytes (s8
// m32n8k16's B, m8n32k16's A) are not measured.

#include <algorithm>
#include <cstring>
#include <string>

#include "../hex_text.h"
#include "access_counts.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "warp_aligned.h"
#include "wmma_layout.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using wmma::Cell;
using wmma::Fragment;
using wmma::Part;

// Every row (column) of a matrix in memory starts at a multiple of this,
// or of its own size if smaller.
constexpr uint64_t kRowAlignment = 16;
// The most memory accesses of one lane: 16 elements of an f16 m32n8k16 A.
constexpr unsigned kMaxAccesses = 16;

// The plan of one wmma.load or wmma.store, kept in pi.aux.
struct Plan {
  Fragment fragment;
  bool columnMajor;  // .col: the stride separates columns
  bool hasStride;
  uint8_t pad[1];
};
static_assert(sizeof(Plan) == 8);

uint64_t* registerRow(const PreparedInstruction& pi, ExecContext& ctx, unsigned operand, unsigned r) {
  const PreparedOperand& op = pi.ops[operand];
  return ctx.row(op.elementCount != 0 ? ctx.vectorRows(op)[r] : op.row);
}

unsigned elementBits(const Fragment& f) { return mma::bitsOf(f.elem); }

// Sub-byte elements (s4, u4, b1) are moved a register at a time: a lane's
// register holds consecutive elements of one row of A or column of B.
unsigned elementsPerAccess(const Fragment& f) {
  return elementBits(f) < 8 ? wmma::elementsPerRegister(f) : 1;
}
unsigned accessBytes(const Fragment& f) { return elementBits(f) * elementsPerAccess(f) / 8; }
unsigned accessCount(const Fragment& f) { return wmma::distinctElements(f) / elementsPerAccess(f); }

// Where each access of every lane's fragment is, checked; false after a
// fault was reported. Operand 1 of a load and 0 of a store is the
// address; operand 2, if there is one, the stride.
bool resolveAccesses(const PreparedInstruction& pi, ExecContext& ctx, const Plan& p, unsigned addressOperand,
                     AccessKind kind, uint8_t* (&at)[exec::kWarpSize][kMaxAccesses]) {
  const Fragment& f = p.fragment;
  const char* name = kind == AccessKind::Load ? "wmma.load" : "wmma.store";
  const PreparedOperand& address = pi.ops[addressOperand];
  uint64_t matrix = address.effectiveAddress(ctx.row(address.row)[0]);
  uint64_t stride = p.columnMajor ? wmma::rowsOf(f) : wmma::colsOf(f);
  if (p.hasStride) stride = static_cast<uint32_t>(ctx.row(pi.ops[2].row)[0]);
  // A row (column) narrower than 16 bytes need only be aligned to its size.
  uint64_t leading = (p.columnMajor ? wmma::rowsOf(f) : wmma::colsOf(f)) * elementBits(f) / 8;
  uint64_t alignment = std::min(kRowAlignment, leading);
  if (matrix % alignment != 0 || stride * elementBits(f) % (8 * alignment) != 0) {
    ctx.fail(LaunchErrorKind::MisalignedAddress,
             std::string(name) + ": every row or column must start " + std::to_string(alignment) +
                 "-byte aligned; the matrix is at " + hex(matrix) + " with a stride of " +
                 std::to_string(stride) + " elements",
             0);
    return false;
  }
  unsigned bytes = accessBytes(f), per = elementsPerAccess(f);
  ctx.recordAccess(kind, pi.space, bytes);
  for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
    for (unsigned a = 0; a < accessCount(f); ++a) {
      Cell c = wmma::cellOf(f, lane, a * per);
      uint64_t offset = p.columnMajor ? c.col * stride + c.row : c.row * stride + c.col;
      uint64_t elementAddress = matrix + offset * elementBits(f) / 8;
      if (a == 0) ctx.report.addresses[lane] = elementAddress;
      at[lane][a] = ctx.access(pi.space, elementAddress, bytes, lane, kind);
      if (at[lane][a] == nullptr) return false;
    }
  }
  countAccess(ctx, pi.space, kind == AccessKind::Store);
  return true;
}

// The bits of fragment element i of a lane, from its accesses.
uint64_t elementFrom(const Fragment& f, uint8_t* const (&at)[kMaxAccesses], unsigned i) {
  i %= wmma::distinctElements(f);
  uint64_t value = 0;
  if (elementsPerAccess(f) > 1) {
    std::memcpy(&value, at[i / elementsPerAccess(f)], accessBytes(f));
    unsigned bits = elementBits(f);
    return (value >> (bits * (i % elementsPerAccess(f)))) & ((uint64_t{1} << bits) - 1);
  }
  std::memcpy(&value, at[i], accessBytes(f));
  return value;
}

void loadHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.load")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  const Fragment& f = p.fragment;
  uint8_t* at[exec::kWarpSize][kMaxAccesses];
  if (!resolveAccesses(pi, ctx, p, 1, AccessKind::Load, at)) return;
  unsigned per = wmma::elementsPerRegister(f), bits = elementBits(f);
  unsigned registers = wmma::registerCount(f);
  uint64_t values[8][exec::kWarpSize];
  for (unsigned r = 0; r < registers; ++r) {
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t value = 0;
      for (unsigned e = 0; e < per; ++e) value |= elementFrom(f, at[lane], r * per + e) << (bits * e);
      values[r][lane] = value;
    }
  }
  // Written after every read: a destination may be the address register.
  for (unsigned r = 0; r < registers; ++r)
    std::copy(values[r], values[r] + exec::kWarpSize, registerRow(pi, ctx, 0, r));
}

void storeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wmma.store")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  const Fragment& f = p.fragment;
  uint8_t* at[exec::kWarpSize][kMaxAccesses];
  if (!resolveAccesses(pi, ctx, p, 0, AccessKind::Store, at)) return;
  unsigned per = wmma::elementsPerRegister(f), bytes = elementBits(f) / 8;
  for (unsigned i = 0; i < wmma::distinctElements(f); ++i) {
    const uint64_t* v = registerRow(pi, ctx, 1, i / per);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      uint64_t value = v[lane] >> (8 * bytes * (i % per));
      std::memcpy(at[lane][i], &value, bytes);
    }
  }
}

unsigned operandRegisters(const PreparedOperand& op) { return op.elementCount != 0 ? op.elementCount : 1; }

// wmma.load.{a,b,c} and wmma.store.d: the fragment, its layout in memory.
bool selectMove(const isa::Instruction& inst, PreparedInstruction& pi, bool store, std::string& why) {
  Plan p{};
  Mod part = inst.modifiers.get(ModGroup::MatrixPart);
  p.fragment.shape = {static_cast<uint8_t>(inst.shape.m), static_cast<uint8_t>(inst.shape.n),
                      static_cast<uint8_t>(inst.shape.k)};
  p.fragment.part = part == Mod::PartA ? Part::A : part == Mod::PartB ? Part::B : Part::C;
  if (store != (part == Mod::PartD) || inst.typeCount != 1 || !mma::elemOf(inst.types[0], p.fragment.elem) ||
      !wmma::fragmentExists(p.fragment)) {
    why = "this wmma shape, matrix and type combination";
    return false;
  }
  p.columnMajor = inst.modifiers.get(ModGroup::Layout) == Mod::ColA;
  if (elementBits(p.fragment) < 8 && p.fragment.part != Part::C &&
      p.columnMajor != (p.fragment.part == Part::B)) {
    why = "a sub-byte wmma fragment in this layout (A is .row and B .col only)";
    return false;
  }
  if (operandRegisters(pi.ops[store ? 1 : 0]) != wmma::registerCount(p.fragment)) {
    why = "a wmma fragment with the wrong number of registers for its shape and type";
    return false;
  }
  p.hasStride = inst.operandCount == 3;
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = store ? &storeHandler : &loadHandler;
  return true;
}

bool selectLoad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMove(inst, pi, false, why);
}

bool selectStore(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  return selectMove(inst, pi, true, why);
}

}  // namespace

void registerMatrixWmmaSemantics(SemanticsTable& table) {
  table.add(Opcode::WmmaLoad, &selectLoad);
  table.add(Opcode::WmmaStore, &selectStore);
}

}  // namespace ptxsim::sim::semantics
