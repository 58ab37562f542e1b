#pragma once

// `ptxsim compare --check SPEC`: accuracy gates over the comparison.
// SPEC is METRIC:mape<=X, METRIC:corr>=X, METRIC:max_error<=X (percent, the
// largest |error|) or METRIC:max_points<=X (the largest absolute
// difference, for .pct metrics in percentage points).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/compare/metric_comparison.h"

namespace ptxsim::runtime::compare {

enum class CheckKind { kMape, kCorrelation, kMaxError, kMaxPoints };

struct Check {
  std::string spec;  // as given, for messages
  std::string metric;
  CheckKind kind;
  double threshold;
};

// Throws CompareError on a malformed or unknown form.
Check parseCheck(std::string_view spec);

// Why `check` fails over `comparisons`, or none when it holds. A metric with
// no matched values, or a statistic that is n/a, fails.
std::optional<std::string> failedCheck(const Check& check, const std::vector<MetricComparison>& comparisons);

}  // namespace ptxsim::runtime::compare
