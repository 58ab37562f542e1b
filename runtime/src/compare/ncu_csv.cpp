#include "ptxsim/runtime/compare/ncu_csv.h"

#include <charconv>
#include <fstream>
#include <map>
#include <optional>

#include "ptxsim/runtime/compare/metric_units.h"

namespace ptxsim::runtime::compare {

namespace {

std::string located(std::string_view fileName, size_t lineNumber, const std::string& message) {
  return std::string(fileName) + ":" + std::to_string(lineNumber) + ": " + message;
}

// The columns the comparison reads.
struct Columns {
  size_t id, kernel, metric, unit, value;
  std::optional<size_t> process;  // "Process ID": IDs count launches per process
};

std::optional<Columns> findColumns(const std::vector<std::string>& header) {
  auto find = [&](std::string_view name) -> std::optional<size_t> {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    return std::nullopt;
  };
  auto id = find("ID"), kernel = find("Kernel Name"), metric = find("Metric Name"), unit = find("Metric Unit"),
       value = find("Metric Value");
  if (!id || !kernel || !metric || !unit || !value) return std::nullopt;
  return Columns{*id, *kernel, *metric, *unit, *value, find("Process ID")};
}

// "1,234,567.5" (ncu's thousands separators); none when not a number.
std::optional<double> parseNumber(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;
  double value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::string> splitCsvLine(std::string_view line, std::string_view fileName, size_t lineNumber) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c != '"') fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw CompareError(located(fileName, lineNumber, "unterminated quoted field"));
  return fields;
}

std::vector<LaunchMetrics> parseNcuCsv(std::istream& in, std::string_view fileName) {
  std::vector<LaunchMetrics> launches;
  std::map<std::string, size_t> launchById;
  std::optional<Columns> columns;
  size_t headerWidth = 0;
  std::string line;
  for (size_t lineNumber = 1; std::getline(in, line); ++lineNumber) {
    if (!columns) {
      // ncu prints its own "==PROF==" lines and the program's output first.
      // The header is the first line naming the "Metric Name" column.
      if (line.find("Metric Name") == std::string::npos) continue;
      std::vector<std::string> header = splitCsvLine(line, fileName, lineNumber);
      columns = findColumns(header);
      if (!columns)
        throw CompareError(located(fileName, lineNumber,
                                   "the header lacks one of the columns \"ID\", \"Kernel Name\", \"Metric Name\", "
                                   "\"Metric Unit\", \"Metric Value\" (record with ncu --csv --print-units base)"));
      headerWidth = header.size();
      continue;
    }
    if (line.empty() || line == "\r") continue;
    std::vector<std::string> fields = splitCsvLine(line, fileName, lineNumber);
    if (fields.size() != headerWidth)
      throw CompareError(located(fileName, lineNumber,
                                 "expected " + std::to_string(headerWidth) + " fields as in the header, found " +
                                     std::to_string(fields.size())));
    // The CSVs of several runs, one after another: their headers repeat.
    if (fields[columns->id] == "ID" && fields[columns->metric] == "Metric Name") continue;
    const std::string& valueText = fields[columns->value];
    const std::string& metric = fields[columns->metric];
    if (metric.empty()) throw CompareError(located(fileName, lineNumber, "empty metric name"));
    // A launch is its process's and its ID there: programs' IDs all start at 0.
    const std::string key = (columns->process ? fields[*columns->process] + "/" : std::string()) + fields[columns->id];
    auto [slot, added] = launchById.try_emplace(key, launches.size());
    if (added) launches.push_back({fields[columns->kernel], {}});
    LaunchMetrics& launch = launches[slot->second];
    if (launch.kernel != fields[columns->kernel])
      throw CompareError(located(fileName, lineNumber,
                                 "launch ID " + fields[columns->id] + " names kernel '" + fields[columns->kernel] +
                                     "' where earlier rows named '" + launch.kernel + "'"));
    if (valueText == "n/a" || valueText.empty()) continue;  // ncu could not collect it
    std::optional<double> value = parseNumber(valueText);
    if (!value)
      throw CompareError(located(fileName, lineNumber,
                                 "metric " + metric + ": value '" + valueText + "' is not a number"));
    std::optional<double> factor = baseUnitFactor(fields[columns->unit]);
    if (!factor)
      throw CompareError(located(fileName, lineNumber,
                                 "metric " + metric + ": unknown unit '" + fields[columns->unit] + "'"));
    launch.metrics[metric] = *value * *factor;
  }
  if (!columns)
    throw CompareError(std::string(fileName) +
                       ": no header row (\"ID\",...,\"Metric Value\"): not a CSV of ncu --csv");
  return launches;
}

std::vector<LaunchMetrics> readNcuCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CompareError(path + ": cannot open the Nsight Compute CSV");
  return parseNcuCsv(in, path);
}

}  // namespace ptxsim::runtime::compare
