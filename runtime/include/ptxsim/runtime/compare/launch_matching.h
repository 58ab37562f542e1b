#pragma once

// Pairs hardware launches with simulated ones: the n-th launch of a kernel
// on one side with the n-th launch of the same kernel on the other. Names
// that are the same once demangled pair first; the launches left pair by
// the function's base name (kernel_names.h), since ncu and the C++ ABI's
// demangler spell parameter lists differently.

#include <string>
#include <vector>

#include "ptxsim/runtime/compare/launch_metrics.h"

namespace ptxsim::runtime::compare {

struct MatchedLaunch {
  std::string label;  // the demangled kernel name and its launch index: "vectorAdd(...) #0"
  const LaunchMetrics* hardware;
  const LaunchMetrics* simulated;
};

struct UnmatchedLaunch {
  std::string label;
  bool hardwareSide;  // else the simulated side
};

struct LaunchMatching {
  std::vector<MatchedLaunch> matched;  // in the hardware file's order
  std::vector<UnmatchedLaunch> unmatched;
};

LaunchMatching matchLaunches(const std::vector<LaunchMetrics>& hardware,
                             const std::vector<LaunchMetrics>& simulated);

}  // namespace ptxsim::runtime::compare
