#pragma once

// A resident CTA's standing in the grid-wide livelock vote: counted as
// running for as long as it is resident, and as repeating while its progress
// monitor says its states repeat without writing memory. A launch is a
// deadlock only when every running CTA repeats.

#include <atomic>
#include <cstdint>

namespace ptxsim::sim::exec {

// The grid's tally, shared by its host threads.
struct LivelockTally {
  std::atomic<uint32_t> running{0};
  std::atomic<uint32_t> repeating{0};
};

class LivelockVote {
 public:
  explicit LivelockVote(LivelockTally& tally) : tally_(tally) { tally_.running.fetch_add(1); }
  ~LivelockVote() {
    set(false);
    tally_.running.fetch_sub(1);
  }
  LivelockVote(const LivelockVote&) = delete;
  LivelockVote& operator=(const LivelockVote&) = delete;

  // Called only by the host thread running the CTA.
  void set(bool repeating) {
    if (repeating == repeating_) return;
    repeating_ = repeating;
    if (repeating) {
      tally_.repeating.fetch_add(1);
    } else {
      tally_.repeating.fetch_sub(1);
    }
  }
  // Every running CTA repeats: none can change memory for the others.
  bool unanimous() const { return repeating_ && tally_.repeating.load() == tally_.running.load(); }

 private:
  LivelockTally& tally_;
  bool repeating_ = false;
};

}  // namespace ptxsim::sim::exec
