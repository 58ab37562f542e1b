#include "ptxsim/runtime/compare/compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace ptxsim::runtime::compare {

namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// Counts as integers, the rest with 4 significant digits past the point.
std::string formatValue(double value) {
  // Within rounding of a whole number: "67.1 Mbyte" is 67100000 bytes.
  if (std::fabs(value - std::round(value)) <= 1e-9 * std::fabs(value) && std::fabs(value) < 1e15)
    return format("%.0f", value);
  return format("%.4f", value);
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string padLeft(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

void printReport(std::ostream& out, const std::vector<MetricComparison>& comparisons) {
  size_t launchWidth = 6, metricWidth = 6;
  for (const MetricComparison& c : comparisons) {
    metricWidth = std::max(metricWidth, c.metric.size());
    for (const MetricPoint& p : c.points) launchWidth = std::max(launchWidth, p.launch.size());
  }
  out << padded("launch", launchWidth) << "  " << padded("metric", metricWidth) << "  " << padLeft("hardware", 16)
      << "  " << padLeft("simulated", 16) << "  " << padLeft("error", 10) << "\n";
  // Grouped by launch, in the order the launches matched.
  std::vector<std::string> launches;
  for (const MetricComparison& c : comparisons)
    for (const MetricPoint& p : c.points)
      if (std::find(launches.begin(), launches.end(), p.launch) == launches.end()) launches.push_back(p.launch);
  for (const std::string& launch : launches) {
    for (const MetricComparison& c : comparisons) {
      for (const MetricPoint& p : c.points) {
        if (p.launch != launch) continue;
        std::optional<double> error = errorPct(p.hardware, p.simulated);
        out << padded(launch, launchWidth) << "  " << padded(c.metric, metricWidth) << "  "
            << padLeft(formatValue(p.hardware), 16) << "  " << padLeft(formatValue(p.simulated), 16) << "  "
            << padLeft(error ? format("%+.2f%%", *error) : "n/a (hw 0)", 10);
        if (isPercentMetric(c.metric)) out << "  " << format("%+.2f points", p.simulated - p.hardware);
        out << "\n";
      }
    }
  }

  out << "\n"
      << padded("metric", metricWidth) << "  " << padLeft("launches", 8) << "  " << padLeft("MAPE", 9) << "  "
      << padLeft("max|error|", 10) << "  " << padLeft("correlation", 11) << "\n";
  for (const MetricComparison& c : comparisons) {
    out << padded(c.metric, metricWidth) << "  " << padLeft(std::to_string(c.points.size()), 8) << "  "
        << padLeft(c.mapePct ? format("%.2f%%", *c.mapePct) : "n/a", 9) << "  "
        << padLeft(c.maxAbsErrorPct ? format("%.2f%%", *c.maxAbsErrorPct) : "n/a", 10) << "  "
        << padLeft(c.correlation ? format("%.4f", *c.correlation) : "n/a", 11);
    if (isPercentMetric(c.metric)) out << "  max " << format("%.2f points", c.maxAbsDifference);
    if (c.zeroHardwarePoints > 0)
      out << "  (" << c.zeroHardwarePoints << " launch(es) with hardware 0 left out of MAPE)";
    out << "\n";
  }
}

}  // namespace ptxsim::runtime::compare
