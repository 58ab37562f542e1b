#pragma once

// The SMs running ahead of the timing driver's windows (timing_driver.cpp,
// "Running ahead"), each as a task on the window pool: started with the
// cycle it runs from and the cycle it must stop at, it publishes how far it
// has got and, once stopped, the cycle it stopped before. The driver asks
// only "did it stop before cycle X", waiting until it has either stopped or
// got to X, so what the driver does never depends on how fast a host thread
// ran. The driver's thread, when it waits for an SM no helper has taken,
// runs it only as far as it needs (with no helpers, or nothing else to do,
// all the way), and leaves the rest to a new task.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "window_pool.h"

namespace ptxsim::sim::timing {

class RunAhead {
 public:
  // Runs the SM from cycle `from` until it stops or gets to `until`,
  // storing in `reached` how far it has got; returns the cycle it stopped
  // before (SmModel::runAhead). Called again from that cycle when it got
  // to `until` before the job's end.
  using Run = std::function<uint64_t(std::atomic<uint64_t>& reached, uint64_t from, uint64_t until)>;

  RunAhead(WindowPool& pool, size_t sms) : pool_(pool), jobs_(sms) {}
  // Waits for every SM still running ahead: they use the SMs' state.
  ~RunAhead();
  RunAhead(const RunAhead&) = delete;
  RunAhead& operator=(const RunAhead&) = delete;

  bool running(uint32_t sm) const { return jobs_[sm].task != nullptr; }
  size_t count() const { return count_; }
  // Starts SM `sm` (not running ahead) running ahead from cycle `from` to
  // at most `end`.
  void start(uint32_t sm, uint64_t from, uint64_t end, Run run);
  // Waits until SM `sm`, running ahead, has stopped or got to `cycle`. If
  // it stopped before `cycle` (or at all, for UINT64_MAX), it no longer
  // runs ahead: returns the cycle it stopped before (rethrowing what it
  // threw). Else nothing. `idle`: the driver has nothing else to do until
  // then, so its thread runs an SM no helper has taken to its end.
  std::optional<uint64_t> stoppedBefore(uint32_t sm, uint64_t cycle, bool idle = false);
  // Waits until every SM running ahead has stopped; none runs ahead then.
  // Their stops, by SM (unset for SMs that were not running ahead).
  std::vector<std::optional<uint64_t>> stopAll();

 private:
  struct alignas(64) Job {
    std::atomic<uint64_t> reached = 0;
    uint64_t from = 0;   // where its task starts
    uint64_t until = 0;  // ... and stops at the latest
    uint64_t end = 0;    // where the job stops at the latest
    uint64_t stop = 0;   // written by the task before it is done
    Run run;
    std::unique_ptr<WindowPool::Task> task;
  };
  // A task running `job` from job.from to job.until, posted.
  void post(Job& job);
  // Waits until the job has stopped or got to `cycle`.
  void waitFor(Job& job, uint64_t cycle, bool idle);

  WindowPool& pool_;
  std::vector<Job> jobs_;
  size_t count_ = 0;
};

}  // namespace ptxsim::sim::timing
