// mbarrier instructions (init, inval, arrive{.expect_tx,.noComplete},
// arrive_drop, expect_tx, complete_tx, test_wait/try_wait{.parity},
// pending_count) and cp.async.mbarrier.arrive{.noinc}, on the object
// mbarrier_state.h describes, in the CTA's shared memory.
//
// Each executing lane's operation is one indivisible update of the object,
// in lane order. The functional model makes every access visible at once,
// which keeps the release/acquire ordering an arrive and a successful wait
// give. A wait that finds its phase incomplete answers false (what
// try_wait does when its time limit passes) and ends the warp's turn, so a
// spin loop lets the warps that will complete the phase run; one that
// nobody will complete ends in the executor's livelock report.

#include <cstring>

#include "../hex_text.h"
#include "lane_ops.h"
#include "mbarrier_access.h"
#include "mbarrier_state.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// What an mbarrier instruction does to the object, once per lane.
enum class Action : uint8_t { Init, Inval, ExpectTx, CompleteTx, Arrive, Wait, CpAsyncArrive };

// aux for Arrive: the flags below; aux2 for Wait: 1 with .parity, 2 for
// try_wait (which may suspend, so its false ends the warp's turn).
constexpr uint64_t kArriveExpectTx = 1, kArriveDrop = 2, kArriveNoComplete = 4, kArriveHasCount = 8;
constexpr uint64_t kWaitParity = 1, kWaitTry = 2;
// aux for CpAsyncArrive: 1 for .noinc.
constexpr uint64_t kNoInc = 1;

// Reports a state-machine fault for `lane` and stops the CTA.
void failFault(const PreparedInstruction& pi, ExecContext& ctx, mbarrier::Fault fault, unsigned lane,
               uint64_t address) {
  ctx.fail(LaunchErrorKind::IllegalInstruction,
           std::string(isa::mnemonicOf(pi.source->opcode)) + " on the mbarrier at shared address " +
               hex(address) + ": " + mbarrier::describe(fault),
           lane);
}

template <Action action>
void mbarrierHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  constexpr bool reads = action == Action::Wait;
  constexpr unsigned addressOperand = action == Action::Arrive || action == Action::Wait ? 1 : 0;
  ctx.recordAccess(reads ? AccessKind::Load : AccessKind::Atomic, AddressSpace::Shared, 8);
  const uint64_t* second =
      pi.operandCount > addressOperand + 1 ? ctx.row(pi.ops[addressOperand + 1].row) : nullptr;
  uint64_t* destination =
      action == Action::Arrive || action == Action::Wait ? ctx.row(pi.ops[0].row) : nullptr;
  bool allComplete = true;
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    MbarrierSlot slot = mbarrierSlot(ctx, pi, pi.ops[addressOperand], pi.space, l, reads);
    if (slot.bytes == nullptr) return;
    uint64_t bits;
    std::memcpy(&bits, slot.bytes, 8);
    mbarrier::Object object = mbarrier::decode(bits);
    mbarrier::Fault fault = mbarrier::Fault::None;
    if constexpr (action == Action::Init) {
      fault = mbarrier::init(static_cast<uint32_t>(second[l]), object);
    } else if constexpr (action == Action::Inval) {
      object = mbarrier::Object{};
    } else if (!object.initialised) {
      fault = mbarrier::Fault::NotInitialised;
    } else if constexpr (action == Action::ExpectTx) {
      fault = mbarrier::expectTx(object, static_cast<uint32_t>(second[l]));
    } else if constexpr (action == Action::CompleteTx) {
      fault = mbarrier::completeTx(object, static_cast<uint32_t>(second[l]));
    } else if constexpr (action == Action::Arrive) {
      mbarrier::Arrival arrival;
      arrival.expectTx = (pi.aux & kArriveExpectTx) != 0;
      if (arrival.expectTx) arrival.txBytes = static_cast<uint32_t>(second[l]);
      if ((pi.aux & kArriveHasCount) != 0) arrival.count = static_cast<uint32_t>(second[l]);
      arrival.drop = (pi.aux & kArriveDrop) != 0;
      arrival.noComplete = (pi.aux & kArriveNoComplete) != 0;
      fault = mbarrier::arrive(object, arrival);
      if (fault == mbarrier::Fault::None) destination[l] = bits;  // the state: the object before the arrival
    } else if constexpr (action == Action::CpAsyncArrive) {
      // The copies this thread issued earlier are complete already (the
      // functional model performs cp.async when issued), so the arrive-on
      // they trigger happens now. Without .noinc the pending count was
      // raised by one first: no net change, but the count must have room.
      if ((pi.aux & kNoInc) != 0) {
        fault = mbarrier::arrive(object, mbarrier::Arrival{});
      } else if (object.pending >= mbarrier::kMaxCount) {
        fault = mbarrier::Fault::CountOutOfRange;
      }
    } else {
      bool complete = (pi.aux2 & kWaitParity) != 0
                          ? mbarrier::phaseOfParityComplete(object, static_cast<uint32_t>(second[l]))
                          : mbarrier::phaseOfStateComplete(object, second[l]);
      destination[l] = complete ? 1 : 0;
      allComplete = allComplete && complete;
    }
    if (fault != mbarrier::Fault::None) {
      failFault(pi, ctx, fault, l, slot.address);
      return;
    }
    if constexpr (!reads) {
      bits = mbarrier::encode(object);
      std::memcpy(slot.bytes, &bits, 8);
    }
  });
  // A try_wait that would suspend: let the other warps run.
  if (action == Action::Wait && !allComplete && (pi.aux2 & kWaitTry) != 0) ctx.yieldTurn = true;
}

// mbarrier.pending_count.b64 count, state.
void pendingCountHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* count = ctx.row(pi.ops[0].row);
  const uint64_t* state = ctx.row(pi.ops[1].row);
  exec::forLanes(ctx.mask, [&](unsigned l) { count[l] = mbarrier::pendingCountOf(state[l]); });
}

bool selectMbarrier(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  pi.aux = 0;
  pi.aux2 = 0;
  Mod op = inst.modifiers.get(ModGroup::MbarrierOp);
  switch (inst.opcode) {
    case Opcode::MbarrierInit: pi.handler = &mbarrierHandler<Action::Init>; break;
    case Opcode::MbarrierInval: pi.handler = &mbarrierHandler<Action::Inval>; break;
    case Opcode::MbarrierExpectTx: pi.handler = &mbarrierHandler<Action::ExpectTx>; break;
    case Opcode::MbarrierCompleteTx: pi.handler = &mbarrierHandler<Action::CompleteTx>; break;
    case Opcode::MbarrierArrive:
    case Opcode::MbarrierArriveDrop:
      if (op != Mod::None && op != Mod::ExpectTx && op != Mod::NoComplete) {
        why = "this mbarrier.arrive form";
        return false;
      }
      if (op == Mod::ExpectTx && inst.operandCount != 3) {
        why = "mbarrier.arrive.expect_tx takes a tx-count operand";
        return false;
      }
      if (op == Mod::ExpectTx) pi.aux |= kArriveExpectTx;
      if (op == Mod::NoComplete) pi.aux |= kArriveNoComplete;
      if (op != Mod::ExpectTx && inst.operandCount == 3) pi.aux |= kArriveHasCount;
      if (inst.opcode == Opcode::MbarrierArriveDrop) pi.aux |= kArriveDrop;
      pi.handler = &mbarrierHandler<Action::Arrive>;
      break;
    case Opcode::MbarrierTestWait:
    case Opcode::MbarrierTryWait:
      if (inst.modifiers.hasGroup(ModGroup::Parity)) pi.aux2 |= kWaitParity;
      if (inst.opcode == Opcode::MbarrierTryWait) pi.aux2 |= kWaitTry;
      pi.handler = &mbarrierHandler<Action::Wait>;
      break;
    case Opcode::MbarrierPendingCount: pi.handler = &pendingCountHandler; break;
    case Opcode::CpAsyncMbarrierArrive:
      if (op != Mod::None && op != Mod::NoInc) {
        why = "this cp.async.mbarrier.arrive form";
        return false;
      }
      pi.aux = op == Mod::NoInc ? kNoInc : 0;
      pi.handler = &mbarrierHandler<Action::CpAsyncArrive>;
      break;
    default: why = "not an mbarrier instruction"; return false;
  }
  return true;
}

}  // namespace

void registerMbarrierSemantics(SemanticsTable& table) {
  for (Opcode opcode :
       {Opcode::MbarrierInit, Opcode::MbarrierInval, Opcode::MbarrierExpectTx, Opcode::MbarrierCompleteTx,
        Opcode::MbarrierArrive, Opcode::MbarrierArriveDrop, Opcode::MbarrierTestWait, Opcode::MbarrierTryWait,
        Opcode::MbarrierPendingCount, Opcode::CpAsyncMbarrierArrive}) {
    table.add(opcode, &selectMbarrier);
  }
}

}  // namespace ptxsim::sim::semantics
