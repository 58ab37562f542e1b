#pragma once

// Livelock detection for a CTA: threads that spin forever waiting for a
// thread that cannot run (an intra-warp spin lock under the stack, a lost
// wake-up) keep executing instructions, so "no warp can run" never
// happens. Once the CTA has run a while without writing memory, its whole
// state (every warp's groups, PCs, registers and schedule state) is hashed
// at the end of each scheduling round; a state that comes back with memory
// unchanged, here and in every other CTA, will come back forever, since the
// schedule is deterministic. Brent's cycle detection finds the repetition
// with one saved hash. The random schedule's generator is left out of the
// hash, which makes the verdict a strong heuristic there rather than a proof.

#include <cstdint>

#include "cta_state.h"

namespace ptxsim::sim::exec {

class ProgressMonitor {
 public:
  // Called after each scheduling round with the instructions it executed
  // and the launch-wide count of memory-writing instructions published so
  // far. True from the round the CTA's state is seen to repeat until memory
  // changes: the CTA is livelocked unless another running CTA is not (one
  // whose host thread is just slow may still release it), which
  // cta_runner.cpp decides with the launch-wide counts.
  bool repeating(const CtaState& cta, uint64_t executed, uint64_t launchWrites);

 private:
  // Instructions without a memory write before the state is watched.
  static constexpr uint64_t kQuietInstructions = uint64_t{1} << 18;
  static constexpr uint64_t kSampleRounds = 8;

  uint64_t lastWrites_ = 0;
  uint64_t lastLaunchWrites_ = 0;
  uint64_t quiet_ = 0;
  uint64_t rounds_ = 0;
  uint64_t saved_ = 0;
  bool haveSaved_ = false;
  bool repeating_ = false;
  uint64_t power_ = 1;
  uint64_t length_ = 0;
};

}  // namespace ptxsim::sim::exec
