#include "launch_turns.h"

namespace ptxsim::sim::exec {

void LaunchTurns::waitFor(uint64_t cta) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return finishedPrefix_ >= cta; });
}

void LaunchTurns::finish(uint64_t cta) {
  std::lock_guard lock(mutex_);
  finished_[cta] = true;
  uint64_t before = finishedPrefix_;
  while (finishedPrefix_ < finished_.size() && finished_[finishedPrefix_]) ++finishedPrefix_;
  if (finishedPrefix_ != before) changed_.notify_all();
}

}  // namespace ptxsim::sim::exec
