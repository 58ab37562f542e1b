// Which SIMT model a launch gets by default (issue 6, item 7): PTX for a
// target below sm_70 runs under the pre-Volta reconvergence stack, PTX for
// sm_70 and newer under independent thread scheduling; --simt overrides
// both; the statistics record what ran.

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

// An intra-warp spin lock: completes under ITS, livelocks under the stack.
const char* kSpinLock =
    "atom.global.cas.b32 %old, [%out], 0, 1;\n"
    "setp.ne.u32 %p, %old, 0;\n"
    "@%p bra SPIN;\n"
    "ld.global.u32 %v, [%out+4];\n"
    "add.u32 %v, %v, 1;\n"
    "st.global.u32 [%out+4], %v;\n"
    "atom.global.exch.b32 %old, [%out], 0;";

sim::LaunchResult runLock(std::string_view target, sim::SimtMode simt, uint32_t& count) {
  std::string body = std::string("SPIN:\n") + kSpinLock;
  std::string ptx = test::ptxKernel(".reg .u32 %old, %v; .reg .pred %p;", body, target);
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  device.launchOptions().simt = simt;
  auto module = device.loadModule(ptx, "lock.ptx");
  uint64_t buffer = device.malloc(64);
  device.memset(buffer, 0, 64);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {32}, 0, KernelArgs().add(buffer).add(buffer));
  count = device.read<uint32_t>(buffer + 4, 1)[0];
  return r;
}

TEST(SimtTarget, PtxBelowSm70RunsUnderTheStackByDefault) {
  uint32_t count = 0;
  sim::LaunchResult r = runLock("sm_60", sim::SimtMode::Default, count);
  EXPECT_EQ(r.stats.simtMode, "stack");
  ASSERT_EQ(r.error.kind, sim::LaunchErrorKind::Deadlock) << r.error.message;
  EXPECT_NE(r.error.message.find("(simt stack)"), std::string::npos) << r.error.message;
}

TEST(SimtTarget, PtxForSm70AndNewerRunsUnderItsByDefault) {
  for (std::string_view target : {"sm_70", "sm_90"}) {
    uint32_t count = 0;
    sim::LaunchResult r = runLock(target, sim::SimtMode::Default, count);
    EXPECT_EQ(r.stats.simtMode, "its/converge") << target;
    ASSERT_FALSE(r.error) << target << ": " << r.error.message;
    EXPECT_EQ(count, 32u) << target;
  }
}

TEST(SimtTarget, TheSimtOptionOverridesTheTarget) {
  uint32_t count = 0;
  sim::LaunchResult its = runLock("sm_60", sim::SimtMode::Its, count);
  EXPECT_EQ(its.stats.simtMode, "its/converge");
  ASSERT_FALSE(its.error) << its.error.message;
  EXPECT_EQ(count, 32u);
  sim::LaunchResult stack = runLock("sm_90", sim::SimtMode::Stack, count);
  EXPECT_EQ(stack.stats.simtMode, "stack");
  EXPECT_EQ(stack.error.kind, sim::LaunchErrorKind::Deadlock);
}

}  // namespace
}  // namespace ptxsim
