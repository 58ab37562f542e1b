#pragma once

// Makes device-side launches see the same pending-launch count whatever
// the host thread count: a CTA's first launch waits until every CTA with a
// lower linear index has finished, so the launches counted before it are
// exactly those of the lower CTAs. CTAs start in increasing order, so the
// lowest unfinished CTA never waits and the wait always ends.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ptxsim::sim::exec {

class LaunchTurns {
 public:
  explicit LaunchTurns(uint64_t ctaCount) : finished_(ctaCount, false) {}

  // Blocks until CTAs [0, cta) have finished.
  void waitFor(uint64_t cta);
  // Marks a CTA finished (whether it completed or failed).
  void finish(uint64_t cta);

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<bool> finished_;
  uint64_t finishedPrefix_ = 0;  // CTAs [0, finishedPrefix_) have all finished
};

}  // namespace ptxsim::sim::exec
