// Warp collectives: activemask, vote (.sync and the legacy form), shfl
// (.sync and legacy), match.sync, redux.sync, elect.sync.
//
// Under the reconvergence stack a warp's active lanes run in lockstep, so a
// .sync collective sees every participating lane at once: the lanes that
// execute it (ctx.mask) are exactly the ones that have arrived. The ISA
// makes a collective wait for the non-exited lanes of the member mask;
// exited lanes (and lanes beyond the CTA's last thread) drop out, but a
// member lane that is alive and not executing this instruction could never
// arrive in this model, so it is reported as an error, as is a lane that
// executes a collective without being in its own member mask (undefined
// behaviour in the ISA). Lanes may use different member masks (disjoint
// groups); each lane's result is computed over its own mask.

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "lane_ops.h"
#include "ptxsim/isa/instruction_table.h"
#include "semantics.h"
#include "../hex_text.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::kWarpSize;
using exec::LaneMask;
using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// Checks every executing lane's member mask (operand `operand`); false
// after reporting the first violation.
bool checkMembers(const PreparedInstruction& pi, ExecContext& ctx, unsigned operand) {
  const uint64_t* members = ctx.row(pi.ops[operand].row);
  LaneMask gone = ~ctx.warp->existing | ctx.warp->exited;
  std::string_view name = isa::mnemonicOf(pi.source->opcode);
  bool ok = true;
  forLanes(ctx.mask, [&](unsigned l) {
    if (!ok) return;
    auto m = static_cast<LaneMask>(members[l]);
    if (((m >> l) & 1) == 0) {
      ctx.fail(LaunchErrorKind::IllegalInstruction,
               std::string(name) + " executed by a thread not in its member mask " + hex32(m), l);
      ok = false;
      return;
    }
    LaneMask missing = m & ~ctx.mask & ~gone;
    if (missing != 0) {
      ctx.fail(LaunchErrorKind::IllegalInstruction,
               std::string(name) + ": lanes " + hex32(missing) + " of the member mask " + hex32(m) +
                   " are not active (they can never reach this instruction with the lanes that did)",
               l);
      ok = false;
    }
  });
  return ok;
}

// The lanes lane l collects from: the executing lanes of its member mask
// (aux2 = 1: a .sync form), or all executing lanes (the legacy forms).
inline LaneMask groupOf(const PreparedInstruction& pi, const ExecContext& ctx, const uint64_t* members,
                        unsigned l) {
  return pi.aux2 != 0 ? static_cast<LaneMask>(members[l]) & ctx.mask : ctx.mask;
}

const uint64_t* membersRow(const PreparedInstruction& pi, ExecContext& ctx, unsigned operand) {
  return pi.aux2 != 0 ? ctx.row(pi.ops[operand].row) : nullptr;
}

// activemask.b32 d: the lanes executing it. A guard predicate's false
// lanes are not counted, as on the H100 (tests/cuda/semantics/warp_vote.cu).
void activemaskHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = ctx.mask; });
}

bool selectActivemask(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &activemaskHandler;
  return true;
}

// vote{.sync}.mode d, {!}a{, membermask}. aux: the VoteMode.
void voteHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (pi.aux2 != 0 && !checkMembers(pi, ctx, 2)) return;
  const uint64_t* members = membersRow(pi, ctx, 2);
  LaneMask truth = exec::predicateMask(ctx.row(pi.ops[1].row));
  if (pi.ops[1].negated) truth = ~truth;
  truth &= ctx.mask;
  uint64_t* d = ctx.row(pi.ops[0].row);
  auto mode = static_cast<Mod>(pi.aux);
  forLanes(ctx.mask, [&](unsigned l) {
    LaneMask group = groupOf(pi, ctx, members, l);
    LaneMask yes = truth & group;
    switch (mode) {
      case Mod::VoteAll: d[l] = yes == group ? 1 : 0; break;
      case Mod::VoteAny: d[l] = yes != 0 ? 1 : 0; break;
      case Mod::VoteUni: d[l] = (yes == 0 || yes == group) ? 1 : 0; break;
      default: d[l] = yes; break;  // ballot
    }
  });
}

bool selectVote(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod mode = inst.modifiers.get(ModGroup::VoteMode);
  bool ballot = mode == Mod::Ballot;
  if (ballot != (inst.types[0] == DataType::B32)) {
    why = "vote.ballot takes .b32, the other modes .pred";
    return false;
  }
  pi.aux = static_cast<uint64_t>(mode);
  pi.aux2 = inst.modifiers.has(Mod::SyncMod) ? 1 : 0;
  pi.handler = &voteHandler;
  return true;
}

// shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask}, as the ISA's
// pseudocode: b[4:0] is the lane or offset, c[4:0] the clamp and c[12:8]
// the segment mask. Reading a lane that does not take part is undefined
// in the ISA; the simulator does what the H100 does
// (tests/cuda/semantics/warp_shfl.cu): a source lane that executes the
// shfl gives its value even when it is outside the reader's member mask
// (the lanes run together); one that does not (exited, diverged, or
// predicated off) gives 0. p still says whether the index was in range.
void shflHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (pi.aux2 != 0 && !checkMembers(pi, ctx, 4)) return;
  uint64_t a[kWarpSize];
  std::memcpy(a, ctx.row(pi.ops[1].row), sizeof a);
  const uint64_t* bRow = ctx.row(pi.ops[2].row);
  const uint64_t* cRow = ctx.row(pi.ops[3].row);
  uint64_t* d = ctx.row(pi.ops[0].row);
  uint64_t* p = pi.ops[0].secondRow != exec::kNoRow ? ctx.row(pi.ops[0].secondRow) : nullptr;
  auto mode = static_cast<Mod>(pi.aux);
  uint64_t result[kWarpSize];
  bool inRange[kWarpSize];
  forLanes(ctx.mask, [&](unsigned l) {
    int lane = static_cast<int>(l);
    int bval = static_cast<int>(bRow[l] & 0x1f);
    int cval = static_cast<int>(cRow[l] & 0x1f);
    int segmask = static_cast<int>((cRow[l] >> 8) & 0x1f);
    int maxLane = (lane & segmask) | (cval & ~segmask);
    int minLane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (mode) {
      case Mod::Up: j = lane - bval; pval = j >= maxLane; break;
      case Mod::Down: j = lane + bval; pval = j <= maxLane; break;
      case Mod::Bfly: j = lane ^ bval; pval = j <= maxLane; break;
      default: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;  // idx
    }
    if (!pval) j = lane;
    result[l] = ((ctx.mask >> j) & 1) != 0 ? a[j] : 0;
    inRange[l] = pval;
  });
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = static_cast<uint32_t>(result[l]);
    if (p != nullptr) p[l] = inRange[l] ? 1 : 0;
  });
}

bool selectShfl(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.aux = static_cast<uint64_t>(inst.modifiers.get(ModGroup::ShflMode));
  pi.aux2 = inst.modifiers.has(Mod::SyncMod) ? 1 : 0;
  pi.handler = &shflHandler;
  return true;
}

// match.{any,all}.sync.bN d[|p], a, membermask. aux: 1 for .all;
// aux2 = 1 (a .sync form); the value's width is in the handler's type.
template <typename T>
void matchHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!checkMembers(pi, ctx, 2)) return;
  const uint64_t* members = ctx.row(pi.ops[2].row);
  T a[kWarpSize];
  const uint64_t* aRow = ctx.row(pi.ops[1].row);
  for (unsigned l = 0; l < kWarpSize; ++l) a[l] = static_cast<T>(aRow[l]);
  uint64_t* d = ctx.row(pi.ops[0].row);
  uint64_t* p = pi.ops[0].secondRow != exec::kNoRow ? ctx.row(pi.ops[0].secondRow) : nullptr;
  bool all = pi.aux != 0;
  forLanes(ctx.mask, [&](unsigned l) {
    LaneMask group = static_cast<LaneMask>(members[l]) & ctx.mask;
    LaneMask same = 0;
    forLanes(group, [&](unsigned k) { same |= static_cast<LaneMask>(a[k] == a[l]) << k; });
    if (all) {
      bool allSame = same == group;
      d[l] = allSame ? group : 0;
      if (p != nullptr) p[l] = allSame ? 1 : 0;
    } else {
      d[l] = same;
    }
  });
}

bool selectMatch(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod mode = inst.modifiers.get(ModGroup::VoteMode);
  if (mode != Mod::VoteAny && mode != Mod::VoteAll) {
    why = "match takes .any or .all";
    return false;
  }
  if (mode == Mod::VoteAny && pi.ops[0].secondRow != exec::kNoRow) {
    why = "match.any has no predicate destination";
    return false;
  }
  pi.aux = mode == Mod::VoteAll ? 1 : 0;
  pi.aux2 = 1;
  pi.handler = isa::typeBits(inst.types[0]) == 64 ? &matchHandler<uint64_t> : &matchHandler<uint32_t>;
  return true;
}

// elect.sync d|p, membermask: the lowest executing lane of the member mask
// leads; d is its lane number on every lane, p true on the leader only.
void electHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!checkMembers(pi, ctx, 1)) return;
  const uint64_t* members = ctx.row(pi.ops[1].row);
  uint64_t* d = ctx.row(pi.ops[0].row);
  uint64_t* p = pi.ops[0].secondRow != exec::kNoRow ? ctx.row(pi.ops[0].secondRow) : nullptr;
  forLanes(ctx.mask, [&](unsigned l) {
    LaneMask group = static_cast<LaneMask>(members[l]) & ctx.mask;
    auto leader = static_cast<unsigned>(std::countr_zero(group));  // group holds l itself
    d[l] = leader;
    if (p != nullptr) p[l] = leader == l ? 1 : 0;
  });
}

bool selectElect(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.aux2 = 1;
  pi.handler = &electHandler;
  return true;
}

// redux.sync.op.type d, a, membermask over the executing lanes of each
// lane's member mask.
enum class ReduxOp : uint8_t { Add, MinU, MaxU, MinS, MaxS, And, Or, Xor };

uint32_t reduxStep(ReduxOp op, uint32_t x, uint32_t y) {
  switch (op) {
    case ReduxOp::Add: return x + y;  // truncated to 32 bits
    case ReduxOp::MinU: return std::min(x, y);
    case ReduxOp::MaxU: return std::max(x, y);
    case ReduxOp::MinS: return static_cast<uint32_t>(std::min(static_cast<int32_t>(x), static_cast<int32_t>(y)));
    case ReduxOp::MaxS: return static_cast<uint32_t>(std::max(static_cast<int32_t>(x), static_cast<int32_t>(y)));
    case ReduxOp::And: return x & y;
    case ReduxOp::Or: return x | y;
    case ReduxOp::Xor: return x ^ y;
  }
  return x;
}

void reduxHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!checkMembers(pi, ctx, 2)) return;
  const uint64_t* members = ctx.row(pi.ops[2].row);
  uint32_t a[kWarpSize];
  const uint64_t* aRow = ctx.row(pi.ops[1].row);
  for (unsigned l = 0; l < kWarpSize; ++l) a[l] = static_cast<uint32_t>(aRow[l]);
  uint64_t* d = ctx.row(pi.ops[0].row);
  auto op = static_cast<ReduxOp>(pi.aux);
  forLanes(ctx.mask, [&](unsigned l) {
    LaneMask group = static_cast<LaneMask>(members[l]) & ctx.mask;
    auto first = static_cast<unsigned>(std::countr_zero(group));
    uint32_t value = a[first];
    forLanes(group & ~(LaneMask{1} << first), [&](unsigned k) { value = reduxStep(op, value, a[k]); });
    d[l] = value;
  });
}

// redux.sync.{min,max}{.abs}{.NaN}.f32: +0 orders above -0; .abs reduces
// the magnitudes; NaN inputs are skipped (all NaN: the canonical NaN), or
// with .NaN make the result the canonical NaN. aux: 1 for max; aux bit 1:
// .abs; bit 2: .NaN.
constexpr uint32_t kCanonicalNaN = 0x7fffffffu;

bool f32Less(uint32_t x, uint32_t y) {
  float fx = std::bit_cast<float>(x), fy = std::bit_cast<float>(y);
  if (fx == fy) return (x >> 31) > (y >> 31);  // only zeros compare equal with different bits: -0 < +0
  return fx < fy;
}

void reduxFloatHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (!checkMembers(pi, ctx, 2)) return;
  const uint64_t* members = ctx.row(pi.ops[2].row);
  const uint64_t* aRow = ctx.row(pi.ops[1].row);
  bool max = (pi.aux & 1) != 0, abs = (pi.aux & 2) != 0, nanMode = (pi.aux & 4) != 0;
  uint32_t a[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    a[l] = static_cast<uint32_t>(aRow[l]);
    if (abs) a[l] &= 0x7fffffffu;
  }
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) {
    LaneMask group = static_cast<LaneMask>(members[l]) & ctx.mask;
    bool sawNaN = false, sawNumber = false;
    uint32_t best = 0;
    forLanes(group, [&](unsigned k) {
      if (std::isnan(std::bit_cast<float>(a[k]))) {
        sawNaN = true;
        return;
      }
      if (!sawNumber || (max ? f32Less(best, a[k]) : f32Less(a[k], best))) best = a[k];
      sawNumber = true;
    });
    d[l] = (!sawNumber || (nanMode && sawNaN)) ? kCanonicalNaN : best;
  });
}

bool selectRedux(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod op = inst.modifiers.get(ModGroup::ReduceOp);
  DataType type = inst.types[0];
  pi.aux2 = 1;
  if (type == DataType::F32) {
    if (op != Mod::RedMin && op != Mod::RedMax) {
      why = "redux.sync.f32 takes .min or .max";
      return false;
    }
    pi.aux = (op == Mod::RedMax ? 1 : 0) | (inst.modifiers.has(Mod::AbsMod) ? 2 : 0) |
             (inst.modifiers.has(Mod::NaN) ? 4 : 0);
    pi.handler = &reduxFloatHandler;
    return true;
  }
  bool isSigned = type == DataType::S32;
  bool bits = type == DataType::B32;
  ReduxOp r;
  switch (op) {
    case Mod::RedAdd: r = ReduxOp::Add; break;
    case Mod::RedMin: r = isSigned ? ReduxOp::MinS : ReduxOp::MinU; break;
    case Mod::RedMax: r = isSigned ? ReduxOp::MaxS : ReduxOp::MaxU; break;
    case Mod::RedAnd: r = ReduxOp::And; break;
    case Mod::RedOr: r = ReduxOp::Or; break;
    case Mod::RedXor: r = ReduxOp::Xor; break;
    default: why = "this redux.sync operation"; return false;
  }
  bool bitwise = r == ReduxOp::And || r == ReduxOp::Or || r == ReduxOp::Xor;
  if (bitwise != bits) {
    why = bitwise ? "redux.sync .and/.or/.xor take .b32" : "redux.sync .add/.min/.max take .u32 or .s32";
    return false;
  }
  pi.aux = static_cast<uint64_t>(r);
  pi.handler = &reduxHandler;
  return true;
}

}  // namespace

void registerWarpCollectiveSemantics(SemanticsTable& table) {
  table.add(Opcode::Activemask, &selectActivemask);
  table.add(Opcode::Vote, &selectVote);
  table.add(Opcode::Shfl, &selectShfl);
  table.add(Opcode::Match, &selectMatch);
  table.add(Opcode::Elect, &selectElect);
  table.add(Opcode::Redux, &selectRedux);
}

}  // namespace ptxsim::sim::semantics
