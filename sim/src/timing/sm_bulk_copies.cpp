// The tensor memory accelerator in the timing model (TmaTiming): the bulk
// copies an instruction issued send their global lines to the L2 through
// the SM's port, one line after another at tma.bytes_per_cycle, and a
// load's mbarrier completion is applied when the last line's data is back
// plus tma.latency. The copy itself ran when the instruction issued (its
// data is in shared memory), but no wait on its mbarrier sees it complete
// before then.
#include <algorithm>

#include "../semantics/mbarrier_access.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

void SmModel::timeBulkCopies(TimedWarp& w, const exec::PreparedInstruction& pi, uint64_t now) {
  std::vector<uint64_t>& sectors = bulkCopies_.sectors;
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  const uint64_t lineBytes = timing_.l1.lineBytes, sectorBytes = exec::BulkCopyLog::kSectorBytes;
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
    sendAt += bytes / timing_.tma.bytesPerCycle;
  }
  tmaFree_ = sendAt;
  const uint64_t done = answered + timing_.tma.latencyCycles;
  memoryDrained_ = std::max(memoryDrained_, done);
  if (bulkCopies_.writesGlobal) w.bulkGroups.add(done);
  for (const exec::BulkCopyLog::Completion& c : bulkCopies_.completions)
    arriving_.push_back({done, w.cta, w.warp, &pi, c});
  bulkCopies_.clear();
}

void SmModel::applyArrivedCopies(uint64_t now) {
  for (size_t i = 0; i < arriving_.size();) {
    if (arriving_[i].at > now) {
      ++i;
      continue;
    }
    const ArrivingCopy a = arriving_[i];
    arriving_.erase(arriving_.begin() + static_cast<std::ptrdiff_t>(i));
    ctx_.cta = a.cta;
    ctx_.warp = a.warp;
    ctx_.frame = nullptr;
    ctx_.current = nullptr;
    if (!semantics::completeTransactionAt(ctx_, *a.instruction, a.completion.barrier, a.completion.lane,
                                          a.completion.bytes))
      return;  // the launch failed
    exec::noteMemoryWrite(*a.cta);
    ++windowWrites_;
  }
}

}  // namespace ptxsim::sim::timing
