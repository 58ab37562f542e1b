// How an SM runs through its cycles, whose issue logic is in sm_model.cpp:
// a window, as the driver's windows ask (runWindow), or ahead of the other
// SMs while nothing it issues reaches beyond it (runAhead;
// timing_driver.cpp, "Running ahead"); and whether the SMs are livelocked.

#include "../exec/executor.h"
#include "pipeline_of.h"
#include "sm_model.h"
#include "stays_on_sm.h"

namespace ptxsim::sim::timing {

uint64_t SmModel::runWindow(uint64_t from, uint64_t end) {
  return runCycles(from, end, [](uint64_t) { return false; });
}

uint64_t SmModel::runAhead(uint64_t from, uint64_t end, std::atomic<uint64_t>& reached) {
  runningAhead_ = true;
  const uint64_t next = runCycles(from, end, [&](uint64_t at) {
    reached.store(at, std::memory_order_release);
    return mayReachBeyondSm(at);
  });
  runningAhead_ = false;
  return next;
}

bool SmModel::mayReachBeyondSm(uint64_t now) {
  for (SubPartition& sp : subPartitions_) {
    for (uint32_t index : sp.warps) {
      TimedWarp& w = warps_[index];
      if (w.warp->done() || now < w.retry) continue;
      const exec::PreparedInstruction* pi = w.next;
      if (!w.nextKnown) {
        ctx_.cta = w.cta;
        ctx_.warp = w.warp;
        pi = exec::peek(ctx_);
        if (ctx_.aborted) return true;
        if (pi == nullptr) continue;
        // The moves skipVanishing would run first: none is a branch, so
        // the instructions after them follow in the code.
        const exec::PreparedFunction& fn = *w.warp->group().frame->function;
        for (int n = 0; n < 8 && pi != &fn.code.back() && vanishesInSass(*fn.function, *pi->source); ++n)
          ++pi;
      }
      if (pi != nullptr && !staysOnSm(*pi)) return true;
    }
  }
  return false;
}

template <class StopBefore>
uint64_t SmModel::runCycles(uint64_t from, uint64_t end, const StopBefore& stopBefore) {
  windowEnd_ = end;
  // The driver applied the last window's requests to the L2 since.
  l2_.clearShadows();
  reviseLateAnswers();
  startPlacedCtas();
  ctx_.overlay = &overlay_;
  uint64_t next = from;
  while (next < end) {
    if (stopBefore(next)) break;
    finishedNow_.clear();
    uint64_t at = next;
    next = cycle(at, finishedNow_);
    for (auto& cta : finishedNow_) finished_.push_back({at, std::move(cta)});
    if (ctx_.aborted) {
      next = UINT64_MAX;
      break;
    }
  }
  ctx_.overlay = nullptr;
  return next;
}

std::pair<SmModel*, exec::CtaState*> livelocked(const std::vector<std::unique_ptr<SmModel>>& sms) {
  std::pair<SmModel*, exec::CtaState*> first{nullptr, nullptr};
  for (const auto& sm : sms) {
    if (sm->residentCtas() == 0) continue;
    exec::CtaState* stuck = sm->livelockedCta();
    if (stuck == nullptr) return {nullptr, nullptr};
    if (first.second == nullptr) first = {sm.get(), stuck};
  }
  return first;
}

}  // namespace ptxsim::sim::timing
