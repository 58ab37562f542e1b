// The mbarrier state machine alone, against values derived by hand from the
// PTX ISA's rules: a phase completes when its pending arrivals and its
// tx-count are both zero, then the next phase starts with the expected
// count pending.

#include "../../../sim/src/semantics/mbarrier_state.h"

#include <gtest/gtest.h>

namespace ptxsim::sim::semantics::mbarrier {
namespace {

Object initialised(uint32_t count) {
  Object object;
  EXPECT_EQ(init(count, object), Fault::None);
  return object;
}

TEST(MbarrierState, InitStartsPhaseZeroWithEveryArrivalPending) {
  Object object = initialised(3);
  EXPECT_TRUE(object.initialised);
  EXPECT_FALSE(object.phaseParity);
  EXPECT_EQ(object.pending, 3u);
  EXPECT_EQ(object.expected, 3u);
  EXPECT_EQ(object.txCount, 0);
  Object untouched;
  EXPECT_EQ(init(0, untouched), Fault::CountOutOfRange);
  EXPECT_EQ(init(kMaxCount + 1, untouched), Fault::CountOutOfRange);
  EXPECT_FALSE(untouched.initialised);
  EXPECT_EQ(init(kMaxCount, untouched), Fault::None);
}

TEST(MbarrierState, ThePhaseFlipsOnTheLastOfNArrivals) {
  Object object = initialised(3);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_FALSE(object.phaseParity);
  EXPECT_EQ(object.pending, 1u);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_TRUE(object.phaseParity);  // phase 1
  EXPECT_EQ(object.pending, 3u);    // reset to the expected count
  // An arrival with a count of 3 completes phase 1 at once.
  Arrival three;
  three.count = 3;
  ASSERT_EQ(arrive(object, three), Fault::None);
  EXPECT_FALSE(object.phaseParity);
  EXPECT_EQ(object.pending, 3u);
}

TEST(MbarrierState, ExpectTxHoldsThePhaseUntilTheBytesComplete) {
  Object object = initialised(1);
  Arrival arrival;
  arrival.expectTx = true;
  arrival.txBytes = 4096;
  ASSERT_EQ(arrive(object, arrival), Fault::None);
  EXPECT_FALSE(object.phaseParity);  // every arrival is in, 4096 bytes are not
  EXPECT_EQ(object.pending, 0u);
  EXPECT_EQ(object.txCount, 4096);
  ASSERT_EQ(completeTx(object, 1024), Fault::None);
  EXPECT_EQ(object.txCount, 3072);
  EXPECT_FALSE(object.phaseParity);
  ASSERT_EQ(completeTx(object, 3072), Fault::None);
  EXPECT_TRUE(object.phaseParity);
  EXPECT_EQ(object.pending, 1u);
  EXPECT_EQ(object.txCount, 0);
}

TEST(MbarrierState, CompleteTxBeforeExpectTxLeavesANegativeCount) {
  // The copy lands before the producer's arrive.expect_tx: the tx-count goes
  // to -64, and the arrival that expects 64 bytes completes the phase.
  Object object = initialised(1);
  ASSERT_EQ(completeTx(object, 64), Fault::None);
  EXPECT_EQ(object.txCount, -64);
  EXPECT_FALSE(object.phaseParity);
  EXPECT_EQ(decode(encode(object)).txCount, -64);
  Arrival arrival;
  arrival.expectTx = true;
  arrival.txBytes = 64;
  ASSERT_EQ(arrive(object, arrival), Fault::None);
  EXPECT_TRUE(object.phaseParity);
  EXPECT_EQ(object.txCount, 0);
}

// A copy's bytes land piece by piece: once every arrival is in, the phase
// completes when the expected bytes have landed and the rest count against
// the next phase (as the H100 completes an mbarrier expecting 256 bytes
// with a 512-byte tensor copy). Before the arrivals, the tx-count just
// goes negative, as for mbarrier.complete_tx.
TEST(MbarrierState, ACopyBringingMoreBytesThanExpectedCompletesThePhaseAndOwesTheNext) {
  Object object = initialised(1);
  ASSERT_EQ(arrive(object, {1, true, 256}), Fault::None);
  ASSERT_EQ(completeCopyTx(object, 512), Fault::None);
  EXPECT_TRUE(object.phaseParity);
  EXPECT_EQ(object.pending, 1u);
  EXPECT_EQ(object.txCount, -256);
  Object early = initialised(1);
  ASSERT_EQ(completeCopyTx(early, 512), Fault::None);
  EXPECT_FALSE(early.phaseParity);
  EXPECT_EQ(early.txCount, -512);
  Object instruction = initialised(1);
  ASSERT_EQ(arrive(instruction, {1, true, 256}), Fault::None);
  ASSERT_EQ(completeTx(instruction, 512), Fault::None);
  EXPECT_FALSE(instruction.phaseParity);  // mbarrier.complete_tx is one update
  EXPECT_EQ(instruction.txCount, -256);
}

TEST(MbarrierState, ExpectTxRaisesTheCountWithoutArriving) {
  Object object = initialised(2);
  ASSERT_EQ(expectTx(object, 32), Fault::None);
  ASSERT_EQ(expectTx(object, 16), Fault::None);
  EXPECT_EQ(object.txCount, 48);
  EXPECT_EQ(object.pending, 2u);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_FALSE(object.phaseParity);
  ASSERT_EQ(completeTx(object, 48), Fault::None);
  EXPECT_TRUE(object.phaseParity);
  EXPECT_EQ(expectTx(object, kMaxTxCount), Fault::None);
  EXPECT_EQ(expectTx(object, 1), Fault::TxOutOfRange);
  EXPECT_EQ(object.txCount, kMaxTxCount);
}

TEST(MbarrierState, ParityWaitsSeeTheCurrentPhaseIncompleteAndThePreviousComplete) {
  Object object = initialised(1);
  // Phase 0 is current: parity 0 is not complete; parity 1 names the phase
  // before it, which counts as complete.
  EXPECT_FALSE(phaseOfParityComplete(object, 0));
  EXPECT_TRUE(phaseOfParityComplete(object, 1));
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_TRUE(phaseOfParityComplete(object, 0));
  EXPECT_FALSE(phaseOfParityComplete(object, 1));
  EXPECT_FALSE(phaseOfParityComplete(object, 3));  // only the low bit counts
}

TEST(MbarrierState, TheStateOfAnArrivalNamesItsPhaseAndThePendingCountBeforeIt) {
  Object object = initialised(3);
  uint64_t first = encode(object);
  Arrival noComplete;
  noComplete.noComplete = true;
  ASSERT_EQ(arrive(object, noComplete), Fault::None);
  EXPECT_EQ(pendingCountOf(first), 3u);
  EXPECT_FALSE(phaseOfStateComplete(object, first));
  uint64_t second = encode(object);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_EQ(pendingCountOf(second), 2u);
  ASSERT_EQ(arrive(object, noComplete), Fault::WouldComplete);  // the last arrival must complete
  EXPECT_EQ(object.pending, 1u);                                // left as it was
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_TRUE(phaseOfStateComplete(object, first));
  EXPECT_TRUE(phaseOfStateComplete(object, second));
  EXPECT_FALSE(phaseOfStateComplete(object, encode(object)));
}

TEST(MbarrierState, ArriveDropLowersTheExpectedCountOfLaterPhases) {
  Object object = initialised(3);
  Arrival drop;
  drop.drop = true;
  ASSERT_EQ(arrive(object, drop), Fault::None);
  EXPECT_EQ(object.expected, 2u);
  EXPECT_EQ(object.pending, 2u);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  ASSERT_EQ(arrive(object, {}), Fault::None);
  EXPECT_TRUE(object.phaseParity);
  EXPECT_EQ(object.pending, 2u);  // the next phase expects two
}

TEST(MbarrierState, MisuseIsAFault) {
  Object object;
  EXPECT_EQ(arrive(object, {}), Fault::NotInitialised);
  EXPECT_EQ(completeTx(object, 16), Fault::NotInitialised);
  object = initialised(1);
  Arrival two;
  two.count = 2;
  EXPECT_EQ(arrive(object, two), Fault::TooManyArrivals);
  Arrival zero;
  zero.count = 0;
  EXPECT_EQ(arrive(object, zero), Fault::CountOutOfRange);
  EXPECT_EQ(completeTx(object, kMaxTxCount), Fault::None);
  EXPECT_EQ(completeTx(object, 1), Fault::TxOutOfRange);
}

TEST(MbarrierState, TheEncodingRoundTripsAndInvalIsUninitialised) {
  Object object;
  object.initialised = true;
  object.phaseParity = true;
  object.pending = 0xabcde;
  object.expected = 0x12345;
  object.txCount = -kMaxTxCount;
  Object back = decode(encode(object));
  EXPECT_TRUE(back.initialised);
  EXPECT_TRUE(back.phaseParity);
  EXPECT_EQ(back.pending, 0xabcdeu);
  EXPECT_EQ(back.expected, 0x12345u);
  EXPECT_EQ(back.txCount, -kMaxTxCount);
  // Hand-derived: init(5) is pending 5, expected 5 << 20, initialised bit 62.
  EXPECT_EQ(encode(initialised(5)), 5u | (uint64_t{5} << 20) | (uint64_t{1} << 62));
  EXPECT_FALSE(decode(0).initialised);  // what mbarrier.inval leaves, and fresh shared memory
}

}  // namespace
}  // namespace ptxsim::sim::semantics::mbarrier
