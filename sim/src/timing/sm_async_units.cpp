// The SM's asynchronous units in the timing model: the tensor cores as
// wgmma uses them (TensorCoreTiming, warpgroup_mma.h), the groups of wgmma
// and of the bulk copies, and the tensor memory accelerator (TmaTiming):
// the bulk copies an instruction issued send their global lines to the L2
// through the SM's port, one line after another (TmaTiming's rates); a
// load's mbarrier completion is applied when the last line's data is back
// plus tma.latency, a store's bulk group is done tma.store_latency after
// its last line is sent. The copy itself ran when the instruction issued
// (its data is in shared memory), but no wait on its mbarrier sees it
// complete before then.
#include <algorithm>
#include <cmath>

#include "../semantics/mbarrier_access.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

uint64_t SmModel::queueWgmma(TimedWarp& w, const exec::PreparedInstruction& pi, SubPartition& sp, uint64_t now) {
  const uint64_t start = std::max(now, sp.tensorCoreFree);
  const WgmmaCycles cycles = wgmmaTensorCycles(timing_.tensor, *pi.source);
  sp.tensorCoreFree = start + cycles.busy;
  counters_.tensorGmmaCycles += cycles.compute;
  // The next wgmma of the sub-partition issues once this one has started:
  // one waits in the queue behind the one running.
  uint64_t& pipelineFree = sp.pipelineFree[static_cast<size_t>(Pipeline::Tensor)];
  pipelineFree = std::max(pipelineFree, start);
  w.wgmma.add(start + cycles.compute + timing_.tensor.wgmmaLatencyCycles);
  // The accumulators are not scoreboarded (warpgroup_mma.h): the next
  // instruction may read them, the next wgmma accumulate into them.
  return now + 1;
}

void SmModel::trackCompletionGroups(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now) {
  uint64_t done = now;
  switch (pi.source->opcode) {
    case isa::Opcode::WgmmaCommitGroup: w.wgmma.commit(); return;
    case isa::Opcode::CpAsyncBulkCommitGroup: w.bulkGroups.commit(); return;
    case isa::Opcode::WgmmaWaitGroup: done = w.wgmma.waitFor(pi.aux, now); break;
    case isa::Opcode::CpAsyncBulkWaitGroup: done = w.bulkGroups.waitFor(pi.aux, now); break;
    default: return;
  }
  // ptxas makes a wgmma wait a WARPGROUP.DEPBAR on the group's scoreboard;
  // which stall Nsight Compute names for it is not measured yet.
  if (done > w.notBefore) {
    w.notBefore = done;
    w.notBeforeReason = StallReason::Wait;
  }
}

void SmModel::timeBulkCopies(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now) {
  std::vector<uint64_t>& sectors = bulkCopies_.sectors;
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  const uint64_t lineBytes = timing_.l1.lineBytes, sectorBytes = exec::BulkCopyLog::kSectorBytes;
  const bool store = bulkCopies_.writesGlobal;
  const double rate = store ? timing_.tma.storeBytesPerCycle : timing_.tma.bytesPerCycle;
  double sendAt = std::max(static_cast<double>(now), tmaFree_);
  uint64_t answered = now;
  for (size_t i = 0; i < sectors.size();) {
    // The sectors of one line make one request.
    const uint64_t line = sectors[i] / lineBytes * lineBytes;
    uint32_t mask = 0;
    for (; i < sectors.size() && sectors[i] / lineBytes * lineBytes == line; ++i)
      mask |= 1u << ((sectors[i] - line) / sectorBytes);
    const auto bytes = static_cast<uint32_t>(std::popcount(mask) * sectorBytes);
    memory::MemoryRequest request{line, mask, bytes, bulkCopies_.writesGlobal};
    answered = std::max(answered, l2_.request(static_cast<uint64_t>(sendAt), request));
    sendAt += bytes / rate;
  }
  tmaFree_ = sendAt;
  const uint64_t done = answered + timing_.tma.latencyCycles;
  memoryDrained_ = std::max(memoryDrained_, done);
  if (store) w.bulkGroups.add(static_cast<uint64_t>(std::ceil(sendAt)) + timing_.tma.storeLatencyCycles);
  for (const exec::BulkCopyLog::Completion& c : bulkCopies_.completions)
    arriving_.push_back({done, w.cta, w.warp, &pi, c});
  bulkCopies_.clear();
}

uint64_t SmModel::applyArrivedCopies(uint64_t now) {
  uint64_t next = UINT64_MAX;
  for (size_t i = 0; i < arriving_.size();) {
    if (arriving_[i].at > now) {
      next = std::min(next, arriving_[i].at);
      ++i;
      continue;
    }
    const ArrivingCopy a = arriving_[i];
    arriving_.erase(arriving_.begin() + static_cast<std::ptrdiff_t>(i));
    if (clustered_ && peerOf(a)) {
      peerArrivals_.push_back(a);  // another CTA's mbarrier: between windows (applyPeerArrivals)
      continue;
    }
    if (!completeArrived(a)) return UINT64_MAX;  // the launch failed
  }
  return next;
}

bool SmModel::completeArrived(const ArrivingCopy& a) {
  ctx_.cta = a.cta;
  ctx_.warp = a.warp;
  ctx_.frame = nullptr;
  ctx_.current = nullptr;
  if (!semantics::completeTransactionAt(ctx_, *a.instruction, a.completion.barrier, a.completion.lane,
                                        a.completion.bytes))
    return false;
  exec::noteMemoryWrite(*a.cta);
  ++windowWrites_;
  return true;
}

}  // namespace ptxsim::sim::timing
