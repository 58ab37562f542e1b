#pragma once

// `ptxsim compare`'s text report: per launch and metric the hardware value,
// the simulated one and the error; then per metric MAPE, largest error,
// correlation and launch count.

#include <ostream>
#include <vector>

#include "ptxsim/runtime/compare/metric_comparison.h"

namespace ptxsim::runtime::compare {

void printReport(std::ostream& out, const std::vector<MetricComparison>& comparisons);

}  // namespace ptxsim::runtime::compare
