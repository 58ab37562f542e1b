#pragma once

// Two step observers as one: a launch with a check enabled and a caller's
// own observer (a tracer, a test) gives every report to both, in order.

#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::checks {

class ObserverChain final : public StepObserver {
 public:
  ObserverChain(StepObserver* first, StepObserver* second) : first_(first), second_(second) {}
  void onStep(const StepReport& report) override {
    first_->onStep(report);
    second_->onStep(report);
  }

 private:
  StepObserver* first_;
  StepObserver* second_;
};

}  // namespace ptxsim::sim::checks
