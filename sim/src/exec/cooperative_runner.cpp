#include "cooperative_runner.h"

#include <vector>

#include "cta_runner.h"
#include "progress_monitor.h"

namespace ptxsim::sim::exec {

namespace {

// A resident CTA and what the livelock watch keeps for it.
struct ResidentCta {
  CtaState state;
  ProgressMonitor monitor;
  bool finished = false;
  bool repeating = false;  // its state repeated with no memory written anywhere since
};

std::string gridDeadlockReason(uint64_t waiting, uint64_t total) {
  uint64_t exited = total - waiting;
  return "the blocks of the cooperative grid repeat the same states without writing memory (" +
         std::to_string(waiting) + " of " + std::to_string(total) + " blocks wait, " +
         std::to_string(exited) +
         " exited: a grid.sync() that some block never reaches, or a spin on memory no block writes); the "
         "first "
         "waiting one";
}

}  // namespace

void runCooperativeGrid(ExecContext& ctx, std::string& printfOutput,
                        std::map<uint64_t, std::vector<DeviceLaunch>>& launchesByCta) {
  const uint64_t count = ctx.grid.launch.grid.count();
  std::vector<ResidentCta> ctas(count);
  for (uint64_t id = 0; id < count; ++id) initCta(ctx, ctas[id].state, id);
  ctx.aborted = false;
  uint64_t running = count;
  uint64_t launchWrites = 0;  // memory-writing instructions of every CTA so far
  while (running > 0) {
    uint64_t repeating = 0;
    const uint64_t writesBeforePass = launchWrites;
    for (uint64_t id = 0; id < count; ++id) {
      ResidentCta& resident = ctas[id];
      if (resident.finished) continue;
      CtaState& cta = resident.state;
      uint64_t writesBefore = cta.memoryWrites;
      uint64_t executed = 0;
      RoundOutcome outcome = runRound(ctx, cta, executed);
      printfOutput += cta.printfOutput;
      cta.printfOutput.clear();
      for (DeviceLaunch& l : cta.deviceRuntime.launches) launchesByCta[id].push_back(std::move(l));
      cta.deviceRuntime.launches.clear();
      if (outcome == RoundOutcome::Stopped) return;  // a fault ends the whole grid, as on a GPU
      if (outcome == RoundOutcome::Stalled) {
        failStalled(ctx, cta, "no thread of the block can make progress");
        return;
      }
      launchWrites += cta.memoryWrites - writesBefore;
      if (outcome == RoundOutcome::Done) {
        resident = ResidentCta{};  // frees its warps, registers and shared memory
        resident.finished = true;
        --running;
        continue;
      }
      resident.repeating = resident.monitor.repeating(cta, executed, launchWrites);
      repeating += resident.repeating ? 1 : 0;
    }
    // Every unfinished CTA repeated in this pass and none (a finishing one
    // included) wrote memory: the grid's state as a whole repeats, forever.
    if (running > 0 && repeating == running && launchWrites == writesBeforePass) {
      for (ResidentCta& resident : ctas) {
        if (resident.finished) continue;
        failStalled(ctx, resident.state, gridDeadlockReason(running, count));
        return;
      }
    }
  }
}

}  // namespace ptxsim::sim::exec
