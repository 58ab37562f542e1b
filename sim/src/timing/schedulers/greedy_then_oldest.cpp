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
    if (issued_) {
      for (size_t i = 0; i < warps.size(); ++i) {
        if (warps[i].slot == last_ && warps[i].ready) return static_cast<int>(i);
      }
    }
    int chosen = oldestReady(warps);
    if (chosen >= 0) {
      last_ = warps[static_cast<size_t>(chosen)].slot;
      issued_ = true;
    }
    return chosen;
  }

 private:
  uint32_t last_ = 0;
  bool issued_ = false;
};

}  // namespace

std::unique_ptr<IssuePolicy> makeGreedyThenOldest() { return std::make_unique<GreedyThenOldest>(); }

}  // namespace ptxsim::sim::timing
