#pragma once

// What a launch does with an access outside device memory's live
// allocations (or outside a shared, local or parameter window).

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxsim::sim {

enum class MemcheckMode : uint8_t {
  // The access faults: the launch fails with IllegalAddress
  // (cudaErrorIllegalAddress), as on a GPU when the address is unmapped.
  Strict,
  // The launch goes on, as compute-sanitizer's memcheck reports and goes
  // on: a bad read returns zeros, a bad write (or atomic) is dropped, and
  // the launch's warnings report the first bad access of each instruction
  // and access kind. For programs whose out-of-bounds reads a GPU
  // tolerates (they land in mapped memory there). Dropping the writes
  // keeps them from corrupting whatever the simulator's allocator placed
  // next, which need not be what a GPU's would have, so the results never
  // depend on the layout. Misaligned accesses still fault: a GPU never
  // tolerates them.
  Report,
};

inline std::optional<MemcheckMode> parseMemcheckMode(std::string_view text) {
  if (text == "strict") return MemcheckMode::Strict;
  if (text == "report") return MemcheckMode::Report;
  return std::nullopt;
}

}  // namespace ptxsim::sim
