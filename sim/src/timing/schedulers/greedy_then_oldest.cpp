// Greedy then oldest (GTO, Rogers et al., MICRO 2012): keep issuing the
// warp issued last while it is ready; when it stalls, the oldest ready
// warp. Warps that run ahead keep their data in the cache longer.
#include "candidate_order.h"
#include "issue_policy.h"

namespace ptxsim::sim::timing {

namespace {

class GreedyThenOldest final : public IssuePolicy {
 public:
  int choose(std::span<const WarpCandidate> warps) override {
    if (last_.any) {
      for (size_t i = 0; i < warps.size(); ++i) {
        if (warps[i].slot == last_.slot && warps[i].ready) return static_cast<int>(i);
      }
    }
    return last_.remember(warps, oldestReady(warps));
  }

 private:
  LastIssued last_;
};

}  // namespace

std::unique_ptr<IssuePolicy> makeGreedyThenOldest() { return std::make_unique<GreedyThenOldest>(); }

}  // namespace ptxsim::sim::timing
