#pragma once

// `ptxsim compare`: reads an Nsight Compute CSV and a `ptxsim run --stats`
// file, matches their launches, prints the comparison, writes the HTML page
// and applies the checks.

#include <ostream>
#include <string>
#include <vector>

namespace ptxsim::runtime::compare {

struct CompareOptions {
  std::string ncuCsv;
  std::string statsJsonl;
  std::string html;                  // empty: no page
  std::vector<std::string> metrics;  // empty: every metric in both files
  std::vector<std::string> checks;
  std::string background;  // empty: none; else "NAME" or "NAME #N" (background_launch.h)
};

// The exit status: 0, 1 when a check failed, 2 on bad input (the message on
// `err`).
int runCompare(const CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ptxsim::runtime::compare
