#pragma once

// Nsight Compute's CSV (`ncu --csv --print-units base ...`): anything before
// the header row (the "==PROF==" lines) is skipped, then one row per
// (launch, metric). Columns are found by their header names.

#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/compare/launch_metrics.h"

namespace ptxsim::runtime::compare {

// One record per launch ("ID" column), in the order the file lists them,
// values normalised to base units (metric_units.h); "n/a" values are left
// out. Throws CompareError naming `fileName` and the line on bad input.
std::vector<LaunchMetrics> parseNcuCsv(std::istream& in, std::string_view fileName);
std::vector<LaunchMetrics> readNcuCsv(const std::string& path);

// One CSV line split into fields: double-quoted fields may hold commas and
// doubled quotes. Throws CompareError on an unterminated quote.
std::vector<std::string> splitCsvLine(std::string_view line, std::string_view fileName, size_t lineNumber);

}  // namespace ptxsim::runtime::compare
