#pragma once

// The L2's answers an SM acted on in a window, and their revision.
//
// While the SMs run a window in parallel (timing_driver.cpp), each asks the
// crossbar, the L2 and the HBM as the last window left them plus its own
// requests: the others' requests of the same window are unseen. When every
// SM sends at once (a grid's first loads, a wave of stores) each sees empty
// queues, and all get the same short answer. Between windows the driver
// applies every request in order and knows the real answers. No
// instruction has used an answer yet (the L2's round trip, ~260 cycles, is
// far beyond a window), so a later real answer moves what waited on it:
// the registers the access writes, the warp's last result and memory
// drain, its cp.async group, and the L1 sectors the fetch fills (hits on
// them in flight included). Answers are only ever moved later, never
// earlier, so one SM's fill does not serve another within the window.
// Not moved: the L1's MSHR a fetch holds is freed at the estimate (what
// waits for an MSHR has been timed already within the window).
//
// The SM notes, per access, which provisional answers (MemoryBackend
// tickets) it depends on and what waits on it (note); the driver gives the
// late answers (lateAnswer); revise() then tells the SM what to move.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ptxsim::exec {
struct Warp;
}

namespace ptxsim::sim::timing {

class LateAnswers {
 public:
  // What an access's answer reached: `ready` is when its result was said to
  // be there, `offset` the cycles between the back end's answer and it
  // (the texture pipeline's own stages; 0 for the LSU's accesses).
  struct Waiter {
    exec::Warp* warp = nullptr;
    std::span<const uint32_t> rows;  // the registers it writes
    uint64_t ready = 0;
    uint64_t offset = 0;
    bool isAsyncCopy = false;
    uint64_t asyncGroup = 0;  // cp.async: the warp's group it belongs to
  };

  // The access just made depends on these tickets' answers.
  void noteAccess(std::span<const uint64_t> tickets, const Waiter& waiter) {
    if (tickets.empty()) return;
    const auto index = static_cast<uint32_t>(waiters_.size());
    waiters_.push_back(waiter);
    for (uint64_t ticket : tickets) byTicket_.emplace_back(ticket, index);
  }
  // The driver: `ticket`'s real answer is `answer`, later than said.
  void lateAnswer(uint64_t ticket, uint64_t answer) { late_.emplace_back(ticket, answer); }

  // Calls reviseFill(ticket, answer) for each late answer in ticket order,
  // then moveWaiter(waiter, newReady) for each waiter a late answer moves
  // (waiter.ready is still the old cycle), then forgets the window.
  template <typename ReviseFill, typename MoveWaiter>
  void revise(ReviseFill&& reviseFill, MoveWaiter&& moveWaiter);

 private:
  std::vector<Waiter> waiters_;
  std::vector<std::pair<uint64_t, uint32_t>> byTicket_;  // (ticket, waiter)
  std::vector<std::pair<uint64_t, uint64_t>> late_;      // (ticket, answer)
  void forget() {
    waiters_.clear();
    byTicket_.clear();
    late_.clear();
  }
  void sortByTicket();
};

template <typename ReviseFill, typename MoveWaiter>
void LateAnswers::revise(ReviseFill&& reviseFill, MoveWaiter&& moveWaiter) {
  if (late_.empty()) {
    forget();
    return;
  }
  sortByTicket();
  auto dependent = byTicket_.begin();
  for (const auto& [ticket, answer] : late_) {
    reviseFill(ticket, answer);
    while (dependent != byTicket_.end() && dependent->first < ticket) ++dependent;
    for (auto d = dependent; d != byTicket_.end() && d->first == ticket; ++d) {
      Waiter& waiter = waiters_[d->second];
      const uint64_t moved = answer + waiter.offset;
      if (moved <= waiter.ready) continue;
      moveWaiter(waiter, moved);
      waiter.ready = moved;
    }
  }
  forget();
}

}  // namespace ptxsim::sim::timing
