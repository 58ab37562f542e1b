#include "ptxsim/runtime/compare/metric_comparison.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ptxsim::runtime::compare {

std::optional<double> errorPct(double hardware, double simulated) {
  if (hardware == 0) return std::nullopt;
  return (simulated - hardware) / hardware * 100.0;
}

bool isPercentMetric(std::string_view metric) {
  return metric.size() >= 4 && metric.substr(metric.size() - 4) == ".pct";
}

std::optional<double> pearsonCorrelation(const std::vector<double>& xs, const std::vector<double>& ys) {
  size_t n = xs.size();
  if (n < 2 || ys.size() != n) return std::nullopt;
  double meanX = 0, meanY = 0;
  for (size_t i = 0; i < n; ++i) meanX += xs[i], meanY += ys[i];
  meanX /= static_cast<double>(n);
  meanY /= static_cast<double>(n);
  double covariance = 0, varianceX = 0, varianceY = 0;
  for (size_t i = 0; i < n; ++i) {
    covariance += (xs[i] - meanX) * (ys[i] - meanY);
    varianceX += (xs[i] - meanX) * (xs[i] - meanX);
    varianceY += (ys[i] - meanY) * (ys[i] - meanY);
  }
  if (varianceX == 0 || varianceY == 0) return std::nullopt;
  return covariance / std::sqrt(varianceX * varianceY);
}

MetricComparison summarise(std::string metric, std::vector<MetricPoint> points) {
  MetricComparison result;
  result.metric = std::move(metric);
  double errorSum = 0;
  size_t errorCount = 0;
  std::vector<double> hardware, simulated;
  for (const MetricPoint& point : points) {
    hardware.push_back(point.hardware);
    simulated.push_back(point.simulated);
    result.maxAbsDifference = std::max(result.maxAbsDifference, std::fabs(point.simulated - point.hardware));
    std::optional<double> error = errorPct(point.hardware, point.simulated);
    if (!error) {
      ++result.zeroHardwarePoints;
      continue;
    }
    errorSum += std::fabs(*error);
    ++errorCount;
    result.maxAbsErrorPct = std::max(result.maxAbsErrorPct.value_or(0.0), std::fabs(*error));
  }
  if (errorCount > 0) result.mapePct = errorSum / static_cast<double>(errorCount);
  result.correlation = pearsonCorrelation(hardware, simulated);
  result.points = std::move(points);
  return result;
}

std::vector<std::string> metricsToCompare(const LaunchMatching& matching, const std::vector<std::string>& requested) {
  std::set<std::string> inBoth;
  for (const MatchedLaunch& launch : matching.matched)
    for (const auto& [name, value] : launch.hardware->metrics)
      if (launch.simulated->metrics.count(name) != 0) inBoth.insert(name);
  if (requested.empty()) return {inBoth.begin(), inBoth.end()};
  for (const std::string& metric : requested)
    if (inBoth.count(metric) == 0)
      throw CompareError("--metrics: no matched launch has " + metric +
                         " in both files (the metrics in both: " + std::to_string(inBoth.size()) + ")");
  return requested;
}

std::vector<MetricComparison> compareMetrics(const LaunchMatching& matching, const std::vector<std::string>& metrics) {
  std::vector<MetricComparison> comparisons;
  for (const std::string& metric : metrics) {
    std::vector<MetricPoint> points;
    for (const MatchedLaunch& launch : matching.matched) {
      auto hardware = launch.hardware->metrics.find(metric);
      auto simulated = launch.simulated->metrics.find(metric);
      if (hardware == launch.hardware->metrics.end() || simulated == launch.simulated->metrics.end()) continue;
      points.push_back({launch.label, hardware->second, simulated->second});
    }
    comparisons.push_back(summarise(metric, std::move(points)));
  }
  return comparisons;
}

}  // namespace ptxsim::runtime::compare
