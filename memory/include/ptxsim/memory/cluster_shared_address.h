#pragma once

// The .shared::cluster window (distributed shared memory, sm_90): how an
// address names the shared memory of one CTA of a thread block cluster.
//
// The window is cut into slots of kClusterSlotBytes. Slot 0 is the
// executing CTA's own shared memory: a .shared::cta address (an offset
// below the CTA's shared size) is also its .shared::cluster address, as the
// ISA requires. Slot 1 + r holds the shared memory of the CTA of rank r
// (%cluster_ctarank), so mapa gives (1 + r) * kClusterSlotBytes + offset,
// whichever CTA runs it. A slot is far larger than any CTA's shared memory
// (at most 227 KiB), and the slots of a cluster's 16 CTAs end well inside
// the generic shared window (GenericLayout::sharedSize, 4 GiB), which
// holds the .shared::cluster window at its base: cvta moves addresses of
// every slot, and generic accesses reach other CTAs the same way.

#include <cstdint>

namespace ptxsim::memory {

inline constexpr uint64_t kClusterSlotBytes = uint64_t{1} << 24;
// Ranks whose slots fit a 32-bit .shared::cluster address.
inline constexpr uint64_t kClusterSlotRanks = (uint64_t{1} << 32) / kClusterSlotBytes - 1;

struct ClusterSharedAddress {
  bool own = true;    // slot 0: the executing CTA's own shared memory
  uint64_t rank = 0;  // the CTA of that rank, when not `own`
  uint64_t offset = 0;
};

inline ClusterSharedAddress decodeClusterShared(uint64_t address) {
  uint64_t slot = address / kClusterSlotBytes;
  return {slot == 0, slot == 0 ? 0 : slot - 1, address % kClusterSlotBytes};
}

// mapa: the address of the same offset in the CTA of rank `rank`.
inline uint64_t clusterSharedOf(uint64_t rank, uint64_t address) {
  return (rank + 1) * kClusterSlotBytes + address % kClusterSlotBytes;
}

}  // namespace ptxsim::memory
