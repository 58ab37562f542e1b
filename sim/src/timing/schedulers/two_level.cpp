// Two-level (Narasiman et al., MICRO 2011; Gebhart et al., ISCA 2011):
// round-robin over a small active set of warps; a warp that waits on a
// long-latency (memory) result leaves it for the tail of a pending set,
// and pending warps that are not waiting fill the freed places in order.
// The active set stays small, so its warps reach their memory operations
// at different times and hide each other's latency.
#include <algorithm>
#include <deque>

#include "issue_policy.h"

namespace ptxsim::sim::timing {

namespace {

constexpr size_t kActiveWarps = 8;

class TwoLevel final : public IssuePolicy {
 public:
  int choose(std::span<const WarpCandidate> warps) override {
    auto find = [&](uint32_t slot) -> const WarpCandidate* {
      for (const WarpCandidate& w : warps) {
        if (w.slot == slot) return &w;
      }
      return nullptr;
    };
    // Warps seen for the first time join the pending set in slot order.
    for (const WarpCandidate& w : warps) {
      if (!contains(active_, w.slot) && !contains(pending_, w.slot)) pending_.push_back(w.slot);
    }
    // Active warps waiting on memory step down to the pending set.
    for (auto it = active_.begin(); it != active_.end();) {
      const WarpCandidate* w = find(*it);
      if (w != nullptr && w->waitingOnMemory) {
        pending_.push_back(*it);
        it = active_.erase(it);
      } else {
        ++it;
      }
    }
    // Pending warps not waiting fill the active set, oldest in the set first.
    for (auto it = pending_.begin(); it != pending_.end() && active_.size() < kActiveWarps;) {
      const WarpCandidate* w = find(*it);
      if (w != nullptr && !w->waitingOnMemory) {
        active_.push_back(*it);
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
    // Round-robin in the active set, after the warp issued last.
    size_t start = 0;
    for (size_t i = 0; i < active_.size(); ++i) {
      if (issued_ && active_[i] == last_) start = i + 1;
    }
    for (size_t k = 0; k < active_.size(); ++k) {
      uint32_t slot = active_[(start + k) % active_.size()];
      const WarpCandidate* w = find(slot);
      if (w == nullptr || !w->ready) continue;
      last_ = slot;
      issued_ = true;
      return static_cast<int>(w - warps.data());
    }
    return -1;
  }

  void retire(uint32_t slot) override {
    active_.erase(std::remove(active_.begin(), active_.end(), slot), active_.end());
    pending_.erase(std::remove(pending_.begin(), pending_.end(), slot), pending_.end());
  }

 private:
  static bool contains(const std::deque<uint32_t>& list, uint32_t slot) {
    return std::find(list.begin(), list.end(), slot) != list.end();
  }

  std::deque<uint32_t> active_;
  std::deque<uint32_t> pending_;
  uint32_t last_ = 0;
  bool issued_ = false;
};

}  // namespace

std::unique_ptr<IssuePolicy> makeTwoLevel() { return std::make_unique<TwoLevel>(); }

}  // namespace ptxsim::sim::timing
