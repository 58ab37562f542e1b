#include "transfer_time.h"

#include <algorithm>
#include <cmath>

namespace ptxsim::cudart {

namespace {

uint64_t at(uint64_t bytes, double bytesPerNs) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(bytes) / bytesPerNs));
}

}  // namespace

TransferKind transferKindOf(const memory::Allocation* to, const memory::Allocation* from) {
  auto onDevice = [](const memory::Allocation* a) { return a != nullptr && a->host == nullptr; };
  if (onDevice(to) && onDevice(from)) return TransferKind::OnDevice;
  if (!onDevice(to) && !onDevice(from)) return TransferKind::HostOnly;
  return (onDevice(to) ? from : to) != nullptr ? TransferKind::PinnedHost : TransferKind::PageableHost;
}

uint64_t transferNanoseconds(const sim::TransferTiming& t, TransferKind kind, uint64_t bytes) {
  switch (kind) {
    case TransferKind::PinnedHost: return t.pinnedLatencyNs + at(bytes, t.pinnedBytesPerNs);
    case TransferKind::PageableHost: return t.pageableLatencyNs + at(bytes, t.pageableBytesPerNs);
    case TransferKind::OnDevice: return std::max<uint64_t>(t.deviceLatencyNs, at(bytes, t.deviceBytesPerNs));
    case TransferKind::Fill: return t.fillLatencyNs + at(bytes, t.fillBytesPerNs);
    case TransferKind::HostOnly: return 0;
  }
  return 0;
}

uint64_t TransferTally::piece(const sim::TransferTiming& timing, TransferKind kind, uint64_t bytes) {
  if (depth_ == 0) return transferNanoseconds(timing, kind, bytes);
  const auto k = static_cast<size_t>(forced_.value_or(kind));
  bytes_[k] += bytes;
  seen_[k] = true;
  return 0;
}

void TransferTally::open(std::optional<TransferKind> forced) {
  if (depth_++ == 0) forced_ = forced;
}

uint64_t TransferTally::close(const sim::TransferTiming& timing) {
  if (--depth_ != 0) return 0;
  uint64_t ns = 0;
  for (size_t k = 0; k < kKinds; ++k) {
    if (seen_[k]) ns += transferNanoseconds(timing, static_cast<TransferKind>(k), bytes_[k]);
  }
  bytes_ = {};
  seen_ = {};
  forced_.reset();
  return ns;
}

}  // namespace ptxsim::cudart
