#pragma once

// How the threads of a warp are scheduled (issue 5): in lockstep under a
// reconvergence stack as before Volta, or with independent thread
// scheduling (ITS), where each thread has its own PC and call stack and a
// schedule policy chooses which group of threads at a common PC runs next.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxsim::sim {

enum class SimtMode : uint8_t {
  Default,  // from the GPU preset: the stack below sm_70, ITS from sm_70
  Stack,    // --simt=stack
  Its,      // --simt=its
};

enum class ItsSchedule : uint8_t {
  Converge,     // reconverge eagerly at post-dominators (what hardware usually shows)
  RoundRobin,   // a different group after every instruction; no waiting to reconverge
  Random,       // a random group each instruction, reproducible from the seed
  Adversarial,  // every thread alone until it must synchronise, lowest lane first
};

std::string_view nameOf(SimtMode mode);
std::string_view nameOf(ItsSchedule schedule);
std::optional<SimtMode> parseSimtMode(std::string_view text);
std::optional<ItsSchedule> parseItsSchedule(std::string_view text);

// The mode a launch runs in: the requested one, or by default what the
// CUDA programming guide says a program gets: pre-Volta scheduling on a
// pre-Volta GPU, and for code compiled from PTX for a target below sm_70
// (`ptxTarget`, the module's .target; 0 when unknown), ITS otherwise.
inline SimtMode resolveSimtMode(SimtMode requested, uint32_t smVersion, uint32_t ptxTarget = 0) {
  if (requested != SimtMode::Default) return requested;
  bool preVolta = smVersion < 70 || (ptxTarget != 0 && ptxTarget < 70);
  return preVolta ? SimtMode::Stack : SimtMode::Its;
}

}  // namespace ptxsim::sim
