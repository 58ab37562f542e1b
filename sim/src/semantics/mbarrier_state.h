#pragma once

// The mbarrier object's state machine (PTX ISA 9.0, "mbarrier"), kept apart
// from memory and lanes so it can be tested alone.
//
// An mbarrier tracks the current phase, the pending arrival count of that
// phase, the expected arrival count it is reset to, and the tx-count
// (transaction bytes still expected). The current phase completes when the
// pending arrival count and the tx-count are both zero; the object then
// moves to the next phase with the pending count reset to the expected
// count and the tx-count zero. complete-tx may run before the matching
// expect-tx, so the tx-count is signed.
//
// The object is 8 bytes of shared memory whose encoding the ISA leaves
// opaque (a program that reads it as an integer gets no defined value).
// The simulator's encoding:
//   bits  0-19  pending arrival count (0 .. 2^20-1)
//   bits 20-39  expected arrival count (0 .. 2^20-1)
//   bits 40-60  tx-count, 21-bit two's complement (-(2^20-1) .. 2^20-1)
//   bit  62     initialised (set by mbarrier.init, cleared by mbarrier.inval)
//   bit  63     parity of the current phase
// The state that mbarrier.arrive returns is the object as it was before the
// arrive: its phase bit names the phase the arrival belongs to (test_wait
// and try_wait compare it with the object's), and its pending count is the
// one mbarrier.pending_count reports ("prior to the arrive-on operation").
//
// What the ISA leaves undefined (an object used before init or after
// inval, a count out of range, more arrivals than are pending, a tx-count
// out of range, a .noComplete arrive that completes the phase) is a Fault
// here; the handlers turn it into a launch error.

#include <cstdint>

namespace ptxsim::sim::semantics::mbarrier {

inline constexpr uint32_t kMaxCount = (uint32_t{1} << 20) - 1;
inline constexpr int32_t kMaxTxCount = (int32_t{1} << 20) - 1;

struct Object {
  bool initialised = false;
  bool phaseParity = false;
  uint32_t pending = 0;
  uint32_t expected = 0;
  int32_t txCount = 0;
};

uint64_t encode(const Object& object);
Object decode(uint64_t bits);

enum class Fault : uint8_t {
  None,
  NotInitialised,   // used before mbarrier.init or after mbarrier.inval
  CountOutOfRange,  // an init or arrive count outside 1 .. 2^20-1
  TooManyArrivals,  // an arrive count above the pending (or, to drop, the expected) count
  TxOutOfRange,     // the tx-count would leave -(2^20-1) .. 2^20-1
  WouldComplete,    // a .noComplete arrive that completes the phase
};

// "the mbarrier is not initialised (...)" and the like, for error messages.
const char* describe(Fault fault);

// mbarrier.init: phase 0, `count` pending and expected arrivals, tx-count 0.
Fault init(uint32_t count, Object& object);

// expect-tx / complete-tx: the tx-count rises / falls by `bytes`; the phase
// completes if that leaves it and the pending count zero.
Fault expectTx(Object& object, uint32_t bytes);
Fault completeTx(Object& object, uint32_t bytes);

// The complete-tx of an asynchronous copy's `bytes`, which land piece by
// piece: when every arrival is in and the copy brings more than the
// tx-count still expects, the phase completes as the expected bytes land
// and the rest count against the next phase (its tx-count goes negative).
// The H100 does this: a tensor copy of 512 bytes on an mbarrier expecting
// 256 completes its phase (tests/cuda/programs/tensormap_replace.cu,
// "element_stride 1 = 1").
Fault completeCopyTx(Object& object, uint32_t bytes);

struct Arrival {
  uint32_t count = 1;
  bool expectTx = false;  // .expect_tx: an expect-tx of txBytes first
  uint32_t txBytes = 0;
  bool drop = false;        // arrive_drop: the expected count falls by `count` first
  bool noComplete = false;  // .noComplete: must not complete the phase
};

// An arrive-on operation (mbarrier.arrive{.expect_tx}, arrive_drop).
// On a fault the object is left as it was.
Fault arrive(Object& object, const Arrival& arrival);

// test_wait/try_wait with the state an arrive returned: whether the phase
// that arrival belonged to has completed (the object has moved past it).
inline bool phaseOfStateComplete(const Object& object, uint64_t state) {
  return object.phaseParity != decode(state).phaseParity;
}

// test_wait/try_wait.parity: whether the phase of parity `parity` (the
// current phase or the one before it) has completed, i.e. is not the
// current one. Only the low bit of the operand counts.
inline bool phaseOfParityComplete(const Object& object, uint32_t parity) {
  return object.phaseParity != ((parity & 1) != 0);
}

// mbarrier.pending_count of a state: the pending count before the arrival.
inline uint32_t pendingCountOf(uint64_t state) { return decode(state).pending; }

}  // namespace ptxsim::sim::semantics::mbarrier
