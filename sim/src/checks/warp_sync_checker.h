#pragma once

// --check=warp-sync: finds intra-warp data races, from the executor's step
// reports alone (so it works the same under every SIMT mode). Two lanes of
// one warp that access the same byte of shared or global memory, at least
// one of them storing (or one atomic against a plain access), with no
// synchronisation that includes both lanes between the two accesses: no
// bar.warp.sync, no *.sync warp collective, no CTA barrier. Lanes of one
// instruction run in lockstep but are not ordered with each other, so two
// lanes storing to one address in the same st is a hazard too. Races
// between warps are out of scope (racecheck's business).
//
// Each hazard is kept once per pair of PTX lines; which occurrence is named
// (lanes, warp, block, address) is the one in the lowest CTA, first in that
// CTA's execution, so the report does not depend on the host thread count.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/step_report.h"
#include "warp_shadow.h"

namespace ptxsim::sim::checks {

class WarpSyncChecker final : public StepObserver {
 public:
  // `ctasInterleave`: a host thread switches between unfinished CTAs (a
  // cooperative launch), so a CTA's state is kept until the launch ends.
  WarpSyncChecker(const isa::Module& module, std::string kernel, Dim3 grid, Dim3 block,
                  bool ctasInterleave = false);
  ~WarpSyncChecker() override;
  WarpSyncChecker(const WarpSyncChecker&) = delete;
  WarpSyncChecker& operator=(const WarpSyncChecker&) = delete;

  void onStep(const StepReport& report) override;

  // One "ptxsim: warp-sync hazard ..." line per hazard, sorted by PTX
  // lines. Call after the launch.
  std::vector<std::string> hazards() const;

 private:
  struct CtaShadow;
  using LinePair = std::pair<uint32_t, uint32_t>;
  struct Found {
    uint64_t cta = 0;
    uint64_t order = 0;  // discovery order within that CTA
    std::string text;
  };

  CtaShadow& ctaShadow(uint64_t cta);
  std::string describe(const StepReport& report, const Conflict& c, const CtaShadow& shadow) const;
  std::string location(const isa::Instruction& inst) const;
  LaneMask warpLanes(uint32_t warp) const;

  const isa::Module& module_;
  std::string kernel_;
  Dim3 grid_;
  Dim3 block_;
  bool ctasInterleave_;
  mutable std::mutex mutex_;
  // CTAs being checked, and the CTA each host thread ran last: a thread
  // that moves on to another CTA has finished the previous one, whose state
  // is then dropped.
  std::unordered_map<uint64_t, std::unique_ptr<CtaShadow>> ctas_;
  std::unordered_map<std::thread::id, uint64_t> threadCta_;
  std::map<LinePair, Found> found_;
};

}  // namespace ptxsim::sim::checks
