// Synchronising instructions under the two SIMT modes: what a group must
// wait for before it executes a *.sync collective, bar.warp.sync or a CTA
// barrier, and which uses the ISA forbids (reported as errors with their
// location, as compute-sanitizer's synccheck reports them).

#include <bit>
#include <cstdio>

#include "../hex_text.h"
#include "ptxsim/isa/instruction_table.h"
#include "simt_policy.h"

namespace ptxsim::sim::exec {

namespace {

std::string nameOf(const PreparedInstruction& pi) { return std::string(isa::mnemonicOf(pi.source->opcode)); }

unsigned firstLane(LaneMask mask) { return static_cast<unsigned>(std::countr_zero(mask | (mask == 0 ? 1u : 0u))); }

// The union of the executing lanes' member masks. The ISA makes a .sync
// instruction wait for the non-exited threads of its mask: exited members
// drop out (--check=warp-sync reports them).
LaneMask memberUnion(ExecContext& ctx, const PreparedInstruction& pi) {
  const uint64_t* row = ctx.row(pi.ops[pi.operandCount - 1].row);
  LaneMask members = 0;
  forLanes(ctx.mask, [&](unsigned l) { members |= static_cast<LaneMask>(row[l]); });
  return members;
}

// Lanes of groups waiting with `wait` at the running group's PC and frame,
// the running group included.
LaneMask presentAt(const Warp& warp, GroupWait wait, bool samePc) {
  const ThreadGroup& me = warp.groups[warp.current];
  LaneMask present = me.mask;
  for (const ThreadGroup& g : warp.groups) {
    if (g.mask != 0 && g.wait == wait && (!samePc || (g.pc == me.pc && g.frame == me.frame))) present |= g.mask;
  }
  return present;
}

// Merges the groups waiting with `wait` at the running group's PC that
// hold lanes of `lanes` into it.
void gather(ExecContext& ctx, GroupWait wait, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  ThreadGroup& me = warp.groups[warp.current];
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    ThreadGroup& g = warp.groups[i];
    if (i == warp.current || g.mask == 0 || g.wait != wait || g.pc != me.pc || g.frame != me.frame ||
        (g.mask & lanes) == 0) {
      continue;
    }
    absorbGroup(warp, warp.current, i);
  }
  me.wait = GroupWait::None;
  ctx.active = me.mask;
  LaneMask mask = me.mask;
  const PreparedInstruction& pi = *ctx.current;
  if (pi.guardRow != kNoRow) {
    LaneMask holds = predicateMask(ctx.row(pi.guardRow));
    mask &= pi.guardNegated ? ~holds : holds;
  }
  ctx.mask = mask;
}

std::string lineOf(const ThreadGroup& g) {
  return std::to_string(g.frame->function->code[g.pc].source->where.line);
}

}  // namespace

bool readyToSynchronise(ExecContext& ctx, const PreparedInstruction& pi) {
  Warp& warp = *ctx.warp;
  ThreadGroup& me = warp.group();
  switch (pi.sync) {
    case SyncKind::None: return true;
    case SyncKind::Collective: {
      LaneMask needed = memberUnion(ctx, pi) & warp.live();
      if ((needed & ~presentAt(warp, GroupWait::Collective, true)) != 0) {
        me.wait = GroupWait::Collective;
        return false;
      }
      gather(ctx, GroupWait::Collective, needed);
      return true;
    }
    case SyncKind::WarpAligned: {
      // The whole warp executes the instruction together; the handler
      // reports lanes that can never come.
      LaneMask needed = warp.live();
      if ((needed & ~presentAt(warp, GroupWait::Collective, true)) != 0) {
        me.wait = GroupWait::Collective;
        return false;
      }
      gather(ctx, GroupWait::Collective, needed);
      return true;
    }
    case SyncKind::WarpSync: {
      LaneMask needed = memberUnion(ctx, pi) & warp.live();
      // __syncwarp may be reached at different points of the program.
      if ((needed & ~presentAt(warp, GroupWait::WarpSync, false)) != 0) {
        me.wait = GroupWait::WarpSync;
        return false;
      }
      for (uint32_t i = 0; i < warp.groups.size(); ++i) {
        ThreadGroup& g = warp.groups[i];
        if (i == warp.current || g.mask == 0 || g.wait != GroupWait::WarpSync || (g.mask & needed) == 0) continue;
        ctx.synced |= g.mask;
        advanceGroup(warp, i);
      }
      return true;
    }
    case SyncKind::CtaBarrier: {
      // The ISA: a barrier instruction makes a thread wait for the
      // non-exited threads of its warp, then the warp arrives.
      // Threads of a warp may wait at different barrier instructions only
      // for the non-.aligned barrier.sync and barrier.cluster (bar.sync is
      // .aligned).
      bool aligned =
          (pi.source->opcode != isa::Opcode::Barrier && pi.source->opcode != isa::Opcode::BarrierCluster) ||
          pi.source->modifiers.has(isa::Mod::AlignedMod);
      LaneMask present = presentAt(warp, GroupWait::Barrier, aligned);
      for (const ThreadGroup& g : warp.groups) {
        if (aligned && g.mask != 0 && g.wait == GroupWait::Barrier && (g.pc != me.pc || g.frame != me.frame)) {
          ctx.fail(LaunchErrorKind::IllegalInstruction,
                   "barrier in divergent code: lanes " + hex32(me.mask) + " of the warp reached this barrier while lanes " +
                       hex32(g.mask) + " wait at the barrier at PTX line " + lineOf(g),
                   firstLane(me.mask));
          return false;
        }
      }
      if ((warp.live() & ~present) != 0) {
        me.wait = GroupWait::Barrier;
        return false;
      }
      gather(ctx, GroupWait::Barrier, warp.live());
      // Groups waiting at other barrier.sync instructions arrive with it.
      ctx.synced |= presentAt(warp, GroupWait::Barrier, false) & ~me.mask;
      return true;
    }
  }
  return true;
}

void noteExitedMembers(ExecContext& ctx, const PreparedInstruction& pi) {
  if (pi.sync != SyncKind::Collective && pi.sync != SyncKind::WarpSync) return;
  LaneMask members = memberUnion(ctx, pi);
  LaneMask exited = members & ctx.warp->exited & ctx.warp->existing;
  if (exited == 0) return;
  uint32_t line = pi.source->where.line;
  uint64_t order = (ctx.cta->linearId << 32) | ctx.warp->index;
  std::lock_guard lock(ctx.grid.maskWarningsMutex);
  auto it = ctx.grid.maskWarnings.find(line);
  if (it != ctx.grid.maskWarnings.end() && it->second.first <= order) return;
  ctx.grid.maskWarnings[line].first = order;
  ctx.grid.maskWarnings[line].second =
      "ptxsim: warp-sync hazard in kernel " + ctx.grid.kernel.kernel().function->name + ": the member mask " +
      hex32(members) + " of " + nameOf(pi) + " at PTX line " + std::to_string(line) + " names lanes " + hex32(exited) +
      " of warp " + std::to_string(ctx.warp->index) + " in block (" + std::to_string(ctx.cta->ctaid.x) + "," +
      std::to_string(ctx.cta->ctaid.y) + "," + std::to_string(ctx.cta->ctaid.z) + "), which have exited";
}

bool convergedForSynchronisation(ExecContext& ctx, const PreparedInstruction& pi) {
  if (pi.sync != SyncKind::CtaBarrier) return true;  // collectives check their masks themselves
  LaneMask away = ctx.warp->live() & ~ctx.active;
  if (away == 0) return true;
  ctx.fail(LaunchErrorKind::IllegalInstruction,
           nameOf(pi) + " in divergent code: lanes " + hex32(ctx.active) + " of the warp reached it while lanes " +
               hex32(away) + " are on another path (the ISA requires a converged warp before sm_70; --simt=stack)",
           firstLane(ctx.active));
  return false;
}

}  // namespace ptxsim::sim::exec
