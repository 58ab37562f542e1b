// Barriers and fences: bar/barrier (.sync, .arrive, .red), barrier.cluster
// (exec/cluster_barrier.h), bar.warp.sync, membar, fence, nanosleep.

#include "../exec/barriers.h"
#include "../exec/cluster_barrier.h"
#include "../exec/warp_control.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::BarrierArrival;
using exec::BarrierReduction;
using isa::Opcode;

uint32_t uniformValue(ExecContext& ctx, uint32_t row) {
  LaneMask lanes = ctx.active;
  unsigned lane = lanes == 0 ? 0 : static_cast<unsigned>(std::countr_zero(lanes));
  return static_cast<uint32_t>(ctx.row(row)[lane]);
}

// aux: 1 for .arrive; aux2: the BarrierReduction of .red. Operands: a{, b}
// for sync/arrive; d, a{, b}, {!}c for red.
void barrierHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  BarrierArrival arrival;
  auto reduction = static_cast<BarrierReduction>(pi.aux2);
  unsigned first = reduction == BarrierReduction::None ? 0 : 1;
  arrival.id = uniformValue(ctx, pi.ops[first].row);
  if (arrival.id >= exec::kBarrierCount) {
    ctx.fail(LaunchErrorKind::IllegalInstruction, "barrier " + std::to_string(arrival.id) + " out of range (0..15)",
             static_cast<unsigned>(std::countr_zero(ctx.active | 1u)));
    return;
  }
  unsigned countOperand = first + 1;
  unsigned predicateOperand = pi.operandCount - 1;
  bool hasCount = reduction == BarrierReduction::None ? pi.operandCount > 1 : pi.operandCount == 4;
  if (hasCount) {
    arrival.count = uniformValue(ctx, pi.ops[countOperand].row);
    if (arrival.count == 0 || arrival.count % exec::kWarpSize != 0) {
      ctx.fail(LaunchErrorKind::IllegalInstruction,
               "barrier thread count " + std::to_string(arrival.count) + " is not a positive multiple of 32",
               static_cast<unsigned>(std::countr_zero(ctx.active | 1u)));
      return;
    }
  }
  arrival.wait = pi.aux == 0;
  arrival.reduction = reduction;
  if (reduction != BarrierReduction::None) {
    const PreparedOperand& c = pi.ops[predicateOperand];
    const uint64_t* p = ctx.row(c.row);
    exec::forLanes(ctx.mask, [&](unsigned l) {
      if ((p[l] != 0) != c.negated) arrival.predicate |= LaneMask{1} << l;
    });
  }
  exec::arrive(ctx, arrival);
}

bool selectBarrier(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  isa::Mod op = inst.modifiers.get(isa::ModGroup::BarrierOp);
  pi.aux = op == isa::Mod::Arrive ? 1 : 0;
  if (op == isa::Mod::RedOp) {
    switch (inst.modifiers.get(isa::ModGroup::ReduceOp)) {
      case isa::Mod::RedPopc: pi.aux2 = static_cast<uint64_t>(BarrierReduction::Popc); break;
      case isa::Mod::RedAnd: pi.aux2 = static_cast<uint64_t>(BarrierReduction::And); break;
      case isa::Mod::RedOr: pi.aux2 = static_cast<uint64_t>(BarrierReduction::Or); break;
      default: why = "this bar.red operation"; return false;
    }
  }
  if (inst.guard.reg != isa::kNone) {
    why = "a guarded barrier";
    return false;
  }
  pi.handler = &barrierHandler;
  pi.changesControl = true;
  return true;
}

// barrier.cluster.arrive / .wait (aux 1 for arrive): the .release,
// .acquire and .relaxed orderings change nothing in a model where every
// access is visible at once.
void clusterBarrierHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (pi.aux == 1) {
    exec::clusterArrive(ctx);
  } else {
    exec::clusterWait(ctx);
  }
}

bool selectClusterBarrier(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.aux = inst.modifiers.get(isa::ModGroup::BarrierOp) == isa::Mod::Arrive ? 1 : 0;
  pi.handler = &clusterBarrierHandler;
  pi.changesControl = true;
  return true;
}

// The executor has already made the group wait for its member mask under
// independent thread scheduling (exec/sync_points.cpp); under the stack a
// warp's active lanes run in lockstep. What is left is the ISA's rule that
// the executing thread be in its own mask.
void warpSyncHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* members = ctx.row(pi.ops[0].row);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    if (((members[l] >> l) & 1) == 0) {
      ctx.fail(LaunchErrorKind::IllegalInstruction, "bar.warp.sync executed by a thread not in its member mask", l);
    }
  });
}

bool selectWarpSync(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &warpSyncHandler;
  return true;
}

// Every access of the functional model is performed, and visible, at once:
// fences and sleeps have nothing to order or wait for.
void noEffectHandler(const PreparedInstruction&, ExecContext&) {}

bool selectNoEffect(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &noEffectHandler;
  return true;
}

}  // namespace

void registerSyncSemantics(SemanticsTable& table) {
  table.add(Opcode::Bar, &selectBarrier);
  table.add(Opcode::Barrier, &selectBarrier);
  table.add(Opcode::BarrierCluster, &selectClusterBarrier);
  table.add(Opcode::BarWarpSync, &selectWarpSync);
  table.add(Opcode::Membar, &selectNoEffect);
  table.add(Opcode::Fence, &selectNoEffect);
  table.add(Opcode::Nanosleep, &selectNoEffect);
}

}  // namespace ptxsim::sim::semantics
