#pragma once

// Which instructions of a cluster launch reach another CTA of the cluster,
// and so must not run inside a timing window (timing_driver.cpp): an SM's
// window runs on its own host thread while the cluster's other CTAs run on
// theirs, so anything that reads or writes another CTA's state runs in the
// driver's serial phase, in (cycle, SM, sub-partition) order, as global
// atomics do. Those are: accesses whose address (any lane's, of any
// address operand) lies in another CTA's slot of the .shared::cluster
// window (distributed shared memory, remote mbarrier arrivals, bulk copies
// to another CTA), multicast bulk copies, st.async, barrier.cluster (its
// count and waiters are the cluster's), and the exit of a warp (it
// changes the cluster barrier's count of live warps).

#include <optional>

#include "../exec/prepared.h"
#include "../exec/warp_state.h"
#include "ptxsim/memory/generic_address.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

// Whether `pi`, about to run for `lanes` of a warp in `frame` of the CTA of
// rank `ownRank`, reaches another CTA of its cluster (or the cluster's
// shared state). Conservative: a lane outside `lanes` with a stale address
// may make it true.
bool reachesClusterPeers(const exec::PreparedInstruction& pi, const exec::Frame& frame, exec::LaneMask lanes,
                         uint32_t ownRank, const memory::GenericLayout& layout);

// The rank of the other CTA in whose slot of the .shared::cluster window
// `address` lies, if it does: as a generic address, or, where the
// instruction names a shared state space (`sharedOffset`), as an offset
// into that window.
std::optional<uint64_t> peerRankOf(uint64_t address, bool sharedOffset, uint32_t ownRank,
                                   const memory::GenericLayout& layout);
inline bool addressReachesPeer(uint64_t address, bool sharedOffset, uint32_t ownRank,
                               const memory::GenericLayout& layout) {
  return peerRankOf(address, sharedOffset, ownRank, layout).has_value();
}

// The cycles a barrier.cluster phase takes to release its warps in a
// cluster of `ctas` CTAs (ClusterTiming).
inline uint64_t clusterBarrierCycles(const ClusterTiming& timing, uint64_t ctas) {
  return timing.barrierCycles + timing.barrierCyclesPerCta * ctas;
}

}  // namespace ptxsim::sim::timing
