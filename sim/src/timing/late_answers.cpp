#include "late_answers.h"

#include <algorithm>

namespace ptxsim::sim::timing {

void LateAnswers::sortByTicket() {
  // The driver gives answers in (cycle, SM, sequence) order: an SM's
  // instructions deferred to the window's end come after later cycles'.
  std::sort(late_.begin(), late_.end());
  std::sort(byTicket_.begin(), byTicket_.end());
}

}  // namespace ptxsim::sim::timing
