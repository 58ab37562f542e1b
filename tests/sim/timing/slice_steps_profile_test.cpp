// The host profile of the L2 slices' steps (HostProfile::sliceSteps,
// timing_driver.cpp and l2_exchange.h): on several host threads, each
// window with enough L2 requests to share applies them slice by slice on
// the pool, and the profile counts one item a slice in each such window;
// on one thread there are none, and the results are the same either way;
// every slice's step times how long it gathers its requests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"
#include "../../support/stats_counters.h"
#include "ptxsim/sim/host_profile.h"

namespace ptxsim::test {
namespace {

constexpr unsigned kCtas = 264;  // two an SM of the H100 preset
constexpr unsigned kThreads = 128;

struct Profiled {
  sim::LaunchResult result;
  std::vector<uint64_t> out;
  sim::HostProfile profile;
};

Profiled launch(const std::string& ptx, unsigned hostThreads) {
  Device device(sim::GpuConfig{}, DeviceOptions{hostThreads});
  Profiled run;
  device.launchOptions().timing = true;
  device.launchOptions().hostProfile = &run.profile;
  auto module = device.loadModule(ptx, "test.ptx");
  const uint64_t bytes = uint64_t{kCtas} * kThreads * 128;
  const uint64_t in = device.malloc(bytes);
  const uint64_t out = device.malloc(uint64_t{kCtas} * kThreads * 8);
  device.memset(in, 1, bytes);
  run.result = device.launch(*module, "k", {kCtas}, {kThreads}, 0, KernelArgs().add(in).add(out));
  run.out = device.read<uint64_t>(out, size_t{kCtas} * kThreads);
  return run;
}

TEST(SliceStepsProfile, CountsEachSliceOfEachSharedWindow) {
  // Each thread reads the first word of a 128-byte line of its own, so
  // each warp sends the L2 32 requests at once (thousands a window), and
  // stores it: out[i] = 0x0101010101010101.
  const std::string body =
      "mov.u32 %g, %ctaid.x;\nmad.lo.u32 %g, %g, 128, %tx;\nmul.wide.u32 %a, %g, 128;\nadd.u64 %a, %in, %a;\n"
      "ld.global.u64 %v, [%a];\nmul.wide.u32 %o, %g, 8;\nadd.u64 %o, %out, %o;\nst.global.u64 [%o], %v;\n";
  const std::string ptx = ptxKernel(".reg .u32 %g; .reg .u64 %a, %o, %v;", body);
  const Profiled one = launch(ptx, 1);
  const Profiled four = launch(ptx, 4);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  ASSERT_FALSE(four.result.error) << four.result.error.message;
  for (uint64_t word : one.out) ASSERT_EQ(word, 0x0101010101010101u);
  EXPECT_EQ(four.out, one.out);
  EXPECT_EQ(figuresJson(four.result.stats), figuresJson(one.result.stats));
  // One thread applies every window's requests itself.
  EXPECT_EQ(one.profile.sliceSteps.runs, 0u);
  EXPECT_EQ(one.profile.sliceStepsWallSeconds, 0.0);
  // Four share the windows with many: one item a slice (the H100 preset's 48).
  EXPECT_GT(four.profile.sliceSteps.runs, 0u);
  EXPECT_LE(four.profile.sliceSteps.runs, four.profile.smWindows.runs);
  EXPECT_EQ(four.profile.sliceSteps.items, four.profile.sliceSteps.runs * sim::GpuConfig{}.timing.l2.slices);
  EXPECT_GT(four.profile.sliceSteps.seconds, 0.0);
  EXPECT_GT(four.profile.sliceStepsWallSeconds, 0.0);
  EXPECT_LE(four.profile.sliceSteps.longestSeconds, four.profile.sliceSteps.seconds);
  EXPECT_GT(four.profile.l2Seconds, 0.0);
  // Every slice's step, shared or not, times its gathering of requests.
  EXPECT_GT(one.profile.sliceGatherSeconds, 0.0);
  EXPECT_GT(four.profile.sliceGatherSeconds, 0.0);
}

}  // namespace
}  // namespace ptxsim::test
