#pragma once

// Why a warp did not issue in a cycle, in Nsight Compute's terms
// (smsp__average_warp_latency_issue_stalled_<name>): every cycle of every
// resident warp of a timed launch counts under exactly one of these,
// `selected` being the cycles it issued.

#include <array>
#include <cstdint>

namespace ptxsim::sim {

enum class StallReason : uint8_t {
  Selected,          // issued this cycle
  NotSelected,       // could issue, another warp of its sub-partition did
  Wait,              // a fixed-latency result (ALU, FMA, conversion) not ready yet
  ShortScoreboard,   // a result of the MIO path (shared memory, MUFU, shuffle) not ready
  LongScoreboard,    // a result of the L1TEX path (global, local, texture) not ready
  MathPipeThrottle,  // its arithmetic pipeline is still busy with earlier instructions
  MioThrottle,       // the shared-memory / special-function issue queue is full
  LgThrottle,        // the global/local memory queue is full (L1 MSHRs taken)
  Barrier,           // waiting at a CTA barrier, or for its release
  Membar,            // a memory fence waiting for the warp's outstanding accesses
  BranchResolving,   // a branch's target or divergence still being resolved
  NoInstruction,     // its next instruction not fetched yet (instruction-cache miss, a CTA just launched)
  DispatchStall,     // ready, but its sub-partition's dispatch is still reading a previous
                     // instruction's operands (register-bank conflict)
  Count
};

inline constexpr size_t kStallReasons = static_cast<size_t>(StallReason::Count);

// The metric suffix: "selected", "long_scoreboard", ...
inline constexpr std::array<const char*, kStallReasons> kStallReasonNames = {
    "selected", "not_selected",       "wait",    "short_scoreboard", "long_scoreboard",  "math_pipe_throttle",
    "mio_throttle", "lg_throttle", "barrier", "membar",           "branch_resolving", "no_instruction",
    "dispatch_stall"};

}  // namespace ptxsim::sim
