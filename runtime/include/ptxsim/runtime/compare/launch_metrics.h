#pragma once

// What `ptxsim compare` reads from either side: one record per kernel
// launch, its metrics by Nsight Compute name in the statistics' base units
// (bytes, cycles, nanoseconds, percent, counts).

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxsim::runtime::compare {

struct LaunchMetrics {
  std::string kernel;  // as the file wrote it: mangled, demangled or the function name alone
  std::map<std::string, double> metrics;
};

// Bad input (unreadable file, malformed line, unknown unit...): the message
// names the file and, where there is one, the line.
class CompareError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ptxsim::runtime::compare
