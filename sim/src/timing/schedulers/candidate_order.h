#pragma once

// Orders of warp candidates that several policies share.

#include <span>

#include "issue_policy.h"

namespace ptxsim::sim::timing {

// The index of the oldest ready warp, or -1 (equal ages: the lower slot).
inline int oldestReady(std::span<const WarpCandidate> warps) {
  int oldest = -1;
  for (size_t i = 0; i < warps.size(); ++i) {
    if (warps[i].ready && (oldest < 0 || warps[i].age < warps[static_cast<size_t>(oldest)].age)) {
      oldest = static_cast<int>(i);
    }
  }
  return oldest;
}

// The warp a policy issued last, for policies that start from it.
struct LastIssued {
  uint32_t slot = 0;
  bool any = false;

  // Notes `chosen` (an index in `warps`, or -1) and returns it.
  int remember(std::span<const WarpCandidate> warps, int chosen) {
    if (chosen >= 0) {
      slot = warps[static_cast<size_t>(chosen)].slot;
      any = true;
    }
    return chosen;
  }
};

}  // namespace ptxsim::sim::timing
