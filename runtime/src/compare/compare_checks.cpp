#include "ptxsim/runtime/compare/compare_checks.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace ptxsim::runtime::compare {

namespace {

struct CheckForm {
  std::string_view prefix;  // "mape<=" ...
  CheckKind kind;
  std::string_view description;
};

constexpr std::array<CheckForm, 4> kForms = {{{"mape<=", CheckKind::kMape, "MAPE"},
                                              {"corr>=", CheckKind::kCorrelation, "correlation"},
                                              {"max_error<=", CheckKind::kMaxError, "largest |error|"},
                                              {"max_points<=", CheckKind::kMaxPoints, "largest difference"}}};

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

Check parseCheck(std::string_view spec) {
  const std::string usage = "--check " + std::string(spec) +
                            ": expected METRIC:mape<=X, METRIC:corr>=X, METRIC:max_error<=X or "
                            "METRIC:max_points<=X";
  size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos || colon == 0) throw CompareError(usage);
  std::string_view condition = spec.substr(colon + 1);
  for (const CheckForm& form : kForms) {
    if (condition.substr(0, form.prefix.size()) != form.prefix) continue;
    std::string_view number = condition.substr(form.prefix.size());
    double threshold = 0;
    auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), threshold);
    if (number.empty() || error != std::errc() || end != number.data() + number.size() || !std::isfinite(threshold))
      throw CompareError("--check " + std::string(spec) + ": '" + std::string(number) + "' is not a number");
    return {std::string(spec), std::string(spec.substr(0, colon)), form.kind, threshold};
  }
  throw CompareError(usage);
}

std::optional<std::string> failedCheck(const Check& check, const std::vector<MetricComparison>& comparisons) {
  const MetricComparison* comparison = nullptr;
  for (const MetricComparison& c : comparisons)
    if (c.metric == check.metric) comparison = &c;
  if (comparison == nullptr || comparison->points.empty())
    return check.spec + ": no matched launch has " + check.metric + " in both files";
  std::optional<double> value;
  switch (check.kind) {
    case CheckKind::kMape: value = comparison->mapePct; break;
    case CheckKind::kCorrelation: value = comparison->correlation; break;
    case CheckKind::kMaxError: value = comparison->maxAbsErrorPct; break;
    case CheckKind::kMaxPoints: value = comparison->maxAbsDifference; break;
  }
  std::string_view description;
  for (const CheckForm& form : kForms)
    if (form.kind == check.kind) description = form.description;
  if (!value) {
    std::string why = check.kind == CheckKind::kCorrelation ? "needs 2 launches or more with varying values"
                                                            : "every hardware value is 0";
    return check.spec + ": " + std::string(description) + " is n/a (" + why + ")";
  }
  bool holds = check.kind == CheckKind::kCorrelation ? *value >= check.threshold : *value <= check.threshold;
  if (holds) return std::nullopt;
  std::string unit = check.kind == CheckKind::kMape || check.kind == CheckKind::kMaxError ? "%" : "";
  return check.spec + ": " + std::string(description) + " is " + formatNumber(*value) + unit + " over " +
         std::to_string(comparison->points.size()) + " launch(es)";
}

}  // namespace ptxsim::runtime::compare
