#include "ptxsim/runtime/compare/derived_metrics.h"

#include <string>
#include <string_view>

namespace ptxsim::runtime::compare {

void addDerivedHitRates(std::vector<LaunchMetrics>& launches) {
  constexpr std::string_view kHit = "_lookup_hit.sum";
  for (LaunchMetrics& launch : launches) {
    std::vector<std::pair<std::string, double>> rates;
    for (const auto& [name, hits] : launch.metrics) {
      if (name.size() <= kHit.size() || name.compare(name.size() - kHit.size(), kHit.size(), kHit) != 0) continue;
      const std::string prefix = name.substr(0, name.size() - kHit.size());
      auto misses = launch.metrics.find(prefix + "_lookup_miss.sum");
      // Counts below an idle launch's (--background) have no rate.
      if (misses == launch.metrics.end() || hits < 0 || misses->second < 0 || hits + misses->second <= 0) continue;
      rates.emplace_back(prefix + "_lookup_hit_rate.pct", 100.0 * hits / (hits + misses->second));
    }
    for (auto& [name, rate] : rates) launch.metrics.emplace(std::move(name), rate);
  }
}

void addDerivedDramBytes(std::vector<LaunchMetrics>& launches) {
  for (LaunchMetrics& launch : launches) {
    auto read = launch.metrics.find("dram__bytes_read.sum");
    auto written = launch.metrics.find("dram__bytes_write.sum");
    if (read == launch.metrics.end() || written == launch.metrics.end()) continue;
    launch.metrics.emplace("dram__bytes.sum", read->second + written->second);  // keeps a recorded one
  }
}

}  // namespace ptxsim::runtime::compare
