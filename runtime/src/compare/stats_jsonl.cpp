#include "ptxsim/runtime/compare/stats_jsonl.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace ptxsim::runtime::compare {

std::vector<LaunchMetrics> parseStatsJsonl(std::istream& in, std::string_view fileName) {
  std::vector<LaunchMetrics> launches;
  std::string line;
  for (size_t lineNumber = 1; std::getline(in, line); ++lineNumber) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto where = [&] { return std::string(fileName) + ":" + std::to_string(lineNumber) + ": "; };
    nlohmann::json record;
    try {
      record = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& error) {
      throw CompareError(where() + "malformed JSON (" + error.what() + ")");
    }
    if (!record.is_object()) throw CompareError(where() + "not a JSON object (expected one record per line)");
    // Not a launch: the timing parameters the launches name (kernel_stats.h).
    if (record.contains("ptxsim__record")) continue;
    auto kernel = record.find("kernel");
    if (kernel == record.end() || !kernel->is_string())
      throw CompareError(where() + "the record has no \"kernel\" name");
    LaunchMetrics launch{kernel->get<std::string>(), {}};
    for (auto& [name, value] : record.items())
      if (value.is_number()) launch.metrics[name] = value.get<double>();
    launches.push_back(std::move(launch));
  }
  return launches;
}

std::vector<LaunchMetrics> readStatsJsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CompareError(path + ": cannot open the statistics file");
  return parseStatsJsonl(in, path);
}

}  // namespace ptxsim::runtime::compare
