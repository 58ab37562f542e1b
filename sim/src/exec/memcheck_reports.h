#pragma once

// --memcheck=report's findings of one launch: for each instruction and
// access kind, its first bad access (lowest CTA, then lowest warp; within
// one warp, the earliest), whatever the number of host threads that run
// the CTAs. Shared by the grid's CTAs; only bad accesses take its lock.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::exec {

class MemcheckReports {
 public:
  // An instruction of the kernel's functions, and how it accessed memory.
  struct Site {
    uint32_t ptxLine = 0;
    uint32_t function = 0;     // Module::functions index
    uint32_t instruction = 0;  // index in the prepared function's code
    AccessKind kind = AccessKind::None;
    auto operator<=>(const Site&) const = default;
  };
  // Where in the grid an access happened: the CTA's linear id, the warp's
  // index in it.
  struct Order {
    uint64_t cta = 0;
    uint32_t warp = 0;
    auto operator<=>(const Order&) const = default;
  };

  // A bad access at `site` by `order`'s warp; `describe` gives its line,
  // called only when this access is the first of its site so far.
  void record(const Site& site, const Order& order, const std::function<std::string()>& describe);

  // The reports in the order the accesses happened in (CTA, warp, then
  // PTX line), leaving out CTAs after `failedCta`: a run on one host
  // thread stops there, so only with them left out do more threads give
  // the same lines.
  std::vector<std::string> lines(uint64_t failedCta) const;

 private:
  struct First {
    Order order;
    std::string text;
  };
  mutable std::mutex mutex_;
  std::map<Site, First> firstBySite_;
};

}  // namespace ptxsim::sim::exec
