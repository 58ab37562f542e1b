#include <algorithm>
#include <stdexcept>

#include "ptxsim/memory/backend.h"

namespace ptxsim::memory {

FixedLatencyBackend::FixedLatencyBackend(uint32_t latencyCycles, uint32_t bytesPerCycle)
    : latencyCycles_(latencyCycles), bytesPerCycle_(bytesPerCycle) {
  if (bytesPerCycle == 0)
    throw std::invalid_argument("fixed-latency back end: bytes per cycle must be positive");
}

uint64_t FixedLatencyBackend::request(uint64_t now, const MemoryRequest& request) {
  const uint64_t start = std::max(now, portFreeAt_);
  const uint64_t transferCycles = (uint64_t{request.bytes} + bytesPerCycle_ - 1) / bytesPerCycle_;
  portFreeAt_ = start + transferCycles;
  stats_.portBusyCycles += transferCycles;
  countTraffic(request, stats_);
  return portFreeAt_ + latencyCycles_;
}

}  // namespace ptxsim::memory
