#pragma once

// Per metric, the hardware and simulated values of every matched launch and
// the statistics over them: error, MAPE, largest error, Pearson correlation.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/compare/launch_matching.h"

namespace ptxsim::runtime::compare {

struct MetricPoint {
  std::string launch;  // MatchedLaunch::label
  double hardware;
  double simulated;
};

struct MetricComparison {
  std::string metric;
  std::vector<MetricPoint> points;  // matched launches that have the metric on both sides
  // Mean of |sim - hw| / hw in percent over the points with hw != 0.
  std::optional<double> mapePct;
  size_t zeroHardwarePoints = 0;         // left out of the MAPE and the largest error
  std::optional<double> maxAbsErrorPct;  // largest |sim - hw| / hw in percent
  double maxAbsDifference = 0;           // largest |sim - hw|: points, for a .pct metric
  std::optional<double> correlation;     // Pearson; none with < 2 points or no variance
};

// (sim - hw) / hw * 100; none when hw is 0.
std::optional<double> errorPct(double hardware, double simulated);
// Whether the metric is a percentage ("....pct"), whose differences are also
// given in points.
bool isPercentMetric(std::string_view metric);
std::optional<double> pearsonCorrelation(const std::vector<double>& xs, const std::vector<double>& ys);

// The statistics over `points`.
MetricComparison summarise(std::string metric, std::vector<MetricPoint> points);

// The metrics to compare: `requested` when given (each must be in both
// files: CompareError otherwise), else every metric some matched launch has
// on both sides, sorted by name.
std::vector<std::string> metricsToCompare(const LaunchMatching& matching, const std::vector<std::string>& requested);

std::vector<MetricComparison> compareMetrics(const LaunchMatching& matching, const std::vector<std::string>& metrics);

}  // namespace ptxsim::runtime::compare
