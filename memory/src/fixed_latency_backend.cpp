#include <algorithm>
#include <stdexcept>

#include "ptxsim/memory/backend.h"

namespace ptxsim::memory {

namespace {

// MemoryBackend's default view: the requests, each estimated after all the
// earlier ones.
class LoggedView final : public MemoryBackend::View {
 public:
  explicit LoggedView(const MemoryBackend& backend) : backend_(backend) {}
  uint64_t estimateInto(uint64_t now, const MemoryRequest& request) override {
    const uint64_t done = backend_.estimateAfter(requests_, now, request);
    requests_.push_back({now, request});
    return done;
  }

 private:
  const MemoryBackend& backend_;
};

}  // namespace

std::unique_ptr<MemoryBackend::View> MemoryBackend::makeView() const { return std::make_unique<LoggedView>(*this); }

FixedLatencyBackend::FixedLatencyBackend(uint32_t latencyCycles, uint32_t bytesPerCycle)
    : latencyCycles_(latencyCycles), bytesPerCycle_(bytesPerCycle) {
  if (bytesPerCycle == 0)
    throw std::invalid_argument("fixed-latency back end: bytes per cycle must be positive");
}

uint64_t FixedLatencyBackend::freeAfter(uint64_t now, uint32_t bytes, uint64_t freeAt) const {
  return std::max(now, freeAt) + (uint64_t{bytes} + bytesPerCycle_ - 1) / bytesPerCycle_;
}

uint64_t FixedLatencyBackend::request(uint64_t now, const MemoryRequest& request) {
  const uint64_t freeAt = freeAfter(now, request.bytes, portFreeAt_);
  stats_.portBusyCycles += freeAt - std::max(now, portFreeAt_);
  portFreeAt_ = freeAt;
  countTraffic(request, stats_);
  return portFreeAt_ + latencyCycles_;
}

uint64_t FixedLatencyBackend::estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                                            const MemoryRequest& request) const {
  uint64_t freeAt = portFreeAt_;
  for (const TimedRequest& earlier : before) freeAt = freeAfter(earlier.now, earlier.request.bytes, freeAt);
  return freeAfter(now, request.bytes, freeAt) + latencyCycles_;
}

}  // namespace ptxsim::memory
