#include "driver_clock.h"

#include "exec_context.h"

namespace ptxsim::sim::exec {

uint32_t InstructionCountClock::smOf(const ExecContext& ctx) const {
  return static_cast<uint32_t>(ctx.cta->linearId % ctx.grid.config.smCount);
}

uint64_t InstructionCountClock::cycle(const ExecContext& ctx) const { return ctx.cta->instructions; }

uint64_t InstructionCountClock::globalTimerNs(const ExecContext& ctx) const {
  return ctx.grid.launchTimeNs + ctx.cta->instructions;
}

}  // namespace ptxsim::sim::exec
