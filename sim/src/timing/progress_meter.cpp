#include "progress_meter.h"

#include <cstdio>

#include "launch_selection.h"

namespace ptxsim::sim::timing {

ProgressMeter::ProgressMeter(std::string_view kernel, Progress mode, std::ostream& out, Clock clock,
                             std::chrono::milliseconds interval)
    : kernel_(functionName(kernel)),
      mode_(mode),
      out_(out),
      clock_(std::move(clock)),
      interval_(interval),
      // Off: the counter never reaches a check.
      eventsPerCheck_(mode == Progress::Off ? UINT32_MAX : kEventsPerCheck) {
  if (mode_ != Progress::Off) {
    start_ = clock_();
    next_ = start_ + interval_;
  }
}

bool ProgressMeter::clockDue() { return mode_ != Progress::Off && clock_() >= next_; }

void ProgressMeter::report(const ProgressCounts& counts) {
  auto now = clock_();
  print(counts, now);
  // The next line an interval after this one, however late this one came.
  next_ = now + interval_;
}

void ProgressMeter::finish(const ProgressCounts& counts) {
  if (mode_ == Progress::On || (mode_ == Progress::Auto && printed_)) print(counts, clock_());
}

void ProgressMeter::print(const ProgressCounts& counts, std::chrono::steady_clock::time_point at) {
  double seconds = std::chrono::duration<double>(at - start_).count();
  double rate = seconds > 0 ? static_cast<double>(counts.threadInstructions) / seconds : 0.0;
  char line[256];
  std::snprintf(line, sizeof line, ": %.2f M cycles, %.1f M warp instructions, %.1f M thread-instructions/s\n",
                static_cast<double>(counts.cycles) / 1e6, static_cast<double>(counts.warpInstructions) / 1e6,
                rate / 1e6);
  out_ << "ptxsim: kernel " << kernel_ << line << std::flush;
  printed_ = true;
}

}  // namespace ptxsim::sim::timing
