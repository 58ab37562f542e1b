#pragma once

// The copy engines' ranges since the last launch, oldest first, whose
// lines the next launch finds in the L2 (MemorySystem::forLaunch), as the
// H200's kernels find them after cudaMemset and cudaMemcpy
// (tests/timing/calibration/copy_residency.cu, h200/copy_residency.out):
// - a fill's lines and a device copy's destination lines are stored as an
//   SM's stores are (dirty), every one kept while the L2 holds it;
// - a device copy's source lines are allocated clean, each before the
//   destination line it is copied to (the H200 keeps the most recently
//   copied part of both);
// - a copy to or from host memory leaves only its device side's most
//   recent hostResidentBytes (Limits), clean: the H200 keeps about the last
//   4 MiB of a 1 to 128 MiB copy, and its launch after a 2 MB cudaMemcpy
//   writes back no more than one without (probe/write_back_fate_probe.cu).
//   The limit holds for the host copies since the last launch together
//   (2D copies are a host copy a row).

#include <cstdint>
#include <deque>

#include "ptxsim/memory/l2_cache.h"
#include "ptxsim/sim/copy_engine_range.h"

namespace ptxsim::sim::timing {

class CopyEngineLog {
 public:
  struct Limits {
    uint64_t keptBytes = 0;          // of every range, the most recent: older ones have left the L2
    uint64_t hostResidentBytes = 0;  // of the host copies', the most recent
  };
  // Appends `range` (its bytes in ascending order), then drops the oldest
  // bytes beyond the limits.
  void add(const CopyEngineRange& range, const Limits& limits);
  // Puts the ranges' lines into `l2` (L2Cache::copyEngineStore and
  // copyEngineFill), oldest first.
  void replayInto(memory::L2Cache& l2) const;
  void clear();
  uint64_t bytes() const { return bytes_; }
  uint64_t hostBytes() const { return hostBytes_; }
  const std::deque<CopyEngineRange>& ranges() const { return ranges_; }

 private:
  static bool overHostLink(const CopyEngineRange& range);
  // Drops the oldest ranges' bytes (only host copies' when `hostOnly`)
  // until no more than `limit` of them are left.
  void trim(uint64_t limit, bool hostOnly);

  std::deque<CopyEngineRange> ranges_;  // oldest first, none empty
  uint64_t bytes_ = 0;
  uint64_t hostBytes_ = 0;  // of ranges_ over the host link
};

}  // namespace ptxsim::sim::timing
