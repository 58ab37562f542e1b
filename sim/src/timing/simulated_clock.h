#pragma once

// The timing driver's clock (timing_driver.cpp): what %smid, %clock64 and
// %globaltimer read in a timed launch.

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "../exec/driver_clock.h"
#include "../exec/exec_context.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

// %smid and %clock64 are the SM's and its cycle; %globaltimer converts the
// cycle at the preset's SM clock. Every instruction runs in its SM's
// context (SmModel::context), which names the SM; the map is built once
// and only read, from any host thread.
class SimulatedClock final : public exec::DriverClock {
 public:
  SimulatedClock(const std::vector<std::unique_ptr<SmModel>>& sms, uint64_t startNs, uint32_t clockKhz)
      : sms_(sms), startNs_(startNs), clockKhz_(clockKhz) {
    for (const auto& sm : sms) smOf_.emplace(&sm->context(), sm->index());
  }
  uint32_t smOf(const exec::ExecContext& ctx) const override { return smOf_.at(&ctx); }
  uint64_t cycle(const exec::ExecContext& ctx) const override { return sms_[smOf(ctx)]->now(); }
  uint64_t globalTimerNs(const exec::ExecContext& ctx) const override {
    return startNs_ + cycle(ctx) * 1'000'000 / clockKhz_;
  }

 private:
  const std::vector<std::unique_ptr<SmModel>>& sms_;
  std::unordered_map<const exec::ExecContext*, uint32_t> smOf_;
  uint64_t startNs_;
  uint32_t clockKhz_;
};

}  // namespace ptxsim::sim::timing
