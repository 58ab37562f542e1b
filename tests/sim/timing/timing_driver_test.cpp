// The timing driver end to end: cycle-exact on a dependent chain, the
// functional model's results under barriers and divergence, and
// %clock64 reading simulated cycles.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "timed_run.h"

namespace ptxsim {
namespace {

using test::runTimed;
using test::TimedRun;

// 64 dependent f32 adds after a move: with the H100 preset's 4-cycle FP32
// latency (pipe.fp32.latency) the adds issue at cycles 4, 8, ... 256.
std::string chainBody() {
  std::string body = "mov.f32 %f, 0f3F800000;\n";
  for (int i = 0; i < 64; ++i) body += "add.f32 %f, %f, 0f3F800000;\n";
  return body;
}

TEST(TimingDriver, ADependentChainTakesItsLatencyPerInstruction) {
  // Only the chain: no parameter loads, so the kernel is the mov, 64 adds, ret.
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u64 in_param, .param .u64 out_param)\n{\n.reg .f32 %f;\n" +
                    chainBody() + "ret;\n}\n";
  // The second launch finds the code in the instruction caches.
  TimedRun run = runTimed(ptx, 1, 32, true, "gto", 1, 1, 2);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  // mov at 0 (int pipe, 4 cycles), adds at 4..256, ret at 257: 258 cycles,
  // and the front end's launch and retirement of the grid (launch.grid_cycles).
  EXPECT_EQ(run.result.stats.timing.cyclesElapsed, 258u + sim::GpuConfig{}.timing.gridCycles);
  EXPECT_EQ(run.result.stats.timing.instructionsIssued, 66u);
  EXPECT_TRUE(run.result.stats.timed);
}

TEST(TimingDriver, AFirstLaunchWaitsForItsCodeLineByLine) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u64 in_param, .param .u64 out_param)\n{\n.reg .f32 %f;\n" +
                    chainBody() + "ret;\n}\n";
  TimedRun cold = runTimed(ptx, 1, 32, true);
  ASSERT_FALSE(cold.result.error) << cold.result.error.message;
  // The code is 9 lines of 128 bytes (65 instructions of 16 bytes; the
  // move vanishes), none cached: the first comes over the L2's and the
  // L1's ports (45 + 18 cycles), the others one every 45 cycles behind it,
  // slower than the chain's 8 adds a line take (32 cycles).
  EXPECT_GE(cold.result.stats.timing.cyclesElapsed, 63u + 8u * 45u);
  EXPECT_GT(cold.result.stats.timing.stallWarpCycles[static_cast<size_t>(sim::StallReason::NoInstruction)], 8u * 13u);
}

TEST(TimingDriver, SourcesSharingARegisterBankCostADispatchCycle) {
  // 64 independent adds, alternating two register pairs so that no source
  // is in the reuse cache: with 4 banks (register number % 4), %f1 and %f5
  // share bank 1 and %f2 and %f6 bank 2, while %f1 and %f2 do not.
  auto kernel = [](const char* a, const char* b) {
    std::string body;
    for (int i = 0; i < 32; ++i) body += std::string("add.f32 %f8, ") + a + ";\nadd.f32 %f9, " + b + ";\n";
    return test::ptxKernel(".reg .f32 %f<10>;", body);
  };
  TimedRun conflicting = runTimed(kernel("%f1, %f5", "%f2, %f6"), 1, 32, true, "gto", 1, 1, 2);
  TimedRun apart = runTimed(kernel("%f1, %f2", "%f5, %f6"), 1, 32, true, "gto", 1, 1, 2);
  ASSERT_FALSE(conflicting.result.error) << conflicting.result.error.message;
  ASSERT_FALSE(apart.result.error) << apart.result.error.message;
  EXPECT_EQ(conflicting.result.stats.timing.cyclesElapsed - apart.result.stats.timing.cyclesElapsed, 64u);
  EXPECT_GE(conflicting.result.stats.timing.stallWarpCycles[static_cast<size_t>(sim::StallReason::DispatchStall)], 63u);
}

TEST(TimingDriver, RegistersOnlyEverSetToAnImmediateReadNoBank) {
  // The same adds, but %f5 and %f6 hold immediates that nvcc moved into
  // them: ptxas makes them immediate operands, so nothing shares a bank.
  auto kernel = [](const char* a, const char* b) {
    std::string body = "mov.f32 %f5, 0f3F800000;\nmov.f32 %f6, 0f40000000;\n";
    for (int i = 0; i < 32; ++i) body += std::string("add.f32 %f8, ") + a + ";\nadd.f32 %f9, " + b + ";\n";
    return test::ptxKernel(".reg .f32 %f<10>;", body);
  };
  // (With registers set otherwise, the first costs 63 dispatch stalls: the test above.)
  TimedRun sharing = runTimed(kernel("%f1, %f5", "%f2, %f6"), 1, 32, true, "gto", 1, 1, 2);
  ASSERT_FALSE(sharing.result.error) << sharing.result.error.message;
  EXPECT_EQ(sharing.result.stats.timing.stallWarpCycles[static_cast<size_t>(sim::StallReason::DispatchStall)], 0u);
}

// A grid ends when its memory accesses have completed, not when its last
// instruction issued: a store is accepted by the L2 a near or far
// partition's latency (260 or 290 cycles, l2.near_latency/far_latency)
// after its 4 sectors pass the slice's port (4 cycles).
TEST(TimingDriver, AGridEndsWhenItsStoresReachTheL2) {
  const std::string decl = ".reg .u32 %v;";
  TimedRun stored = runTimed(test::ptxKernel(decl, "add.u32 %v, %tx, 1;\nst.global.u32 [%out], %v;"), 1, 32, true,
                             "gto", 1, 1, 2);
  TimedRun computed = runTimed(test::ptxKernel(decl, "add.u32 %v, %tx, 1;\nadd.u32 %v, %v, 1;"), 1, 32, true,
                               "gto", 1, 1, 2);
  ASSERT_FALSE(stored.result.error) << stored.result.error.message;
  ASSERT_FALSE(computed.result.error) << computed.result.error.message;
  const uint64_t extra = stored.result.stats.timing.cyclesElapsed - computed.result.stats.timing.cyclesElapsed;
  // Less the few cycles the store's dependence and the ret overlap with it.
  EXPECT_GE(extra, 260u + 4u - 8u);
  EXPECT_LE(extra, 290u + 4u);
}

// 4 warps reduce into one word. Through an address loaded from memory
// (not provably uniform) each warp's request is 32 operations on one word
// in the slice's atomic unit (1.45 cycles apart, l2.atomic_cycles_per_op),
// 186 cycles for the 4, and the grid ends only when the last is done and
// its answer has travelled back. To the kernel parameter's address ptxas
// sums each warp's lanes first: one operation per warp.
TEST(TimingDriver, AGridEndsWhenItsReductionsHaveDrained) {
  const std::string decl = ".reg .u32 %z; .reg .u64 %zz, %a;";
  const std::string loaded = "ld.global.u32 %z, [%in];\ncvt.u64.u32 %zz, %z;\nadd.u64 %a, %out, %zz;\n";
  TimedRun perLane = runTimed(test::ptxKernel(decl, loaded + "red.global.add.u32 [%a], 1;"), 1, 128, true, "gto", 1, 1, 2);
  TimedRun perWarp = runTimed(test::ptxKernel(decl, loaded + "red.global.add.u32 [%out], 1;"), 1, 128, true, "gto", 1, 1, 2);
  ASSERT_FALSE(perLane.result.error) << perLane.result.error.message;
  ASSERT_FALSE(perWarp.result.error) << perWarp.result.error.message;
  EXPECT_EQ(perLane.out[0] & 0xffffffffu, 2u * 128u);  // two launches
  EXPECT_EQ(perWarp.out[0] & 0xffffffffu, 2u * 128u);
  EXPECT_GE(perLane.result.stats.timing.cyclesElapsed, 186u + 260u);
  // The 4 x 31 rounds aggregation saves, within the few cycles by which the
  // aggregated requests, arriving a cycle apart, wait for each other less.
  EXPECT_NEAR(static_cast<double>(perLane.result.stats.timing.cyclesElapsed) -
                  static_cast<double>(perWarp.result.stats.timing.cyclesElapsed),
              4 * 31 * 1.45, 4.0);
}

// The L2 keeps its lines from one launch to the next unless the launch
// options flush it (ptxsim run --cache-control all, as Nsight Compute does):
// a second launch reading the same word then misses again.
TEST(TimingDriver, AFlushedL2MakesTheSecondLaunchMissAgain) {
  auto secondLaunch = [](bool flush) {
    Device device(sim::GpuConfig{}, DeviceOptions{1});
    device.launchOptions().timing = true;
    device.launchOptions().flushCaches = flush;
    auto module = device.loadModule(test::ptxKernel(".reg .u64 %v;", "ld.global.u64 %v, [%in];\nst.global.u64 [%out], %v;"));
    uint64_t in = device.malloc(8);
    uint64_t out = device.malloc(8);
    sim::LaunchResult r;
    for (int l = 0; l < 2; ++l) r = device.launch(*module, "k", {1}, {32}, 0, KernelArgs().add(in).add(out));
    EXPECT_FALSE(r.error) << r.error.message;
    return r.stats.timing;
  };
  sim::TimedStats kept = secondLaunch(false);
  sim::TimedStats flushed = secondLaunch(true);
  // The load's sector, in the L2 after the first launch, and the store's
  // (a write is a hit: it needs no fetch); flushed, only the store's.
  EXPECT_EQ(kept.l2SectorHits, 2u);
  EXPECT_EQ(flushed.l2SectorHits, 1u);
  EXPECT_GT(flushed.cyclesElapsed, kept.cyclesElapsed + 300);  // the load went to the HBM (401 cycles beyond)
}

TEST(TimingDriver, Clock64CountsSimulatedCycles) {
  std::string body = "mov.u64 %c0, %clock64;\n" + chainBody() +
                     "mov.u64 %c1, %clock64;\nsub.u64 %c1, %c1, %c0;\nst.global.u64 [%out], %c1;\n";
  TimedRun run = runTimed(test::ptxKernel(".reg .f32 %f; .reg .u64 %c0, %c1;", body), 1, 32, true, "gto", 1, 1, 2);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  // A second launch, its code in the instruction caches. The first read at some cycle t; the move of a constant vanishes (ptxas
  // folds it into the first add), so the adds issue at t + 1, t + 5, ...,
  // t + 1 + 4 * 63, and the second read, which needs none of them, the
  // cycle after the last: t + 4 * 63 + 2.
  EXPECT_EQ(run.out[0], 4u * 63u + 2u);
}

TEST(TimingDriver, ResultsAreTheFunctionalModelsUnderEveryScheduler) {
  // Each thread sums a value over a divergent loop, writes it to shared
  // memory, and after a barrier reads its neighbour's.
  std::string body =
      ".shared .u64 s[128];\n"
      "mov.u64 %acc, 0;\nmov.u32 %i, 0;\n"
      "LOOP:\nadd.u64 %acc, %acc, %tx8;\nadd.u32 %i, %i, 1;\nsetp.lt.u32 %p, %i, %tx;\n@%p bra LOOP;\n"
      "mov.u64 %base, s;\nadd.u64 %a, %base, %tx8;\nst.shared.u64 [%a], %acc;\nbar.sync 0;\n"
      "xor.b64 %a, %tx8, 8;\nadd.u64 %a, %a, %base;\nld.shared.u64 %v, [%a];\n"
      "add.u64 %o, %out, %tx8;\nst.global.u64 [%o], %v;\n";
  std::string ptx = test::ptxKernel(".reg .u64 %acc, %base, %a, %v, %o; .reg .u32 %i; .reg .pred %p;", body);
  TimedRun functional = runTimed(ptx, 128, 128, false);
  ASSERT_FALSE(functional.result.error) << functional.result.error.message;
  for (const char* scheduler : {"lrr", "gto", "oldest-first", "two-level"}) {
    TimedRun timed = runTimed(ptx, 128, 128, true, scheduler);
    ASSERT_FALSE(timed.result.error) << scheduler << ": " << timed.result.error.message;
    EXPECT_EQ(timed.out, functional.out) << scheduler;
    EXPECT_EQ(timed.result.stats.warpInstructions, functional.result.stats.warpInstructions) << scheduler;
    EXPECT_GT(timed.result.stats.timing.cyclesElapsed, 127u * 4u) << scheduler;  // thread 127 loops 127 times
    // The same run twice gives the same cycles.
    EXPECT_EQ(runTimed(ptx, 128, 128, true, scheduler).result.stats.timing.cyclesElapsed, timed.result.stats.timing.cyclesElapsed);
  }
  // Thread t's neighbour is t ^ 1, whose sum is (t ^ 1) * 8 * (t ^ 1).
  for (uint64_t t = 0; t < 128; ++t) EXPECT_EQ(functional.out[t], (t ^ 1) * 8 * (t ^ 1)) << t;
}

}  // namespace
}  // namespace ptxsim
