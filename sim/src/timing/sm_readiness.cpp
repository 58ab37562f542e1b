// When a warp's next instruction can issue under the timing model: its
// line in the instruction cache, its operands' results (by the path that
// produces each: a fixed latency, the MIO queue or memory), fences, its
// pipeline and the sub-partition's dispatch; and the PTX instructions
// ptxas makes vanish, which take no issue slot.
#include <algorithm>

#include "../exec/executor.h"
#include "fence_cost.h"
#include "pipeline_of.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

uint64_t SmModel::fetchedAt(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now) {
  uint64_t address = code_.of(*w.warp->group().frame->function, pi).address;
  uint64_t line = address / timing_.fetch.lineBytes;
  if (line != w.fetchLine) {
    w.fetchLine = line;
    w.fetchReadyAt = fetch_.lineReadyAt(address, now);
  }
  return w.fetchReadyAt;
}

SmModel::Hold SmModel::holdOf(TimedWarp& w, const exec::PreparedInstruction& pi, const SubPartition& sp,
                              uint64_t fetched, uint64_t now) const {
  const exec::Frame* frame = w.warp->group().frame;
  Hold hold;
  hold.atLeast(w.notBefore, w.notBeforeReason);
  hold.atLeast(fetched, StallReason::NoInstruction);
  if (frame != w.frame) {
    // A call or a return: the rows name another frame's registers, so every
    // result in flight must land first.
    hold.atLeast(w.lastResult, StallReason::Wait);
    if (hold.until <= now) {
      w.frame = frame;
      w.readyAt.assign(frame->function->declaredRegisterRows, 0);
      w.path.assign(frame->function->declaredRegisterRows, ResultPath::Fixed);
    } else {
      return hold;
    }
  }
  const exec::PreparedFunction& fn = *frame->function;
  auto waitFor = [&](uint32_t row) {
    static constexpr StallReason kReasonOf[] = {StallReason::Wait, StallReason::ShortScoreboard,
                                                StallReason::LongScoreboard};
    hold.atLeast(w.readyAt[row], kReasonOf[static_cast<size_t>(w.path[row])]);
  };
  // Only true dependences: ptxas renames registers PTX merely reuses
  // (an inline-asm block's scoped temporaries), and execution at issue
  // already gives readers the last writer's value.
  for (uint32_t row : fn.readsOf(pi)) waitFor(row);
  if (const FenceEffect fence = fenceEffectOf(*pi.source, timing_.fence); fence.ordersAccesses) {
    hold.atLeast(w.memoryDone, StallReason::Membar);
    if (fence.cycles != 0) {
      // The MEMBAR starts once the warp has reached it and its accesses
      // are done; the instruction issues when the MEMBAR has finished.
      if (w.fencing != &pi) {
        w.fencing = &pi;
        w.fenceDoneAt = std::max(now, w.memoryDone) + fence.cycles;
      }
      hold.atLeast(w.fenceDoneAt, StallReason::Membar);
    }
  }
  Pipeline pipe = pipelineOf(*pi.source);
  bool mio = pipe == Pipeline::LoadStore || pipe == Pipeline::Mufu || pipe == Pipeline::Shuffle || pipe == Pipeline::Vote;
  hold.atLeast(sp.pipelineFree[static_cast<size_t>(pipe)],
               mio ? StallReason::MioThrottle : StallReason::MathPipeThrottle);
  hold.atLeast(sp.dispatchFree, StallReason::DispatchStall);
  return hold;
}

const exec::PreparedInstruction* SmModel::skipVanishing(TimedWarp& w, const exec::PreparedInstruction* pi) {
  // Bounded, so a loop of nothing but moves still yields to the scheduler.
  for (int n = 0; n < 8 && pi != nullptr && w.frame != nullptr && w.warp->group().frame == w.frame; ++n) {
    const exec::PreparedFunction& fn = *w.frame->function;
    if (!vanishesInSass(*fn.function, *pi->source)) break;
    uint64_t ready = 0;
    ResultPath path = ResultPath::Fixed;
    for (uint32_t row : fn.readsOf(*pi)) {
      if (w.readyAt[row] >= ready) {
        ready = w.readyAt[row];
        path = w.path[row];
      }
    }
    if (exec::step(ctx_) != exec::StepResult::Executed || ctx_.aborted) return nullptr;
    afterStep(w);
    for (uint32_t row : fn.writesOf(*pi)) {
      w.readyAt[row] = ready;
      w.path[row] = path;
    }
    pi = w.warp->status == exec::WarpStatus::Ready ? exec::peek(ctx_) : nullptr;
  }
  return pi;
}

}  // namespace ptxsim::sim::timing
