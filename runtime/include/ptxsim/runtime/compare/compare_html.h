#pragma once

// `ptxsim compare --html FILE`: one self-contained page (Chart.js inlined)
// with a scatter plot per metric (simulated against hardware, the y = x
// diagonal, each launch named on hover) and the report's tables. When every
// chart has drawn, the page's title starts "ptxsim compare: rendered" and
// <body data-rendered> says how many: the headless-browser test reads both.

#include <ostream>
#include <vector>

#include "ptxsim/runtime/compare/metric_comparison.h"

namespace ptxsim::runtime::compare {

void writeHtml(std::ostream& out, const std::vector<MetricComparison>& comparisons);

}  // namespace ptxsim::runtime::compare
