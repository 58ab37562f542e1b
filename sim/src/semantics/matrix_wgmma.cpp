// wgmma (sm_90a): a warpgroup of four warps multiplies a 64 x N x K tile.
// wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b-desc,
// scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b}: A comes
// from registers (a vector of four, laid out per warp as mma.sync's A
// fragment of the same element width) or from shared memory through a
// matrix descriptor (wgmma_layout.h), B always through a descriptor; D is
// A x B plus D when scale-d is true. Each warp computes its own 16 rows
// (rows 16 w .. 16 w + 15 for warp w of the group), so the handler runs per
// warp as the executor schedules it.
//
// The instruction is asynchronous: its results are defined only after
// wgmma.commit_group and wgmma.wait_group, and PTX leaves reading or
// writing its registers or its shared memory in between undefined. The
// functional model computes D when the instruction issues, which every
// program that follows those rules cannot tell apart; wgmma.fence,
// commit_group and wait_group then have nothing left to do.
//
// Products are added as the tensor core adds them (mma_numerics.h);
// integer forms are exact (wrapping, or clamped with .satfinite); .b1 is
// the population count of A AND B.

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "../hex_text.h"
#include "matrix_fragment.h"
#include "mma_elements.h"
#include "mma_numerics.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "wait_group_count.h"
#include "warp_aligned.h"
#include "wgmma_layout.h"
#include "wgmma_sparse.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using mma::Elem;

constexpr unsigned kRowsPerWarp = 16;
constexpr unsigned kMaxN = 256;
constexpr unsigned kMaxK = 64;  // of the non-.b1 forms (the sparse 8-bit ones); .b1 has 256 one-bit elements

enum Flag : uint8_t {
  kAFromRegisters = 1,
  kTransposeA = 2,
  kTransposeB = 4,
  kNegateA = 8,
  kNegateB = 16,
  kSatfinite = 32,
  kSparse = 64,
};

// The form of one wgmma, decided at prepare time and kept in pi.aux.
struct Plan {
  uint16_t n, k;
  Elem d, a, b;
  uint8_t flags;
};
static_assert(sizeof(Plan) == 8);

unsigned dRegisters(const Plan& p) { return p.d == Elem::F16 ? p.n / 4 : p.n / 2; }

uint64_t elementBits(const uint8_t* bytes, unsigned bits, unsigned bitInByte) {
  switch (bits) {
    case 1: return (bytes[0] >> bitInByte) & 1;
    case 8: return bytes[0];
    case 16: return bytes[0] | (uint64_t{bytes[1]} << 8);
    default: {
      uint32_t v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
  }
}

// One operand (A's rows of this warp, or B's columns), decoded once per
// instruction for the arithmetic of the form: floating point as
// mma::Scaled, s8/u8 as integers, .b1 as 256 bits a row. Integers and A
// keep K along each row; B's floating-point elements are stored row by
// row of K (mma_numerics.h DotColumns), as the adder reads them.
struct Operand {
  Elem type;
  unsigned rows, k;
  bool kMajor;
  std::vector<uint32_t> raw;  // the elements' bits, decoded by decode()
  std::vector<float> significands;
  std::vector<int32_t> exponents;
  std::vector<int16_t> integers;
  std::vector<uint64_t> bits;  // .b1: 4 words a row

  Operand(Elem elementType, unsigned rowCount, unsigned length, bool isB)
      : type(elementType), rows(rowCount), k(length), kMajor(isB && !mma::isInteger(type)) {
    if (type == Elem::B1) {
      bits.assign(rows * 4, 0);
    } else {
      raw.assign(rows * k, 0);
    }
  }
  void put(unsigned row, unsigned column, uint64_t v) {
    if (type == Elem::B1) {
      bits[row * 4 + column / 64] |= v << (column % 64);
    } else {
      raw[kMajor ? column * rows + row : row * k + column] = static_cast<uint32_t>(v);
    }
  }
  void decode() {
    if (type == Elem::B1) return;
    if (mma::isInteger(type)) {
      integers.resize(raw.size());
      mma::integersAll(type, raw.data(), static_cast<unsigned>(raw.size()), integers.data());
      return;
    }
    significands.resize(raw.size());
    exponents.resize(raw.size());
    mma::scaleAll(type, raw.data(), static_cast<unsigned>(raw.size()), significands.data(), exponents.data());
  }
  mma::DotOperand row(unsigned r) const { return {&significands[r * k], &exponents[r * k]}; }
  mma::DotColumns columns() const { return {significands.data(), exponents.data(), rows}; }
};

// Reads `rows` x `columns` elements of a descriptor-described operand in
// shared memory: rows firstRow.. of the M or N dimension, K along the
// columns. False after a fault. Elements in one 16-byte chunk of a row of
// the layout are contiguous (a swizzle moves whole chunks), so the address
// is computed once a chunk; the walk runs along the layout's rows, along K
// or, transposed, along M or N.
bool readShared(ExecContext& ctx, uint64_t descriptorBits, bool transpose, unsigned firstRow, unsigned rows,
                unsigned columns, Operand& out) {
  wgmma::Descriptor d = wgmma::decodeDescriptor(descriptorBits);
  unsigned elementBitsWide = mma::bitsOf(out.type);
  unsigned bytes = elementBitsWide >= 8 ? elementBitsWide / 8 : 1;
  const std::vector<uint8_t>& shared = ctx.cta->shared;
  unsigned outerCount = transpose ? columns : rows, innerCount = transpose ? rows : columns;
  for (unsigned outer = 0; outer < outerCount; ++outer) {
    uint32_t address = 0;
    for (unsigned inner = 0; inner < innerCount; ++inner) {
      unsigned r = transpose ? inner : outer, k = transpose ? outer : inner;
      unsigned along = transpose ? firstRow + r : k;  // the layout's contiguous dimension
      if (inner == 0 || elementBitsWide < 8 || along * elementBitsWide % 128 == 0) {
        address = wgmma::elementAddress(d, transpose, firstRow + r, k, elementBitsWide);
      } else {
        address += bytes;
      }
      if (address >= shared.size() || shared.size() - address < bytes) {
        ctx.fail(LaunchErrorKind::IllegalAddress,
                 "wgmma.mma_async reads shared memory at " + hex32(address) +
                     " through its matrix descriptor, outside the block's " + std::to_string(shared.size()) +
                     " bytes",
                 0);
        return false;
      }
      out.put(r, k, elementBits(shared.data() + address, elementBitsWide, k % 8));
    }
  }
  return true;
}

// A from registers: register r of lane l holds, per element e, row
// groupID + 8 (r & 1) and column (r / 2) 4E + t E + e (E elements a register).
void readRegisters(ExecContext& ctx, const PreparedInstruction& pi, const Plan& p, Operand& a) {
  const PreparedOperand& op = pi.ops[1];
  unsigned bits = mma::bitsOf(p.a), per = 32 / bits;
  for (unsigned r = 0; r < 4; ++r) {
    const uint64_t* row = ctx.row(ctx.vectorRows(op)[r]);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      for (unsigned e = 0; e < per; ++e) {
        mma::Cell cell = mma::aCell(16, per, lane, r, e);
        uint64_t v = bits == 32 ? row[lane] & 0xffffffffu : (row[lane] >> (e * bits)) & ((1u << bits) - 1);
        a.put(cell.row, cell.col, v);
      }
    }
  }
}

// Element i of a lane's accumulators: row groupID + 8 ((i / 2) % 2), column
// 8 (i / 4) + 2t + i % 2, as mma.sync's m16n8 accumulator repeated along N.
mma::Cell dCell(unsigned lane, unsigned i) {
  unsigned group = lane / 4, t = lane % 4;
  return {group + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * t + i % 2};
}

// s8/u8 products summed in int32 (at most 64 of 255 x 255), the
// accumulator added in int64 for .satfinite.
uint64_t integerResult(const Plan& p, const int16_t* a, const int16_t* b, int64_t c) {
  int32_t products = 0;
  for (unsigned k = 0; k < p.k; ++k) products += a[k] * b[k];
  int64_t sum = c + products;
  if ((p.flags & kSatfinite) != 0) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(static_cast<uint64_t>(sum));
}

// The sparse form's A holds half of K, at the start of each row; the
// metadata places each element (wgmma_sparse.h), or for tf32 each 16-bit
// half of one, on the elements' bits before they are decoded. The other
// positions are zero.
void expandSparse(Operand& a, const uint64_t* meta, const Plan& p, unsigned selector) {
  const unsigned stored = p.k / 2;
  for (unsigned r = 0; r < kRowsPerWarp; ++r) {
    uint32_t* row = &a.raw[r * p.k];
    uint32_t kept[kMaxK / 2];
    std::copy(row, row + stored, kept);
    std::fill(row, row + p.k, 0u);
    for (unsigned j = 0; j < stored; ++j) {
      if (p.a != Elem::TF32) {
        row[wgmma::sparsePosition(meta, r, j, mma::bitsOf(p.a), selector)] = kept[j];
        continue;
      }
      for (unsigned half = 0; half < 2; ++half) {
        unsigned position = wgmma::sparseHalfPosition(meta, r, j, half, selector);
        row[position / 2] |= ((kept[j] >> (16 * half)) & 0xffffu) << (16 * (position % 2));
      }
    }
  }
}

// Calls visit(register word, shift, cell) for each element of D in this
// warp's registers, in register order.
template <typename Visit>
void forEachAccumulator(ExecContext& ctx, const PreparedInstruction& pi, const Plan& p, Visit visit) {
  unsigned perRegister = p.d == Elem::F16 ? 2 : 1, bits = p.d == Elem::F16 ? 16 : 32;
  for (unsigned r = 0; r < dRegisters(p); ++r) {
    uint64_t* row = ctx.row(ctx.vectorRows(pi.ops[0])[r]);
    for (unsigned lane = 0; lane < exec::kWarpSize; ++lane) {
      for (unsigned e = 0; e < perRegister; ++e) visit(row[lane], e * bits, dCell(lane, r * perRegister + e));
    }
  }
}

// Row `row` of D from row `row` of A and every column of B; `c` holds the
// accumulators' bits (0 without scale-d) and receives the results.
void computeRow(const Plan& p, const Operand& a, const Operand& b, unsigned row, uint32_t* c) {
  if (p.a == Elem::B1) {
    for (unsigned col = 0; col < p.n; ++col) {
      int64_t sum = static_cast<int32_t>(c[col]);
      for (unsigned w = 0; w < 4; ++w) sum += std::popcount(a.bits[row * 4 + w] & b.bits[col * 4 + w]);
      c[col] = static_cast<uint32_t>(sum);
    }
  } else if (mma::isInteger(p.a)) {
    for (unsigned col = 0; col < p.n; ++col) {
      c[col] = static_cast<uint32_t>(integerResult(p, &a.integers[row * p.k], &b.integers[col * p.k],
                                                   static_cast<int32_t>(c[col])));
    }
  } else {
    mma::WgmmaDotModel model = mma::wgmmaDotModel(mma::isFp8(p.a), p.d == Elem::F16);
    float significands[kMaxN];
    int32_t exponents[kMaxN];
    mma::scaleAll(p.d == Elem::F16 ? Elem::F16 : Elem::F32, c, p.n, significands, exponents);
    mma::wgmmaDot(model, a.row(row), b.columns(), p.k, {significands, exponents}, c);
  }
}

void wgmmaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!wholeWarpExecutes(ctx, "wgmma.mma_async")) return;
  Plan p = std::bit_cast<Plan>(pi.aux);
  bool sparse = (p.flags & kSparse) != 0;
  unsigned aColumns = sparse ? p.k / 2 : p.k;
  unsigned warpInGroup = ctx.warp->index % 4;
  Operand a(p.a, kRowsPerWarp, p.k, false), b(p.b, p.n, p.k, true);
  if ((p.flags & kAFromRegisters) != 0) {
    readRegisters(ctx, pi, p, a);
  } else if (!readShared(ctx, ctx.row(pi.ops[1].row)[0], (p.flags & kTransposeA) != 0, kRowsPerWarp * warpInGroup,
                         kRowsPerWarp, aColumns, a)) {
    return;
  }
  if (!readShared(ctx, ctx.row(pi.ops[2].row)[0], (p.flags & kTransposeB) != 0, 0, p.n, p.k, b)) return;
  if (sparse) expandSparse(a, ctx.row(pi.ops[3].row), p, static_cast<unsigned>(pi.aux2));
  a.decode();
  b.decode();
  if ((p.flags & kNegateA) != 0)
    for (float& v : a.significands) v = -v;
  if ((p.flags & kNegateB) != 0)
    for (float& v : b.significands) v = -v;
  // scale-d: a predicate, the same in every lane.
  bool scaleD = (ctx.row(pi.ops[sparse ? 5 : 3].row)[0] & 1) != 0;
  // The accumulators as a 16 x N tile, computed a row at a time.
  std::vector<uint32_t> tile(kRowsPerWarp * p.n, 0);
  uint64_t mask = p.d == Elem::F16 ? 0xffff : 0xffffffff;
  if (scaleD) {
    forEachAccumulator(ctx, pi, p, [&](uint64_t& word, unsigned shift, mma::Cell cell) {
      tile[cell.row * p.n + cell.col] = static_cast<uint32_t>((word >> shift) & mask);
    });
  }
  for (unsigned r = 0; r < kRowsPerWarp; ++r) computeRow(p, a, b, r, &tile[r * p.n]);
  forEachAccumulator(ctx, pi, p, [&](uint64_t& word, unsigned shift, mma::Cell cell) {
    if (shift == 0) word = 0;
    word |= uint64_t{tile[cell.row * p.n + cell.col]} << shift;
  });
}

// An immediate operand's value (imm-scale-a/b, imm-trans-a/b).
bool immediate(const isa::Instruction& inst, SelectContext& context, unsigned index, int64_t& value) {
  if (index >= inst.operandCount) return false;
  const isa::Operand& op = context.function.operands[inst.firstOperand + index];
  if (op.kind != isa::OperandKind::Immediate) return false;
  value = op.value;
  return true;
}

// The N values a type takes: multiples of 8 to 256 for the floating-point
// forms; 8, 16, 24 and multiples of 16 from 32 for the integer and .b1 forms.
bool validN(unsigned n, Elem a) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  if (mma::isInteger(a) || a == Elem::B1) return n <= 24 || n % 16 == 0;
  return true;
}

bool validTypes(const Plan& p) {
  bool halfIn = p.a == Elem::F16 && p.b == Elem::F16;
  bool bf16In = p.a == Elem::BF16 && p.b == Elem::BF16;
  bool tf32In = p.a == Elem::TF32 && p.b == Elem::TF32;
  bool fp8In = mma::isFp8(p.a) && mma::isFp8(p.b);
  bool int8In = (p.a == Elem::S8 || p.a == Elem::U8) && (p.b == Elem::S8 || p.b == Elem::U8);
  bool b1In = p.a == Elem::B1 && p.b == Elem::B1;
  if (halfIn || fp8In) return p.d == Elem::F16 || p.d == Elem::F32;
  if (bf16In || tf32In) return p.d == Elem::F32;
  if (int8In || b1In) return p.d == Elem::S32;
  return false;
}

bool selectWgmma(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& context, std::string& why) {
  Plan p{};
  if (inst.typeCount != 3 || !mma::elemOf(inst.types[0], p.d) || !mma::elemOf(inst.types[1], p.a) ||
      !mma::elemOf(inst.types[2], p.b) || !validTypes(p)) {
    why = "this wgmma type combination";
    return false;
  }
  bool sparse = inst.opcode == Opcode::WgmmaMmaAsyncSp;
  if (sparse && p.a == Elem::B1) {
    why = "a sparse .b1 wgmma";
    return false;
  }
  unsigned elementBitsWide = mma::bitsOf(p.a);
  unsigned expectedK = (p.a == Elem::B1 ? 256 : 256 / elementBitsWide) * (sparse ? 2 : 1);
  if (inst.shape.m != 64 || inst.shape.k != expectedK || !validN(inst.shape.n, p.a)) {
    why = "this wgmma shape for its types (m64nNk" + std::to_string(expectedK) + ")";
    return false;
  }
  p.n = static_cast<uint16_t>(inst.shape.n);
  p.k = static_cast<uint16_t>(expectedK);
  if (sparse) p.flags |= kSparse;
  if (p.a == Elem::B1 &&
      (inst.modifiers.get(ModGroup::BoolOp) != Mod::BoolAnd || inst.modifiers.get(ModGroup::ReduceOp) != Mod::RedPopc)) {
    why = "wgmma .b1 without .and.popc";
    return false;
  }
  if (inst.modifiers.has(Mod::Satfinite)) p.flags |= kSatfinite;
  const PreparedOperand& d = pi.ops[0];
  if (d.elementCount != dRegisters(p)) {
    why = "wgmma's D with " + std::to_string(d.elementCount) + " registers where the shape has " +
          std::to_string(dRegisters(p));
    return false;
  }
  const PreparedOperand& a = pi.ops[1];
  if (a.elementCount != 0) {
    if (a.elementCount != 4 || p.a == Elem::B1) {
      why = "wgmma's A from registers other than four .b32 registers";
      return false;
    }
    p.flags |= kAFromRegisters;
  }
  // The immediates after scale-d: floating-point forms take the two
  // scales; .f16/.bf16 the transposes too (B's only when A is in registers).
  bool isFloat = !mma::isInteger(p.a) && p.a != Elem::B1;
  bool hasTranspose = p.a == Elem::F16 || p.a == Elem::BF16;
  // The sparse form has the metadata and the selector before scale-d.
  unsigned first = sparse ? 6 : 4;
  unsigned expected = first + (isFloat ? 2 : 0) + (hasTranspose ? ((p.flags & kAFromRegisters) != 0 ? 1 : 2) : 0);
  if (inst.operandCount != expected) {
    why = "wgmma with " + std::to_string(inst.operandCount) + " operands where this form has " +
          std::to_string(expected);
    return false;
  }
  unsigned next = first;
  int64_t value = 0;
  if (sparse) {
    // ptxas takes selectors 0 and 1 for the 16- and 32-bit types, 0 for the 8-bit ones.
    int64_t limit = elementBitsWide == 8 ? 0 : 1;
    if (!immediate(inst, context, 4, value) || value < 0 || value > limit) {
      why = "wgmma.mma_async.sp's sparsity selector must be an immediate from 0 to " + std::to_string(limit) +
            " for this type";
      return false;
    }
    pi.aux2 = static_cast<uint64_t>(value);
  }
  if (isFloat) {
    for (uint8_t flag : {kNegateA, kNegateB}) {
      if (!immediate(inst, context, next++, value) || (value != 1 && value != -1)) {
        why = "wgmma's imm-scale operands must be the immediates 1 or -1";
        return false;
      }
      if (value == -1) p.flags |= flag;
    }
  }
  if (hasTranspose) {
    for (uint8_t flag : {kTransposeA, kTransposeB}) {
      if (flag == kTransposeA && (p.flags & kAFromRegisters) != 0) continue;
      if (!immediate(inst, context, next++, value) || (value != 0 && value != 1)) {
        why = "wgmma's imm-trans operands must be the immediates 0 or 1";
        return false;
      }
      if (value == 1) p.flags |= flag;
    }
  }
  pi.aux = std::bit_cast<uint64_t>(p);
  pi.handler = &wgmmaHandler;
  return true;
}

// fence, commit_group and wait_group: the results are already in place
// (the timing model decides when they are: sim/src/timing/warpgroup_mma.h).
void nothingLeft(const PreparedInstruction&, ExecContext&) {}

// aux: wait_group's N, the most recent groups it leaves in flight.
bool selectWgmmaOrdering(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc,
                         std::string& why) {
  pi.aux = 0;
  if (inst.opcode == Opcode::WgmmaWaitGroup && !selectWaitGroupCount(inst, pi, sc, why)) return false;
  pi.handler = &nothingLeft;
  return true;
}

}  // namespace

void registerMatrixWgmmaSemantics(SemanticsTable& table) {
  table.add(Opcode::WgmmaMmaAsync, &selectWgmma);
  table.add(Opcode::WgmmaMmaAsyncSp, &selectWgmma);
  table.add(Opcode::WgmmaFence, &selectWgmmaOrdering);
  table.add(Opcode::WgmmaCommitGroup, &selectWgmmaOrdering);
  table.add(Opcode::WgmmaWaitGroup, &selectWgmmaOrdering);
}

}  // namespace ptxsim::sim::semantics
