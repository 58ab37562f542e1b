#pragma once

// The SIMT policy: which group of a warp runs next, and when groups wait
// and merge (not a warp scheduler, which chooses between warps: that is
// the timing model's, sim/src/timing/schedulers). It is the
// difference between the SIMT modes and schedule policies (ptxsim/sim/simt.h).
//
// - Stack (pre-Volta): the newest group runs; a group that reaches its
//   meeting point waits there until every lane of the divergence arrives,
//   exactly as a reconvergence stack pops. No forward progress for threads
//   that wait on each other (an intra-warp spin lock livelocks).
// - ITS, converge: like the stack, but a group keeps the warp for at most a
//   time slice, and a group waits at a meeting point for a bounded number of
//   the warp's steps, so every thread makes progress.
// - ITS, round-robin / random: a group per step, in turn or at random
//   (seeded per warp); groups meet only when they happen to reach the same
//   PC with the same history.
// - ITS, adversarial: each thread runs alone, lowest lane first, until it
//   must wait for others (a collective, bar.warp.sync, a barrier) or its
//   time slice ends, so code that assumes lockstep execution breaks.
//
// Under ITS the *.sync instructions wait for their member masks and CTA
// barriers for the rest of the warp (readyToSynchronise).

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Sets a warp's mode and policy at the start of a CTA; the random policy's
// generator is seeded from the seed, the CTA and the warp, so a run does not
// depend on which host thread ran what.
void configureWarp(Warp& warp, SimtMode mode, ItsSchedule schedule, uint64_t seed, uint64_t cta);

// Records lanes that split at the running point and may meet at `meet` in
// `frame`; returns its id for ThreadGroup::splits.
uint32_t openDivergence(Warp& warp, Frame* frame, uint32_t meet, LaneMask lanes);

// After a group's PC or frame changed: it may have reached a meeting point,
// where it waits or merges (by policy).
void groupMoved(Warp& warp, uint32_t group);

// `lanes` of a group exited: they leave the group and every divergence.
void removeLanes(Warp& warp, uint32_t group, LaneMask lanes);

// A group leaves `frame` (returns from it): divergences opened in it no
// longer expect its lanes.
void leaveDivergencesIn(Warp& warp, uint32_t group, const Frame* frame);

// `from`'s lanes join `into` (both at one PC of one frame); `from` dies.
// Divergences only one of them is in no longer expect the other's lanes.
void absorbGroup(Warp& warp, uint32_t into, uint32_t from);

// A group's PC moves past the instruction it waited at (a released barrier).
void advanceGroup(Warp& warp, uint32_t group);

// Chooses Warp::current for the next step. False when no group can run:
// the warp is done, or blocked until a CTA barrier releases it, or stuck
// (deadlocked) — then `stuck` is set.
bool pickGroup(Warp& warp, bool& stuck);

// Under ITS: whether the running group may execute the synchronising
// instruction `pi` now. False when it must wait (it then waits, and another
// group runs) or when the instruction is misused (the launch has failed).
// The lanes of other groups released with it are added to ctx.synced.
bool readyToSynchronise(ExecContext& ctx, const PreparedInstruction& pi);

// --check=warp-sync: a .sync instruction whose member mask names threads
// that have exited works as the ISA says (they are not waited for), but
// compute-sanitizer's synccheck reports it, and so does this, once per line.
void noteExitedMembers(ExecContext& ctx, const PreparedInstruction& pi);

// Under the stack: checks that a synchronising instruction runs as the ISA
// requires for sm_6x (a CTA barrier with the whole warp converged).
bool convergedForSynchronisation(ExecContext& ctx, const PreparedInstruction& pi);

}  // namespace ptxsim::sim::exec
