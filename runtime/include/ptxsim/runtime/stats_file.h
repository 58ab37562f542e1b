#pragma once

// The statistics file of `ptxsim run --stats FILE` (JSON Lines): one record
// per launch, in the order the launches ran. The cudart shim writes it;
// the host API's users may too.

#include <cstdint>
#include <string>

#include "ptxsim/sim/kernel_stats.h"

namespace ptxsim::runtime {

class StatsFile {
 public:
  // An empty path writes nothing. The file is replaced by the first record.
  explicit StatsFile(std::string path);

  void write(const sim::KernelStats& stats);
  uint64_t bytesWritten() const { return bytesWritten_; }

 private:
  std::string path_;
  bool started_ = false;
  uint64_t bytesWritten_ = 0;
};

}  // namespace ptxsim::runtime
