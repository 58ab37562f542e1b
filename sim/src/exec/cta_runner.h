#pragma once

// Runs CTAs on the calling host thread: a CTA's warps take turns (a
// quantum of instructions each, or until they block at a barrier), which
// is deterministic and lets warps that spin on each other make progress.
// A CTA in which no warp can move is a deadlock.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec_context.h"

namespace ptxsim::sim::exec {

// Runs CTAs of ctx.grid's launch a thread block cluster at a time (one CTA
// without clusters), taking each next cluster's index (cluster_geometry.h)
// from `next`, until none of the launch's `count` clusters are left; the
// CTAs of a cluster are resident together and take turns, a scheduling
// round each in rank order, so they may wait for each other
// (barrier.cluster, distributed shared memory). Each CTA runs to completion,
// as long as it does not wait for other CTAs. When every resident CTA has
// run a while without writing memory (a spin on a flag another CTA will
// set, as cuSPARSE's triangular solves and decoupled look-back scans do),
// as many CTAs again start beside them, up to `residentLimit` (what the
// GPU holds at once), and the resident CTAs take turns, a scheduling round
// each in CTA order, as a GPU's resident blocks progress together; with
// one host thread the interleaving, and so the results and statistics,
// are the same every run. Once no CTA is left to start, or the limit is
// reached, and every running CTA of the launch repeats its state, the
// lowest resident one is reported as a deadlock. A limit of 1 keeps one
// CTA resident (device-side launches wait for the CTAs before theirs).
// `finished` is called with each CTA that ends, and with a null state for
// one left out because a lower CTA failed; states are reused between CTAs
// to keep their buffers.
using FinishedCta = std::function<void(uint64_t linearId, CtaState* state)>;
void runCtaQueue(ExecContext& ctx, std::atomic<uint64_t>& next, uint64_t count, uint64_t residentLimit,
                 const FinishedCta& finished);

// The pieces runCta is made of, for drivers that interleave CTAs
// (cooperative_runner.h).

// Makes `ctas` (by rank, each set up by initCta) one thread block cluster;
// `cluster` must outlive them.
void formCluster(ClusterState& cluster, const std::vector<CtaState*>& ctas);

// Sets `cta` up as the CTA with linear index `linearId`, every warp at the
// kernel's entry.
void initCta(ExecContext& ctx, CtaState& cta, uint64_t linearId);

enum class RoundOutcome : uint8_t {
  Running,  // some thread moved
  Done,     // every thread has exited
  Stalled,  // no thread can move: a deadlock within the CTA
  Stopped,  // the launch failed (a fault, the instruction limit)
};

// One scheduling round: every ready warp runs for a quantum or until it
// blocks. `executed` receives the warp instructions it ran.
RoundOutcome runRound(ExecContext& ctx, CtaState& cta, uint64_t& executed);

// Fails the launch with a deadlock report for `cta`: "deadlock: WHY in
// kernel K, block (x,y,z) (simt M):" and every unfinished warp's threads.
void failStalled(ExecContext& ctx, CtaState& cta, const std::string& why);

}  // namespace ptxsim::sim::exec
