#pragma once

// Progress of a long timed launch on stderr: every couple of seconds of
// host time, one line with the kernel, the simulated cycles so far, its
// warp instructions and the simulation rate. Launches shorter than the
// interval print nothing (unless asked to: Progress::On), so short runs'
// stderr stays as it was. The driver calls due() once per event of its
// loop; the wall clock is read only once per kEventsPerCheck of them.

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "ptxsim/sim/launch.h"

namespace ptxsim::sim::timing {

struct ProgressCounts {
  uint64_t cycles = 0;
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
};

class ProgressMeter {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  static constexpr uint32_t kEventsPerCheck = 1024;

  // `kernel`: the launch's kernel (mangled; shown by its function name).
  ProgressMeter(std::string_view kernel, Progress mode, std::ostream& out,
                Clock clock = std::chrono::steady_clock::now,
                std::chrono::milliseconds interval = std::chrono::seconds(2));

  // Whether a line is due now: call report() then.
  bool due() {
    if (++events_ < eventsPerCheck_) return false;
    events_ = 0;
    return clockDue();
  }
  void report(const ProgressCounts& counts);
  // At the launch's end: its final line, under Progress::On or when it printed any.
  void finish(const ProgressCounts& counts);

 private:
  bool clockDue();
  void print(const ProgressCounts& counts, std::chrono::steady_clock::time_point at);

  std::string kernel_;
  Progress mode_;
  std::ostream& out_;
  Clock clock_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  uint32_t events_ = 0;
  uint32_t eventsPerCheck_;
  bool printed_ = false;
};

}  // namespace ptxsim::sim::timing
