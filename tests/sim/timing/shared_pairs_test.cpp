// ptxas's pairing of two adjacent 32-bit shared accesses into one 64-bit
// access (sim/src/timing/shared_pairs.h), as the timing model counts bank
// conflicts: a warp's loads of [a + 4] and [a] with a = tile + 8 x lane
// are one LDS.64 (2 wavefronts, no conflict); apart, each is a 32-bit
// access at a stride of 8 bytes (2 wavefronts where 1 would do: one
// conflict each). Not paired: an instruction between them, or a lower
// address that is not 8-byte aligned. The values loaded are the same.
// (Stores pair likewise: the tile's are written by such a pair.)
#include <gtest/gtest.h>

#include <string>

#include "timed_run.h"

namespace ptxsim::test {
namespace {

// One warp: tile[i] = i for 64 words, then `loads` (with %a the address),
// then out[lane] = first + 1000 x second.
TimedRun pairRun(const std::string& address, const std::string& loads) {
  const std::string body =
      ".shared .align 8 .u32 tile[72];\nmov.u64 %b, tile;\nmul.wide.u32 %i, %tx, 8;\nadd.u64 %i, %i, %b;\n"
      "mul.lo.u32 %t2, %tx, 2;\nadd.u32 %k, %t2, 1;\nst.shared.u32 [%i], %t2;\nst.shared.u32 [%i+4], %k;\n"
      "bar.sync 0;\n" +
      address + loads +
      "mad.lo.u32 %v, %y, 1000, %x;\ncvt.u64.u32 %w, %v;\nadd.u64 %o, %out, %tx8;\nst.global.u64 [%o], %w;\n";
  return runTimed(ptxKernel(".reg .u64 %a, %b, %i, %o, %w; .reg .u32 %t2, %x, %y, %v, %k;", body), 32, 32,
                  true);
}

// Lanes [0, lanes) loaded words `first` and `first` + 1 of the tile (each
// word holds its index), and the loads took `conflicts` extra wavefronts.
void expectLoads(const TimedRun& run, uint32_t first, uint32_t lanes, uint64_t conflicts) {
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    const uint32_t word = 2 * lane + first;
    EXPECT_EQ(run.out[lane], word + 1000 * (word + 1)) << "lane " << lane;
  }
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsLoad, conflicts);
}

const char* const kEightBytesALane = "mul.wide.u32 %a, %tx, 8;\nadd.u64 %a, %a, %b;\n";

TEST(SharedPairs, AdjacentAlignedWordLoadsAreOneAccessWithoutConflicts) {
  const TimedRun run = pairRun(kEightBytesALane, "ld.shared.u32 %y, [%a+4];\nld.shared.u32 %x, [%a];\n");
  expectLoads(run, 0, 32, 0);
  // The stores before the barrier paired too: [%i] then [%i+4].
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsStore, 0u);
}

TEST(SharedPairs, WordLoadsApartOrMisalignedAreTwoAccessesWithAConflictEach) {
  // A barrier between them (which the issue order keeps in its place).
  expectLoads(pairRun(kEightBytesALane, "ld.shared.u32 %y, [%a+4];\nbar.sync 0;\nld.shared.u32 %x, [%a];\n"),
              0, 32, 2);
  // The lower address 4 bytes past an 8-byte boundary: [a + 4] and [a + 8]
  // (lane 31's second word lies past the words written).
  expectLoads(pairRun(std::string(kEightBytesALane) + "add.u64 %a, %a, 4;\n",
                      "ld.shared.u32 %x, [%a];\nld.shared.u32 %y, [%a+4];\n"),
              1, 31, 2);
}

}  // namespace
}  // namespace ptxsim::test
