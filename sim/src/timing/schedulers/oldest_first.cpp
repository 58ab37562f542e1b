// Oldest first: the oldest ready warp every cycle, so the warps of the
// oldest CTA finish first and free their resources for the next CTA.
#include "candidate_order.h"
#include "issue_policy.h"

namespace ptxsim::sim::timing {

namespace {

class OldestFirst final : public IssuePolicy {
 public:
  int choose(std::span<const WarpCandidate> warps) override { return oldestReady(warps); }
};

}  // namespace

std::unique_ptr<IssuePolicy> makeOldestFirst() { return std::make_unique<OldestFirst>(); }

}  // namespace ptxsim::sim::timing
