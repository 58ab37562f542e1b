#pragma once

// The statistics file of `ptxsim run --stats FILE` (JSON Lines): one record
// per launch, in the order the launches ran, and before the first timed
// launch under a set of timing parameters a record of those parameters
// ({"ptxsim__record": "config", ...}: kernel_stats.h), which the launch
// records name by id instead of repeating them (issue 44: they were most
// of a record's 6 KB). The cudart shim writes it; the host API's users may
// too.

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "ptxsim/sim/kernel_stats.h"

namespace ptxsim::runtime {

class StatsFile {
 public:
  // An empty path writes nothing. The file is replaced by the first record.
  explicit StatsFile(std::string path);

  // Each record is flushed as written: a program that dies leaves the
  // records of the launches before.
  void write(const sim::KernelStats& stats);
  uint64_t bytesWritten() const { return bytesWritten_; }

 private:
  void writeLine(const std::string& record);

  std::string path_;
  std::ofstream out_;                      // opened by the first record
  std::vector<std::string> parameterIds_;  // the timing parameters written so far
  uint64_t bytesWritten_ = 0;
};

}  // namespace ptxsim::runtime
