#include "run_ahead.h"

#include <thread>

namespace ptxsim::sim::timing {

RunAhead::~RunAhead() {
  for (Job& job : jobs_) {
    if (job.task) waitFor(job, UINT64_MAX, true);
  }
}

void RunAhead::start(uint32_t sm, uint64_t from, uint64_t end, Run run) {
  Job& job = jobs_[sm];
  job.reached.store(from, std::memory_order_relaxed);
  job.from = from;
  job.until = end;
  job.end = end;
  job.run = std::move(run);
  ++count_;
  post(job);
}

void RunAhead::post(Job& job) {
  job.task =
      std::make_unique<WindowPool::Task>([&job] { job.stop = job.run(job.reached, job.from, job.until); });
  pool_.post(*job.task);
}

void RunAhead::waitFor(Job& job, uint64_t cycle, bool idle) {
  if (pool_.claim(*job.task)) {
    // Taken by no helper: run here, only as far as needed when helpers
    // could take the rest and the driver has windows to run.
    const bool part = pool_.threads() > 1 && cycle < job.end && !idle;
    if (part) job.until = cycle;
    job.task->runOnce();
    if (!part || job.stop < cycle || job.stop == UINT64_MAX) return;
    job.task->rethrow();
    job.from = job.stop;  // got to `cycle` without stopping
    job.until = job.end;
    job.reached.store(job.from, std::memory_order_relaxed);
    post(job);
    return;
  }
  while (!job.task->done() && job.reached.load(std::memory_order_acquire) < cycle) std::this_thread::yield();
}

std::optional<uint64_t> RunAhead::stoppedBefore(uint32_t sm, uint64_t cycle, bool idle) {
  Job& job = jobs_[sm];
  waitFor(job, cycle, idle);
  if (!job.task->done()) return std::nullopt;
  // Where it rejoins: at the cycle it stopped before or, with nothing left
  // to do, at the last it ran (so that the windows do not wait for it).
  const uint64_t at = job.stop != UINT64_MAX ? job.stop : job.reached.load(std::memory_order_relaxed);
  if (at >= cycle && cycle != UINT64_MAX) return std::nullopt;
  const std::unique_ptr<WindowPool::Task> task = std::move(job.task);
  --count_;
  task->rethrow();
  return job.stop;
}

std::vector<std::optional<uint64_t>> RunAhead::stopAll() {
  std::vector<std::optional<uint64_t>> stops(jobs_.size());
  for (uint32_t sm = 0; sm < jobs_.size(); ++sm) {
    if (jobs_[sm].task) stops[sm] = stoppedBefore(sm, UINT64_MAX, true);
  }
  return stops;
}

}  // namespace ptxsim::sim::timing
