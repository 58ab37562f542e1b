#pragma once

// `ptxsim compare --background LAUNCH`: compares what each launch adds to an
// idle one. A GPU's memory counters also count traffic that is not the
// kernel's: units besides the SMs read the launch's data and code, and on
// some machines other traffic shows in every launch (the H100 the suite
// was recorded on counts some 44 thousand L2 sectors, nearly all hits, in
// every launch, its smallest included; the H200, 4 thousand: README). The
// named launch, recorded on both sides, is taken out of the comparison and
// its memory counters (lts__*.sum and dram__*.sum) are subtracted from
// every other launch on its side, before the derived metrics.

#include <string>
#include <vector>

#include "ptxsim/runtime/compare/launch_metrics.h"

namespace ptxsim::runtime::compare {

// "NAME" or "NAME #N" (the N-th launch of NAME, from 0; #0 without it).
// NAME is mangled, demangled, or the function's name alone.
struct BackgroundLaunch {
  std::string name;
  size_t index = 0;
};

// Throws CompareError on a malformed spec.
BackgroundLaunch parseBackgroundLaunch(const std::string& spec);

// Removes the launch from `launches` and subtracts its memory counters from
// the others'. Throws CompareError naming `file` when it has no such launch.
void subtractBackground(std::vector<LaunchMetrics>& launches, const BackgroundLaunch& background,
                        const std::string& file);

}  // namespace ptxsim::runtime::compare
