// The timing driver's statistics and memory paths end to end: L1 hits and
// misses, shared-memory bank conflicts, stall reasons, and the launch's
// duration, each against values derived by hand from the H100 preset.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/l2_cache.h"
#include "../../support/stats_counters.h"
#include "timed_run.h"

namespace ptxsim {
namespace {

using test::runTimed;
using test::TimedRun;

size_t reason(sim::StallReason r) { return static_cast<size_t>(r); }

TEST(TimingStats, ASecondLoadOfALineHitsInL1) {
  // One thread stores a word (the L2 allocates its sector without fetching
  // it; st.cg does not allocate in the L1), waits for the store, then loads
  // the word twice, each load timed up to its use.
  std::string body =
      "st.global.cg.u32 [%in], %tx;\nmembar.gl;\n"
      "mov.u64 %t0, %clock64;\nld.global.u32 %v, [%in];\nadd.u32 %w, %v, 1;\nmov.u64 %t1, %clock64;\n"
      "ld.global.u32 %v, [%in];\nadd.u32 %w, %v, %w;\nmov.u64 %t2, %clock64;\n"
      "sub.u64 %t1, %t1, %t0;\nsub.u64 %t2, %t2, %t0;\nst.global.u64 [%out], %t1;\nst.global.u64 [%out+8], "
      "%t2;\n";
  TimedRun run = runTimed(test::ptxKernel(".reg .u64 %t0, %t1, %t2; .reg .u32 %v, %w;", body), 2, 1, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  const sim::TimedStats& s = run.result.stats.timing;
  EXPECT_EQ(s.l1LoadSectors, 2u);
  // The second load. The second result's store finds the sector the first
  // result's wrote a cycle or two before: within l1.store_fill, a miss,
  // as the H100 counts it (tests/timing/kernels/probe/l1_store_probe.cu).
  ASSERT_GT(sim::GpuConfig{}.timing.l1.storeFillCycles, 2u);
  EXPECT_EQ(s.l1SectorHits, 1u);
  EXPECT_EQ(s.l1StoreSectors, 3u);  // the word, then the two results, one sector each
  // In the L2: the three stores' sectors (a write needs no fetch: a hit,
  // as Nsight Compute counts it) and the first load, which finds the
  // stored sector.
  EXPECT_EQ(s.l2SectorHits, 4u);
  uint64_t miss = run.out[0], hit = run.out[1] - run.out[0];
  // The L1 miss is an L2 hit: one cycle on the slice's port (32 bytes at
  // 80 a cycle) and the latency of the word's partition as seen from SM 0.
  memory::L2Config l2 = sim::GpuConfig{}.timing.l2;
  memory::Hbm dram(sim::GpuConfig{}.timing.dram);
  memory::L2Cache cache(l2, dram);
  bool near = cache.partitionOf(cache.sliceOf(run.inAddress & ~uint64_t{127})) == 0;
  uint64_t l2Hit = 1 + (near ? l2.nearLatencyCycles : l2.farLatencyCycles);
  // The hit: the L1's 32 cycles where the miss had the L2's.
  EXPECT_EQ(miss - hit, l2Hit - 32u);
}

TEST(TimingStats, ALaunchWithEmptyCachesReadsItsOwnDataFromDram) {
  // The kernel only stores: its DRAM reads are the launch's own data, read
  // only when the launch flushes the caches (--cache-control all): the
  // parameters and constant bank (launch.dram_read_bytes, 2304 bytes), then
  // the code in 256-byte blocks (launch.code_read_bytes). Without a cubin
  // the code is estimated from the PTX: the store, the exit and ptxas's
  // branch to itself, padded to 128 bytes, so one block.
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  device.launchOptions().timing = true;
  auto module = device.loadModule(test::ptxKernel("", "st.global.u64 [%out], %tx8;\n"), "test.ptx");
  uint64_t out = device.malloc(8);
  auto launch = [&] { return device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(out).add(out)); };
  sim::LaunchResult warm = launch();
  device.launchOptions().flushCaches = true;
  sim::LaunchResult flushed = launch();
  // With ptxas's code sizes (a program's cubin), those: 1000 bytes, four blocks.
  module->setMachineCodeBytes({{"k", 1000}, {"not_called", 4096}});
  sim::LaunchResult fromCubin = launch();
  ASSERT_FALSE(warm.error) << warm.error.message;
  ASSERT_FALSE(flushed.error) << flushed.error.message;
  ASSERT_FALSE(fromCubin.error) << fromCubin.error.message;
  EXPECT_EQ(warm.stats.timing.dramBytesRead, 0u);
  EXPECT_EQ(flushed.stats.timing.dramBytesRead, 2304u + 256u);
  EXPECT_EQ(fromCubin.stats.timing.dramBytesRead, 2304u + 1024u);
}

// One warp whose every lane stores its index to its own word of bank 0
// (words 128 bytes apart), runs `thenOnIt` on that word (`%a`, into
// `%v`), and writes `%v` to out[lane].
TimedRun runOnBankZero(const std::string& thenOnIt) {
  std::string body =
      ".shared .align 8 .u32 s[1024];\nmov.u64 %base, s;\nmul.wide.u32 %a, %tx, 128;\nadd.u64 %a, %a, "
      "%base;\n"
      "st.shared.u32 [%a], %tx;\n" +
      thenOnIt + "cvt.u64.u32 %w, %v;\nadd.u64 %o, %out, %tx8;\nst.global.u64 [%o], %w;\n";
  return runTimed(test::ptxKernel(".reg .u64 %base, %a, %o, %w; .reg .u32 %v;", body), 32, 32, true);
}

TEST(TimingStats, A32WayConflictCostsThirtyOneExtraWavefronts) {
  TimedRun run = runOnBankZero("ld.shared.u32 %v, [%a];\n");
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsStore, 31u);
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsLoad, 31u);
  for (uint64_t t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], t);
}

TEST(TimingStats, ASharedAtomicsConflictsCountApartFromLoads) {
  // The atomic's 31 extra wavefronts are Nsight Compute's op_atom
  // conflicts, not op_ld's (histogram_shared on the H200: 67 081 under
  // op_atom, 0 under op_ld).
  TimedRun run = runOnBankZero("atom.shared.add.u32 %v, [%a], 5;\nld.shared.u32 %v, [%a];\n");
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsStore, 31u);
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsAtomic, 31u);
  EXPECT_EQ(run.result.stats.timing.sharedBankConflictsLoad, 31u);  // the ld alone
  for (uint64_t t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], t + 5);
}

TEST(TimingStats, EveryWarpCycleHasOneReason) {
  // One warp: a chain of dependent adds (each waits 3 cycles for the one
  // before: `wait`) after a global load the first add needs
  // (`long_scoreboard`).
  std::string body = "ld.global.f32 %f, [%in];\n";
  for (int i = 0; i < 16; ++i) body += "add.f32 %f, %f, 0f3F800000;\n";
  body += "st.global.f32 [%out], %f;\n";
  TimedRun run = runTimed(test::ptxKernel(".reg .f32 %f;", body), 1, 32, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  const sim::TimedStats& s = run.result.stats.timing;
  uint64_t total = std::accumulate(s.stallWarpCycles.begin(), s.stallWarpCycles.end(), uint64_t{0});
  // One warp, resident (its SM active) from the first cycle to its last
  // instruction; the grid ends later, when its store has reached the L2
  // (260 cycles or more after the store issued).
  EXPECT_EQ(total, static_cast<uint64_t>(std::llround(s.smCyclesActiveAvg * sim::GpuConfig{}.smCount)));
  EXPECT_GE(s.cyclesElapsed, total + 250u);
  EXPECT_EQ(s.stallWarpCycles[reason(sim::StallReason::Selected)], s.instructionsIssued);
  EXPECT_GE(s.stallWarpCycles[reason(sim::StallReason::Wait)], 15u * 3u);
  EXPECT_GE(s.stallWarpCycles[reason(sim::StallReason::LongScoreboard)], 270u);
  EXPECT_EQ(s.stallWarpCycles[reason(sim::StallReason::Barrier)], 0u);
}

TEST(TimingStats, DurationIsTheCyclesAtTheSmClock) {
  TimedRun run = runTimed(test::ptxKernel("", "st.global.u64 [%out], %tx8;\n"), 1, 32, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  sim::GpuConfig h100;
  EXPECT_EQ(run.result.stats.timing.durationNs,
            run.result.stats.timing.cyclesElapsed * 1'000'000 / h100.clockRateKhz);
  EXPECT_GT(run.result.stats.timing.durationNs, 0u);
}

TEST(TimingStats, ASpinNothingEndsIsReportedNotRunForever) {
  // Every thread waits for a flag in memory that no thread sets.
  std::string body = "SPIN:\nld.volatile.global.u32 %v, [%in];\nsetp.eq.u32 %p, %v, 0;\n@%p bra SPIN;\n";
  TimedRun run = runTimed(test::ptxKernel(".reg .u32 %v; .reg .pred %p;", body), 1, 64, true);
  ASSERT_TRUE(run.result.error);
  EXPECT_NE(run.result.error.message.find("repeat the same states without writing memory"), std::string::npos)
      << run.result.error.message;
}

TEST(TimingStats, TheSameRunGivesTheSameFiguresOnAnyNumberOfHostThreads) {
  // 264 CTAs (two per SM) that load, divide and store, with a barrier.
  std::string body =
      ".shared .u32 s[256];\nmov.u32 %c, %ctaid.x;\nmad.lo.u32 %i, %c, 256, %tx;\nmul.wide.u32 %o, %i, 8;\n"
      "add.u64 %o, %out, %o;\ncvt.rn.f32.u32 %f, %i;\nsqrt.rn.f32 %f, %f;\nmov.b32 %v, %f;\n"
      "mul.wide.u32 %a, %tx, 4;\nmov.u64 %b, s;\nadd.u64 %a, %a, %b;\nst.shared.u32 [%a], %v;\nbar.sync 0;\n"
      "xor.b64 %a, %a, 4;\nld.shared.u32 %v, [%a];\ncvt.u64.u32 %w, %v;\nst.global.u64 [%o], %w;\n";
  std::string ptx = test::ptxKernel(".reg .u32 %c, %i, %v; .reg .u64 %o, %a, %b, %w; .reg .f32 %f;", body);
  TimedRun one = runTimed(ptx, 264 * 256, 256, true, "gto", 1, 264);
  TimedRun two = runTimed(ptx, 264 * 256, 256, true, "gto", 2, 264);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  ASSERT_FALSE(two.result.error) << two.result.error.message;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(test::figuresJson(one.result.stats), test::figuresJson(two.result.stats));
  EXPECT_GT(one.result.stats.timing.cyclesElapsed, 0u);
}

}  // namespace
}  // namespace ptxsim
