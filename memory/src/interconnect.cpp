#include "ptxsim/memory/interconnect.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace ptxsim::memory {

namespace {

uint64_t transferCycles(uint32_t bytes, uint32_t bytesPerCycle) {
  return (uint64_t{bytes} + bytesPerCycle - 1) / bytesPerCycle;
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
  slicePortFreeAt_.assign(slices, 0);
}

uint32_t Interconnect::checkedSlice(const MemoryRequest& request) const {
  uint32_t slice = sliceOf_(request.lineAddress);
  if (slice >= slicePortFreeAt_.size())
    throw std::out_of_range("interconnect: slice " + std::to_string(slice) + " of line " +
                            std::to_string(request.lineAddress) + " is beyond the " +
                            std::to_string(slicePortFreeAt_.size()) + " slices");
  return slice;
}

uint64_t Interconnect::cross(uint64_t now, const MemoryRequest& request, uint64_t& smFree,
                             uint64_t& sliceFree) const {
  const uint32_t bytes = request.bytes;
  const bool store = request.write && !request.atomic;
  uint64_t injected = std::max(now, smFree);
  smFree = injected + transferCycles(bytes, store ? config_.smStoreBytesPerCycle : config_.smBytesPerCycle);
  uint64_t ejected = std::max(injected, sliceFree);
  sliceFree = ejected + transferCycles(bytes, config_.sliceBytesPerCycle);
  return ejected;
}

uint64_t Interconnect::request(uint64_t now, const MemoryRequest& request) {
  uint32_t slice = checkedSlice(request);
  if (request.sm >= smPortFreeAt_.size()) smPortFreeAt_.resize(request.sm + 1, 0);
  uint64_t& smFree = smPortFreeAt_[request.sm];
  const uint64_t injected = std::max(now, smFree);
  uint64_t ejected = cross(now, request, smFree, slicePortFreeAt_[slice]);
  ++stats_.requests;
  stats_.bytes += request.bytes;
  stats_.smPortWaitCycles += injected - now;
  stats_.slicePortWaitCycles += ejected - injected;
  return backend_.request(ejected, request);
}

uint64_t Interconnect::arrivalInto(Shadow& shadow, uint64_t now, const MemoryRequest& request) const {
  uint32_t slice = checkedSlice(request);
  if (!shadow.smPortFreeAt_)
    shadow.smPortFreeAt_ = request.sm < smPortFreeAt_.size() ? smPortFreeAt_[request.sm] : 0;
  auto copy = std::find_if(shadow.slicePortFreeAt_.begin(), shadow.slicePortFreeAt_.end(),
                           [slice](const auto& entry) { return entry.first == slice; });
  if (copy == shadow.slicePortFreeAt_.end()) {
    shadow.slicePortFreeAt_.emplace_back(slice, slicePortFreeAt_[slice]);
    copy = shadow.slicePortFreeAt_.end() - 1;
  }
  return cross(now, request, *shadow.smPortFreeAt_, copy->second);
}

uint64_t Interconnect::estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                                     const MemoryRequest& request) const {
  std::vector<uint64_t> smFree = smPortFreeAt_;
  std::vector<uint64_t> sliceFree = slicePortFreeAt_;
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
  std::fill(smPortFreeAt_.begin(), smPortFreeAt_.end(), 0);
  std::fill(slicePortFreeAt_.begin(), slicePortFreeAt_.end(), 0);
  stats_ = {};
}

}  // namespace ptxsim::memory
