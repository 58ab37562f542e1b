#pragma once

// A warp's groups of asynchronous operations in the timing model (wgmma's
// and the bulk copies'): the operations issued since the last commit form
// the open group, done when the last of them is; a commit closes it, and a
// wait_group N holds the warp until all but the N most recent committed
// groups are done.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptxsim::sim::timing {

struct CompletionGroups {
  uint64_t open = 0;                // when the operations since the last commit are done
  std::vector<uint64_t> committed;  // when each committed group is, oldest first

  void add(uint64_t done) { open = std::max(open, done); }
  // An empty group is complete at once (its cycle 0 waits for nothing).
  void commit() {
    committed.push_back(open);
    open = 0;
  }
  // wait_group `keep`: the cycle (`now` or later) the groups it waits for
  // are done; they are forgotten.
  uint64_t waitFor(uint64_t keep, uint64_t now) {
    uint64_t done = now;
    const size_t waited = committed.size() > keep ? committed.size() - keep : 0;
    for (size_t g = 0; g < waited; ++g) done = std::max(done, committed[g]);
    committed.erase(committed.begin(), committed.begin() + static_cast<std::ptrdiff_t>(waited));
    return done;
  }
};

}  // namespace ptxsim::sim::timing
