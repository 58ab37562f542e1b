#pragma once

// The time copies and fills take on the simulated device's clock, the one
// events read (ShimState::simulatedNanoseconds), so that a program timing
// cudaMemcpy with events, as bandwidth tests do, sees a transfer's time
// rather than none. The figures are the preset's `copy.*` and `memset.*`
// (sim::TransferTiming). The copy itself is done at once, as the shim
// does all work; only the clock moves.
//
// A copy the program asks for may be done in many pieces (the rows of a
// 2D or 3D copy, a memset of 2- or 4-byte values): a TransferScope around
// them makes them one transfer, whose start is counted once.

#include <array>
#include <cstdint>
#include <optional>

#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::cudart {

enum class TransferKind : uint8_t { PinnedHost, PageableHost, OnDevice, Fill, HostOnly };

// What a copy between these allocations is (null: pageable host memory;
// one with host bytes: pinned, registered or managed host memory).
TransferKind transferKindOf(const memory::Allocation* to, const memory::Allocation* from);

// What `bytes` of one transfer take, in nanoseconds (HostOnly: nothing,
// the device takes no part).
uint64_t transferNanoseconds(const sim::TransferTiming& timing, TransferKind kind, uint64_t bytes);

// The transfers under way: pieces add up until the outermost scope ends.
class TransferTally {
 public:
  // A piece of `bytes` of `kind` (as `forced` says, when a scope forces
  // one); returns what to add to the clock now (0 inside a scope).
  uint64_t piece(const sim::TransferTiming& timing, TransferKind kind, uint64_t bytes);
  void open(std::optional<TransferKind> forced);
  // Returns what the transfer takes when the outermost scope closes, 0 else.
  uint64_t close(const sim::TransferTiming& timing);

 private:
  static constexpr size_t kKinds = 5;
  unsigned depth_ = 0;
  std::optional<TransferKind> forced_;
  std::array<uint64_t, kKinds> bytes_{};
  std::array<bool, kKinds> seen_{};
};

// Makes the copies and fills run while it lives one transfer (of `forced`
// kind when given: a memset of wide values done as copies is a fill).
class TransferScope {
 public:
  explicit TransferScope(std::optional<TransferKind> forced = std::nullopt);
  ~TransferScope();
  TransferScope(const TransferScope&) = delete;
  TransferScope& operator=(const TransferScope&) = delete;
};

}  // namespace ptxsim::cudart
