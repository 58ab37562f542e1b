// setp and set on f16, bf16, f16x2 and bf16x2 (and set's other source types
// where its destination is f16/bf16). Packed comparisons give one result
// per 16-bit half: setp writes the low half's to p and the high half's to
// q; set writes 1.0 or 0xffff per half.

#include <cmath>
#include <cstring>

#include "comparison.h"
#include "half.h"
#include "half_value.h"
#include "lane_ops.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// What the selector decided, kept in pi.aux.
struct CompareMode {
  Mod op = Mod::None;
  Mod boolOp = Mod::None;
  DataType source = DataType::None;
  DataType dest = DataType::None;
  bool ftz = false;
};
static_assert(sizeof(CompareMode) <= sizeof(uint64_t));

CompareMode modeOf(const PreparedInstruction& pi) {
  CompareMode m;
  std::memcpy(static_cast<void*>(&m), &pi.aux, sizeof m);
  return m;
}

// A 16-bit half element as a double, .ftz applied for f16.
double halfValue(uint64_t bits, bool bf16, bool ftz) {
  half::Mode m;
  m.bf16 = bf16;
  m.ftz = ftz;
  return half::toDouble(bits, m);
}

// The comparison of one scalar (or one half of a packed) pair of sources.
bool compareElement(const CompareMode& m, uint64_t a, uint64_t b) {
  switch (m.source) {
    case DataType::F16:
    case DataType::F16x2: return compare<double>(m.op, halfValue(a, false, m.ftz), halfValue(b, false, m.ftz));
    case DataType::BF16:
    case DataType::BF16x2: return compare<double>(m.op, halfValue(a, true, false), halfValue(b, true, false));
    case DataType::F32: {
      auto f32 = [&](uint64_t bits) {
        bits &= 0xffffffff;
        if (m.ftz && sf::isSubnormalBits(bits, sf::kF32)) bits &= 0x80000000;
        return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
      };
      return compare<double>(m.op, f32(a), f32(b));
    }
    case DataType::F64: return compare<double>(m.op, std::bit_cast<double>(a), std::bit_cast<double>(b));
    default: break;
  }
  unsigned bits = isa::typeBits(m.source);
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  if (isa::typeKind(m.source) == isa::TypeKind::Signed) {
    uint64_t top = uint64_t{1} << (bits - 1);
    auto sext = [&](uint64_t v) { return static_cast<int64_t>(((v & mask) ^ top) - top); };
    return compare<int64_t>(m.op, sext(a), sext(b));
  }
  return compare<uint64_t>(m.op, a & mask, b & mask);
}

bool combine(Mod op, bool value, bool c) {
  switch (op) {
    case Mod::BoolAnd: return value && c;
    case Mod::BoolOr: return value || c;
    case Mod::BoolXor: return value != c;
    default: return value;
  }
}

bool isPacked(DataType t) { return t == DataType::F16x2 || t == DataType::BF16x2; }

// setp.cmp[.bool][.ftz].{f16,f16x2,bf16,bf16x2} p[|q], a, b[, {!}c].
void setpHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const CompareMode m = modeOf(pi);
  uint64_t* p = ctx.row(pi.ops[0].row);
  uint64_t* q = pi.ops[0].secondRow != exec::kNoRow ? ctx.row(pi.ops[0].secondRow) : nullptr;
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = m.boolOp != Mod::None ? ctx.row(pi.ops[3].row) : nullptr;
  bool cNegated = c != nullptr && pi.ops[3].negated;
  bool packed = isPacked(m.source);
  forLanes(ctx.mask, [&](unsigned l) {
    bool cv = c != nullptr && ((c[l] != 0) != cNegated);
    if (packed) {
      bool lo = compareElement(m, a[l] & 0xffff, b[l] & 0xffff);
      bool hi = compareElement(m, (a[l] >> 16) & 0xffff, (b[l] >> 16) & 0xffff);
      p[l] = combine(m.boolOp, lo, cv) ? 1 : 0;
      if (q != nullptr) q[l] = combine(m.boolOp, hi, cv) ? 1 : 0;
    } else {
      bool t = compareElement(m, a[l], b[l]);
      p[l] = combine(m.boolOp, t, cv) ? 1 : 0;
      if (q != nullptr) q[l] = combine(m.boolOp, !t, cv) ? 1 : 0;
    }
  });
}

// The value set writes for true in a destination element of type t.
uint64_t trueValue(DataType t) {
  switch (t) {
    case DataType::F16:
    case DataType::F16x2: return 0x3c00;
    case DataType::BF16:
    case DataType::BF16x2: return 0x3f80;
    case DataType::F32: return 0x3f800000;
    case DataType::U16:
    case DataType::S16:
    case DataType::B16: return 0xffff;
    default: return 0xffffffff;
  }
}

// set.cmp[.bool][.ftz].dtype.stype d, a, b[, {!}c].
void setHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const CompareMode m = modeOf(pi);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = m.boolOp != Mod::None ? ctx.row(pi.ops[3].row) : nullptr;
  bool cNegated = c != nullptr && pi.ops[3].negated;
  bool packed = isPacked(m.source);
  // A packed comparison writes 16-bit true values into each half.
  uint64_t yes = packed ? (trueValue(m.dest) & 0xffff) : trueValue(m.dest);
  forLanes(ctx.mask, [&](unsigned l) {
    bool cv = c != nullptr && ((c[l] != 0) != cNegated);
    if (packed) {
      bool lo = combine(m.boolOp, compareElement(m, a[l] & 0xffff, b[l] & 0xffff), cv);
      bool hi = combine(m.boolOp, compareElement(m, (a[l] >> 16) & 0xffff, (b[l] >> 16) & 0xffff), cv);
      d[l] = (lo ? yes : 0) | ((hi ? yes : 0) << 16);
    } else {
      d[l] = combine(m.boolOp, compareElement(m, a[l], b[l]), cv) ? yes : 0;
    }
  });
}

bool prepareCompare(const isa::Instruction& inst, PreparedInstruction& pi, DataType dest, DataType source,
                    std::string& why) {
  CompareMode m;
  m.op = inst.modifiers.get(ModGroup::Compare);
  m.boolOp = inst.modifiers.get(ModGroup::BoolOp);
  m.source = source;
  m.dest = dest;
  m.ftz = inst.modifiers.has(Mod::Ftz);
  bool floatSource = isa::typeKind(source) == isa::TypeKind::Float;
  bool unsignedOrder = m.op == Mod::CmpLo || m.op == Mod::Ls || m.op == Mod::CmpHi || m.op == Mod::Hs;
  bool unordered = m.op == Mod::Equ || m.op == Mod::Neu || m.op == Mod::Ltu || m.op == Mod::Leu ||
                   m.op == Mod::Gtu || m.op == Mod::Geu || m.op == Mod::Num || m.op == Mod::Nan;
  if ((floatSource && unsignedOrder) || (!floatSource && unordered) || m.op == Mod::None) {
    why = "this comparison for the source type";
    return false;
  }
  if (source == DataType::TF32 || (isa::typeKind(source) == isa::TypeKind::Float && isa::typeBits(source) < 16)) {
    why = "comparison of this source type";
    return false;
  }
  if ((m.boolOp == Mod::None) != (inst.operandCount == 3)) {
    why = "a boolean combine goes with a predicate operand c";
    return false;
  }
  std::memcpy(&pi.aux, &m, sizeof m);
  return true;
}

bool selectHalfSetp(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (!prepareCompare(inst, pi, DataType::Pred, inst.types[0], why)) return false;
  pi.handler = &setpHandler;
  return true;
}

}  // namespace

bool selectHalfSet(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.typeCount != 2) {
    why = "set needs a destination and a source type";
    return false;
  }
  DataType dest = inst.types[0];
  DataType source = inst.types[1];
  if (isPacked(source) != isPacked(dest) && isPacked(dest)) {
    why = "a packed set destination needs a packed source";
    return false;
  }
  if (isPacked(source) && dest != source && dest != DataType::U32 && dest != DataType::S32) {
    why = "set of a packed source writes the same packed type, .u32 or .s32";
    return false;
  }
  if (!prepareCompare(inst, pi, dest, source, why)) return false;
  pi.handler = &setHandler;
  return true;
}

void registerHalfCompare(SemanticsTable& table) {
  table.add(Opcode::Setp, TypeClass::Half, &selectHalfSetp);
  table.add(Opcode::Set, TypeClass::Half, &selectHalfSet);
}

}  // namespace ptxsim::sim::semantics
