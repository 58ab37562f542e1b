// SMs running ahead of the timing driver's windows (timing_driver.cpp,
// "Running ahead"): a kernel whose warps loop on shared memory gives the
// same results and figures whether its SMs run ahead or not, on one host
// thread or several; a spin on shared memory that nothing ends, run ahead,
// is still found to be a livelock, and an endless loop still hits the
// launch's instruction limit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"
#include "../../support/stats_counters.h"
#include "ptxsim/sim/host_profile.h"

namespace ptxsim::test {
namespace {

struct Launched {
  sim::LaunchResult result;
  std::vector<uint64_t> out;
};

// `ctas` CTAs of 128 threads on the H100 preset's timing model.
// `profile`, if given, gets where the host time went (the SMs' windows run).
Launched launch(const std::string& ptx, unsigned ctas, unsigned hostThreads, bool runAhead,
                uint64_t maxWarpInstructions = uint64_t{1} << 40, sim::HostProfile* profile = nullptr) {
  Device device(sim::GpuConfig{}, DeviceOptions{hostThreads});
  device.launchOptions().timing = true;
  device.launchOptions().hostProfile = profile;
  device.launchOptions().runAhead = runAhead;
  device.launchOptions().maxWarpInstructions = maxWarpInstructions;
  auto module = device.loadModule(ptx, "test.ptx");
  const uint64_t in = device.malloc(8);
  const uint64_t out = device.malloc(uint64_t{ctas} * 128 * 8);
  device.memset(out, 0, uint64_t{ctas} * 128 * 8);
  Launched run;
  run.result = device.launch(*module, "k", {ctas}, {128}, 0, KernelArgs().add(in).add(out));
  run.out = device.read<uint64_t>(out, size_t{ctas} * 128);
  return run;
}

TEST(RunAheadDriver, ASharedMemoryLoopGivesTheSameFiguresRunAheadOrNot) {
  // Each thread stores its index to shared memory, then sums its
  // neighbours' words 3000 times with barriers between rounds (thousands of
  // cycles on the SM alone), and stores the sum: out[i] = 3000 * (i % 128
  // + (i + 1) % 128).
  const std::string body =
      ".shared .u32 s[128];\nmov.u64 %b, s;\nmul.wide.u32 %a, %tx, 4;\nadd.u64 %a, %a, %b;\n"
      "st.shared.u32 [%a], %tx;\nadd.u32 %n, %tx, 1;\nand.b32 %n, %n, 127;\nmul.wide.u32 %c, %n, 4;\n"
      "add.u64 %c, %c, %b;\nbar.sync 0;\nmov.u32 %sum, 0;\nmov.u32 %k, 0;\nLOOP:\n"
      "ld.shared.u32 %v, [%a];\nadd.u32 %sum, %sum, %v;\nld.shared.u32 %v, [%c];\nadd.u32 %sum, %sum, %v;\n"
      "bar.sync 0;\nadd.u32 %k, %k, 1;\nsetp.lt.u32 %p, %k, 3000;\n@%p bra LOOP;\n"
      "mov.u32 %g, %ctaid.x;\nmad.lo.u32 %g, %g, 128, %tx;\nmul.wide.u32 %o, %g, 8;\nadd.u64 %o, %out, %o;\n"
      "cvt.u64.u32 %w, %sum;\nst.global.u64 [%o], %w;\n";
  const std::string ptx =
      ptxKernel(".reg .u32 %n, %sum, %k, %v, %g; .reg .u64 %a, %b, %c, %o, %w; .reg .pred %p;", body);
  const unsigned ctas = 4;
  const Launched one = launch(ptx, ctas, 1, true);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  for (unsigned i = 0; i < ctas * 128; ++i) ASSERT_EQ(one.out[i], 3000u * (i % 128 + (i + 1) % 128)) << i;
  // Four threads for four SMs: they run ahead through the loop, so the
  // SMs run far fewer windows with the others.
  sim::HostProfile aheadProfile, keptProfile;
  const Launched ahead = launch(ptx, ctas, 4, true, uint64_t{1} << 40, &aheadProfile);
  const Launched kept = launch(ptx, ctas, 4, false, uint64_t{1} << 40, &keptProfile);
  EXPECT_LT(aheadProfile.smWindows.items * 10, keptProfile.smWindows.items);
  // The profile counts the runs ahead (at least one a CTA) and their time;
  // with every SM kept to the windows, none.
  EXPECT_GE(aheadProfile.aheadRuns, ctas);
  EXPECT_GT(aheadProfile.aheadSeconds, 0.0);
  EXPECT_GT(aheadProfile.aheadWaitWallSeconds, 0.0);
  EXPECT_GT(aheadProfile.aheadLeastSmSeconds, 0.0);
  EXPECT_GE(aheadProfile.aheadMostSmSeconds, aheadProfile.aheadLeastSmSeconds);
  EXPECT_LE(aheadProfile.aheadMostSmSeconds, aheadProfile.aheadSeconds);
  EXPECT_EQ(keptProfile.aheadRuns, 0u);
  EXPECT_EQ(keptProfile.aheadSeconds, 0.0);
  ASSERT_FALSE(ahead.result.error) << ahead.result.error.message;
  ASSERT_FALSE(kept.result.error) << kept.result.error.message;
  EXPECT_EQ(ahead.out, one.out);
  EXPECT_EQ(kept.out, one.out);
  EXPECT_EQ(figuresJson(ahead.result.stats), figuresJson(one.result.stats));
  EXPECT_EQ(figuresJson(kept.result.stats), figuresJson(one.result.stats));
  EXPECT_GT(one.result.stats.timing.cyclesElapsed, 3000u * 20);
}

TEST(RunAheadDriver, ASpinOnSharedMemoryNothingEndsIsStillALivelock) {
  // Every thread waits for a shared-memory flag that no thread sets: the
  // SMs run ahead through the spin, and the check between spans finds it.
  const std::string body =
      ".shared .u32 flag;\nSPIN:\nld.volatile.shared.u32 %v, [flag];\nsetp.eq.u32 %p, %v, 0;\n@%p bra "
      "SPIN;\n";
  const std::string ptx = ptxKernel(".reg .u32 %v; .reg .pred %p;", body);
  for (unsigned threads : {1u, 4u}) {
    const Launched run = launch(ptx, 2, threads, true);
    ASSERT_TRUE(run.result.error) << threads << " threads";
    EXPECT_NE(run.result.error.message.find("repeat the same states without writing memory"),
              std::string::npos)
        << run.result.error.message;
  }
}

TEST(RunAheadDriver, AnEndlessLoopRunAheadStillHitsTheInstructionLimit) {
  // A counter that never stops changing: no livelock, but no end either.
  const std::string ptx =
      ptxKernel(".reg .u32 %k;", "mov.u32 %k, 0;\nLOOP:\nadd.u32 %k, %k, 1;\nbra LOOP;\n");
  std::string messages[2];
  for (unsigned threads : {1u, 4u}) {
    const Launched run = launch(ptx, 2, threads, true, 200000);
    ASSERT_TRUE(run.result.error) << threads << " threads";
    EXPECT_NE(run.result.error.message.find("executed more than 200000 warp instructions"), std::string::npos)
        << run.result.error.message;
    messages[threads == 1 ? 0 : 1] = run.result.error.message + figuresJson(run.result.stats);
  }
  // Found at the same check, with the same figures.
  EXPECT_EQ(messages[0], messages[1]);
}

}  // namespace
}  // namespace ptxsim::test
