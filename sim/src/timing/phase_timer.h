#pragma once

// The timing driver's host time laid into a HostProfile's phases
// (ptxsim/sim/host_profile.h), or nothing at all, not even a clock read,
// when the launch has no profile.

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

#include "ptxsim/sim/host_profile.h"

namespace ptxsim::sim::timing {

class PhaseTimer {
 public:
  explicit PhaseTimer(HostProfile* profile) : profile_(profile) { restart(); }

  bool on() const { return profile_ != nullptr; }
  HostProfile* profileOrNull() const { return profile_; }
  HostProfile& profile() { return *profile_; }
  // Adds the calling thread's time since the last mark (or restart) to `phase`.
  void mark(double HostProfile::*phase) {
    if (profile_ == nullptr) return;
    const double now = threadCpuSeconds();
    profile_->*phase += now - last_;
    last_ = now;
  }
  // Counts nothing since the last mark (the profile's own bookkeeping).
  void restart() {
    if (profile_ != nullptr) last_ = threadCpuSeconds();
  }

  struct Items {
    // The next mark counts from the last mark (the run's calling-thread
    // time then joins that phase too), not from the run's end.
    bool keepMark = false;
    // Each item's wall time, not its CPU time: reading a thread's CPU
    // clock is a system call, about a microsecond on the device machine,
    // as long as an L2 slice's step.
    bool wallTimes = false;
  };
  // Runs `work(i)` for i in [0, count) through `run` (the pool), each
  // item's time added to `into`, and the run's wall time to `wall` if given.
  template <class Run, class Work>
  void parallel(const Run& run, size_t count, ParallelTime HostProfile::*into, double HostProfile::*wall,
                const Work& work, Items items = {}) {
    if (profile_ == nullptr) {
      run(count, work);
      return;
    }
    itemSeconds_.assign(count, 0.0);
    const auto started = std::chrono::steady_clock::now();
    auto itemClock = [&] { return items.wallTimes ? wallSeconds() : threadCpuSeconds(); };
    run(count, [&](size_t i) {
      const double from = itemClock();
      work(i);
      itemSeconds_[i] = itemClock() - from;
    });
    if (wall != nullptr)
      profile_->*wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    (profile_->*into).add(itemSeconds_);
    if (!items.keepMark) restart();
  }

 private:
  static double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  HostProfile* profile_;
  double last_ = 0;
  std::vector<double> itemSeconds_;  // by item of the current parallel run
};

// Adds a launch's SMs' CPU time running ahead (by SM) to the profile.
inline void addAheadSeconds(HostProfile& profile, std::span<const double> bySm) {
  double most = 0, least = 0;
  for (double seconds : bySm) {
    profile.aheadSeconds += seconds;
    if (seconds == 0) continue;
    most = std::max(most, seconds);
    least = least == 0 ? seconds : std::min(least, seconds);
  }
  profile.aheadMostSmSeconds += most;
  profile.aheadLeastSmSeconds += least;
}

// Adds the wall time from its construction to its end to a phase of the
// timer's profile, when the timer has one and `on`.
class WallTimer {
 public:
  WallTimer(const PhaseTimer& timer, double HostProfile::*phase, bool on = true)
      : profile_(on ? timer.profileOrNull() : nullptr), phase_(phase) {
    if (profile_ != nullptr) from_ = std::chrono::steady_clock::now();
  }
  ~WallTimer() {
    if (profile_ != nullptr)
      profile_->*phase_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - from_).count();
  }
  WallTimer(const WallTimer&) = delete;
  WallTimer& operator=(const WallTimer&) = delete;

 private:
  HostProfile* profile_;
  double HostProfile::*phase_;
  std::chrono::steady_clock::time_point from_;
};

}  // namespace ptxsim::sim::timing
