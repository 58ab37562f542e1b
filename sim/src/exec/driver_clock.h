#pragma once

// Where and when a warp runs, as the driver running it sees it: %smid,
// %clock, %clock64 and %globaltimer read this, so the functional driver
// and a timing driver each give their own answer.

#include <cstdint>

namespace ptxsim::sim::exec {

struct ExecContext;

class DriverClock {
 public:
  virtual ~DriverClock() = default;
  virtual uint32_t smOf(const ExecContext& ctx) const = 0;          // %smid
  virtual uint64_t cycle(const ExecContext& ctx) const = 0;         // %clock64 (%clock: its low half)
  virtual uint64_t globalTimerNs(const ExecContext& ctx) const = 0;  // %globaltimer
};

// The functional driver has no time: a CTA's clock counts the warp
// instructions it has executed (monotonic and deterministic), its global
// timer runs from the launch's time at one nanosecond per such
// instruction, and CTAs are dealt to SMs round-robin by linear index.
class InstructionCountClock final : public DriverClock {
 public:
  uint32_t smOf(const ExecContext& ctx) const override;
  uint64_t cycle(const ExecContext& ctx) const override;
  uint64_t globalTimerNs(const ExecContext& ctx) const override;
};

}  // namespace ptxsim::sim::exec
