#include "ptxsim/runtime/stats_file.h"

#include <fstream>

namespace ptxsim::runtime {

StatsFile::StatsFile(std::string path) : path_(std::move(path)) {}

void StatsFile::write(const sim::KernelStats& stats) {
  if (path_.empty()) return;
  std::ofstream out(path_, started_ ? std::ios::app : std::ios::trunc);
  started_ = true;
  const std::string record = stats.toJson();
  out << record << '\n';
  bytesWritten_ += record.size() + 1;
}

}  // namespace ptxsim::runtime
