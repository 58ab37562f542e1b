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
  if (config.smBytesPerCycle == 0) throw std::invalid_argument("interconnect: an SM's port must move some bytes a cycle");
  if (config.sliceBytesPerCycle == 0)
    throw std::invalid_argument("interconnect: a slice's port must move some bytes a cycle");
}

Interconnect::Interconnect(const InterconnectConfig& config, uint32_t slices, std::function<uint32_t(uint64_t)> sliceOf,
                           MemoryBackend& backend)
    : config_(config), sliceOf_(std::move(sliceOf)), backend_(backend) {
  checkInterconnectConfig(config);
  if (slices == 0) throw std::invalid_argument("interconnect: there must be at least one slice");
  slicePortFreeAt_.assign(slices, 0);
}

uint64_t Interconnect::request(uint64_t now, const MemoryRequest& request) {
  uint32_t slice = sliceOf_(request.lineAddress);
  if (slice >= slicePortFreeAt_.size())
    throw std::out_of_range("interconnect: slice " + std::to_string(slice) + " of line " +
                            std::to_string(request.lineAddress) + " is beyond the " +
                            std::to_string(slicePortFreeAt_.size()) + " slices");
  if (request.sm >= smPortFreeAt_.size()) smPortFreeAt_.resize(request.sm + 1, 0);
  uint64_t& smFree = smPortFreeAt_[request.sm];
  uint64_t injected = std::max(now, smFree);
  smFree = injected + transferCycles(request.bytes, config_.smBytesPerCycle);
  uint64_t& sliceFree = slicePortFreeAt_[slice];
  uint64_t ejected = std::max(injected, sliceFree);
  sliceFree = ejected + transferCycles(request.bytes, config_.sliceBytesPerCycle);
  ++stats_.requests;
  stats_.bytes += request.bytes;
  stats_.smPortWaitCycles += injected - now;
  stats_.slicePortWaitCycles += ejected - injected;
  return backend_.request(ejected, request);
}

void Interconnect::startLaunch() {
  std::fill(smPortFreeAt_.begin(), smPortFreeAt_.end(), 0);
  std::fill(slicePortFreeAt_.begin(), slicePortFreeAt_.end(), 0);
  stats_ = {};
}

}  // namespace ptxsim::memory
