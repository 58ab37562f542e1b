#include "ptxsim/runtime/stats_file.h"

#include <algorithm>

namespace ptxsim::runtime {

StatsFile::StatsFile(std::string path) : path_(std::move(path)) {}

void StatsFile::write(const sim::KernelStats& stats) {
  if (path_.empty()) return;
  if (stats.timingParameters != nullptr && std::find(parameterIds_.begin(), parameterIds_.end(),
                                                     stats.timingParameters->id) == parameterIds_.end()) {
    parameterIds_.push_back(stats.timingParameters->id);
    writeLine(sim::timingParametersRecord(*stats.timingParameters));
  }
  writeLine(stats.toJson());
}

void StatsFile::writeLine(const std::string& record) {
  if (!out_.is_open()) out_.open(path_, std::ios::trunc);
  out_ << record << '\n';
  out_.flush();
  bytesWritten_ += record.size() + 1;
}

}  // namespace ptxsim::runtime
