#include "ptxsim/memory/interconnect.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace ptxsim::memory {

namespace {

// A port's clock runs in kTicksPerCycle ticks a cycle, so that a slice's
// port holds a transfer shorter than a cycle only its share of one.
constexpr uint64_t kTicksPerCycle = 1024;

// How a port rounds a transfer's time: an SM's port sends one request a
// cycle at most (whole cycles), a slice's takes several smaller ones a cycle.
enum class Hold { kWholeCycles, kShareOfCycle };

uint64_t transferTicks(uint32_t bytes, uint32_t bytesPerCycle, Hold hold) {
  if (hold == Hold::kWholeCycles) return (uint64_t{bytes} + bytesPerCycle - 1) / bytesPerCycle * kTicksPerCycle;
  return (uint64_t{bytes} * kTicksPerCycle + bytesPerCycle - 1) / bytesPerCycle;
}

// Takes a port free from tick `freeTick` at cycle `from`: returns the cycle
// the transfer starts in and moves the port on by its ticks.
uint64_t takePort(uint64_t from, uint64_t& freeTick, uint32_t bytes, uint32_t bytesPerCycle, Hold hold) {
  const uint64_t start = std::max(from * kTicksPerCycle, freeTick);
  freeTick = start + transferTicks(bytes, bytesPerCycle, hold);
  return start / kTicksPerCycle;
}

}  // namespace

void checkInterconnectConfig(const InterconnectConfig& config) {
  if (config.smBytesPerCycle == 0)
    throw std::invalid_argument("interconnect: an SM's port must move some bytes a cycle");
  if (config.smStoreBytesPerCycle == 0)
    throw std::invalid_argument("interconnect: an SM's port must move some store bytes a cycle");
  if (config.sliceBytesPerCycle == 0)
    throw std::invalid_argument("interconnect: a slice's port must move some bytes a cycle");
}

Interconnect::Interconnect(const InterconnectConfig& config, uint32_t slices,
                           std::function<uint32_t(uint64_t)> sliceOf, MemoryBackend& backend)
    : config_(config), sliceOf_(std::move(sliceOf)), backend_(backend) {
  checkInterconnectConfig(config);
  if (slices == 0) throw std::invalid_argument("interconnect: there must be at least one slice");
  slicePortFreeAt_.assign(slices, SlicePort{});
}

uint32_t Interconnect::checkedSlice(const MemoryRequest& request) const {
  uint32_t slice = sliceOf_(request.lineAddress);
  if (slice >= slicePortFreeAt_.size())
    throw std::out_of_range("interconnect: slice " + std::to_string(slice) + " of line " +
                            std::to_string(request.lineAddress) + " is beyond the " +
                            std::to_string(slicePortFreeAt_.size()) + " slices");
  return slice;
}

uint64_t Interconnect::crossSm(uint64_t now, const MemoryRequest& request, uint64_t& smFree) const {
  return takePort(now, smFree, request.bytes,
                  request.isStore() ? config_.smStoreBytesPerCycle : config_.smBytesPerCycle,
                  Hold::kWholeCycles);
}

uint64_t Interconnect::crossSlice(uint64_t injected, const MemoryRequest& request, uint64_t& sliceFree) const {
  return takePort(injected, sliceFree, request.bytes, config_.sliceBytesPerCycle, Hold::kShareOfCycle);
}

uint64_t Interconnect::request(uint64_t now, const MemoryRequest& request) {
  checkedSlice(request);  // before any port moves
  addSms(request.sm + 1);
  const uint64_t ejected = eject(inject(now, request, stats_), request, stats_);
  return backend_.request(ejected, request);
}

void Interconnect::addSms(uint32_t count) {
  if (count > smPortFreeAt_.size()) smPortFreeAt_.resize(count);
}

uint64_t Interconnect::inject(uint64_t now, const MemoryRequest& request, InterconnectStats& counts) {
  const uint64_t injected = crossSm(now, request, smPortFreeAt_.at(request.sm).freeAt);
  ++counts.requests;
  counts.bytes += request.bytes;
  counts.smPortWaitCycles += injected - now;
  return injected;
}

uint64_t Interconnect::eject(uint64_t injected, const MemoryRequest& request, InterconnectStats& counts) {
  const uint64_t ejected = crossSlice(injected, request, slicePortFreeAt_[checkedSlice(request)].freeAt);
  counts.slicePortWaitCycles += ejected - injected;
  return ejected;
}

void Interconnect::addCounts(const InterconnectStats& counts) {
  stats_.requests += counts.requests;
  stats_.bytes += counts.bytes;
  stats_.smPortWaitCycles += counts.smPortWaitCycles;
  stats_.slicePortWaitCycles += counts.slicePortWaitCycles;
}

uint64_t Interconnect::arrivalInto(Shadow& shadow, uint64_t now, const MemoryRequest& request) const {
  uint32_t slice = checkedSlice(request);
  if (!shadow.smPortFreeAt_)
    shadow.smPortFreeAt_ = request.sm < smPortFreeAt_.size() ? smPortFreeAt_[request.sm].freeAt : 0;
  auto copy = std::find_if(shadow.slicePortFreeAt_.begin(), shadow.slicePortFreeAt_.end(),
                           [slice](const auto& entry) { return entry.first == slice; });
  if (copy == shadow.slicePortFreeAt_.end()) {
    shadow.slicePortFreeAt_.emplace_back(slice, slicePortFreeAt_[slice].freeAt);
    copy = shadow.slicePortFreeAt_.end() - 1;
  }
  return cross(now, request, *shadow.smPortFreeAt_, copy->second);
}

uint64_t Interconnect::estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                                     const MemoryRequest& request) const {
  std::vector<uint64_t> smFree;
  for (const SmPort& port : smPortFreeAt_) smFree.push_back(port.freeAt);
  std::vector<uint64_t> sliceFree;
  for (const SlicePort& port : slicePortFreeAt_) sliceFree.push_back(port.freeAt);
  auto arrival = [&](uint64_t at, const MemoryRequest& r) {
    uint32_t slice = checkedSlice(r);
    if (r.sm >= smFree.size()) smFree.resize(r.sm + 1, 0);
    return cross(at, r, smFree[r.sm], sliceFree[slice]);
  };
  std::vector<TimedRequest> arrived;
  arrived.reserve(before.size());
  for (const TimedRequest& earlier : before)
    arrived.push_back({arrival(earlier.now, earlier.request), earlier.request});
  const uint64_t at = arrival(now, request);
  return backend_.estimateAfter(arrived, at, request);
}

void Interconnect::startLaunch() {
  std::fill(smPortFreeAt_.begin(), smPortFreeAt_.end(), SmPort{});
  std::fill(slicePortFreeAt_.begin(), slicePortFreeAt_.end(), SlicePort{});
  stats_ = {};
}

}  // namespace ptxsim::memory
