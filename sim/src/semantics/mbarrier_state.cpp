#include "mbarrier_state.h"

namespace ptxsim::sim::semantics::mbarrier {

namespace {

constexpr unsigned kExpectedShift = 20;
constexpr unsigned kTxShift = 40;
constexpr unsigned kTxBits = 21;
constexpr unsigned kInitialisedBit = 62;
constexpr unsigned kPhaseBit = 63;
constexpr uint64_t kCountMask = kMaxCount;
constexpr uint64_t kTxMask = (uint64_t{1} << kTxBits) - 1;

// The phase completes once nothing is pending: the next one starts.
void completeIfDone(Object& object) {
  if (object.pending != 0 || object.txCount != 0) return;
  object.phaseParity = !object.phaseParity;
  object.pending = object.expected;
}

Fault addTx(Object& object, int64_t delta) {
  int64_t tx = int64_t{object.txCount} + delta;
  if (tx > kMaxTxCount || tx < -kMaxTxCount) return Fault::TxOutOfRange;
  object.txCount = static_cast<int32_t>(tx);
  return Fault::None;
}

}  // namespace

uint64_t encode(const Object& object) {
  uint64_t tx = static_cast<uint64_t>(static_cast<int64_t>(object.txCount)) & kTxMask;
  return (uint64_t{object.pending} & kCountMask) |
         (uint64_t{object.expected} & kCountMask) << kExpectedShift | tx << kTxShift |
         uint64_t{object.initialised} << kInitialisedBit | uint64_t{object.phaseParity} << kPhaseBit;
}

Object decode(uint64_t bits) {
  Object object;
  object.pending = static_cast<uint32_t>(bits & kCountMask);
  object.expected = static_cast<uint32_t>(bits >> kExpectedShift & kCountMask);
  uint64_t tx = bits >> kTxShift & kTxMask;
  // Sign-extend the 21-bit field.
  object.txCount = static_cast<int32_t>(static_cast<int64_t>(tx << (64 - kTxBits)) >> (64 - kTxBits));
  object.initialised = (bits >> kInitialisedBit & 1) != 0;
  object.phaseParity = (bits >> kPhaseBit & 1) != 0;
  return object;
}

const char* describe(Fault fault) {
  switch (fault) {
    case Fault::None: return "no fault";
    case Fault::NotInitialised:
      return "the mbarrier object is not initialised (no mbarrier.init, or after mbarrier.inval)";
    case Fault::CountOutOfRange: return "the count is outside 1 .. 2^20-1";
    case Fault::TooManyArrivals:
      return "more arrivals than the mbarrier's pending (or, to drop, expected) count";
    case Fault::TxOutOfRange: return "the mbarrier's tx-count would leave the range -(2^20-1) .. 2^20-1";
    case Fault::WouldComplete: return "a .noComplete arrive would complete the current phase";
  }
  return "?";
}

Fault init(uint32_t count, Object& object) {
  if (count == 0 || count > kMaxCount) return Fault::CountOutOfRange;
  object = Object{};
  object.initialised = true;
  object.pending = count;
  object.expected = count;
  return Fault::None;
}

Fault expectTx(Object& object, uint32_t bytes) {
  if (!object.initialised) return Fault::NotInitialised;
  if (Fault f = addTx(object, bytes); f != Fault::None) return f;
  completeIfDone(object);
  return Fault::None;
}

Fault completeTx(Object& object, uint32_t bytes) {
  if (!object.initialised) return Fault::NotInitialised;
  if (Fault f = addTx(object, -int64_t{bytes}); f != Fault::None) return f;
  completeIfDone(object);
  return Fault::None;
}

Fault completeCopyTx(Object& object, uint32_t bytes) {
  if (!object.initialised) return Fault::NotInitialised;
  if (object.pending == 0 && object.txCount > 0 && bytes > static_cast<uint32_t>(object.txCount)) {
    const uint32_t completing = static_cast<uint32_t>(object.txCount);
    if (Fault f = completeTx(object, completing); f != Fault::None) return f;
    return addTx(object, -int64_t{bytes - completing});
  }
  return completeTx(object, bytes);
}

Fault arrive(Object& object, const Arrival& arrival) {
  if (!object.initialised) return Fault::NotInitialised;
  if (arrival.count == 0 || arrival.count > kMaxCount) return Fault::CountOutOfRange;
  Object next = object;
  if (arrival.expectTx) {
    if (Fault f = addTx(next, arrival.txBytes); f != Fault::None) return f;
  }
  if (arrival.drop) {
    if (arrival.count > next.expected) return Fault::TooManyArrivals;
    next.expected -= arrival.count;
  }
  if (arrival.count > next.pending) return Fault::TooManyArrivals;
  next.pending -= arrival.count;
  bool wasParity = next.phaseParity;
  completeIfDone(next);
  if (arrival.noComplete && next.phaseParity != wasParity) return Fault::WouldComplete;
  object = next;
  return Fault::None;
}

}  // namespace ptxsim::sim::semantics::mbarrier
