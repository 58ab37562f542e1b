#pragma once

// What `ptxsim run --stats FILE` writes: one JSON object per kernel launch
// (JSON Lines) with "kernel" and metrics under Nsight Compute's names, and
// records of other kinds ("ptxsim__record": the timing parameters the
// launches name), which are not launches.

#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/compare/launch_metrics.h"

namespace ptxsim::runtime::compare {

// One record per line, in file order; only numeric top-level values are
// metrics (nested objects, strings and arrays are not). Blank lines and
// records that are not launches are skipped. Throws CompareError naming `fileName` and the line on bad input.
std::vector<LaunchMetrics> parseStatsJsonl(std::istream& in, std::string_view fileName);
std::vector<LaunchMetrics> readStatsJsonl(const std::string& path);

}  // namespace ptxsim::runtime::compare
