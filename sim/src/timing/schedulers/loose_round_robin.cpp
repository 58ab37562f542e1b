// Loose round-robin (LRR): each cycle the first ready warp after the one
// issued last, in slot order, so every ready warp gets its turn.
#include "candidate_order.h"
#include "issue_policy.h"

namespace ptxsim::sim::timing {

namespace {

class LooseRoundRobin final : public IssuePolicy {
 public:
  int choose(std::span<const WarpCandidate> warps) override {
    int first = -1, after = -1;
    for (size_t i = 0; i < warps.size(); ++i) {
      if (!warps[i].ready) continue;
      if (first < 0) first = static_cast<int>(i);
      if (after < 0 && (!last_.any || warps[i].slot > last_.slot)) after = static_cast<int>(i);
    }
    return last_.remember(warps, after >= 0 ? after : first);  // wrap around
  }

 private:
  LastIssued last_;
};

}  // namespace

std::unique_ptr<IssuePolicy> makeLooseRoundRobin() { return std::make_unique<LooseRoundRobin>(); }

}  // namespace ptxsim::sim::timing
