// __prof_trigger / pmevent: per-kernel prof_trigger_00..07 counters, once
// per warp that executes a trigger (tests/cuda/e2e/prof_trigger.cu says
// which counts its kernel must give; they are derived by hand there).

#include <gtest/gtest.h>

#include "../support/cuda_programs.h"
#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

TEST(ProfTrigger, CountsOncePerWarpThatExecutesTheTrigger) {
  for (unsigned threads : {1u, 4u}) {
    Device device(sim::GpuConfig{}, DeviceOptions{threads});
    auto module = test::loadCudaProgram(device, "e2e/prof_trigger");
    uint64_t out = device.malloc(2 * 96 * 4);
    sim::LaunchResult r = device.launch(*module, "triggers", {2}, {96}, 0, KernelArgs().add(out));
    ASSERT_FALSE(r.error) << r.error.message;
    const auto& t = r.stats.profileTriggers;
    EXPECT_EQ(t[0], 6u);   // 6 warps
    EXPECT_EQ(t[1], 6u);   // odd threads of each warp: still once per warp
    EXPECT_EQ(t[2], 12u);  // warp w loops w+1 times: (1+2+3) per block
    EXPECT_EQ(t[3], 12u);  // both sides of a branch: twice per warp
    for (unsigned e : {4u, 5u, 6u}) EXPECT_EQ(t[e], 0u) << e;
    EXPECT_EQ(t[7], 1u);   // one thread of the grid
    std::string json = r.stats.toJson();
    EXPECT_NE(json.find("\"prof_trigger_00\":6"), std::string::npos) << json;
    EXPECT_NE(json.find("\"prof_trigger_07\":1"), std::string::npos) << json;
  }
}

TEST(ProfTrigger, TheMaskFormRaisesSeveralEventsAndBadEventsAreRefused) {
  std::string ptx = test::ptxKernel("", "pmevent.mask 0x0005;\npmevent 6;");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  uint64_t buffer = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {64}, 0, KernelArgs().add(buffer).add(buffer));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(r.stats.profileTriggers[0], 2u);
  EXPECT_EQ(r.stats.profileTriggers[1], 0u);
  EXPECT_EQ(r.stats.profileTriggers[2], 2u);
  EXPECT_EQ(r.stats.profileTriggers[6], 2u);
  std::string error = test::loadError("", "pmevent 16;");
  EXPECT_NE(error.find("pmevent event 16 out of range"), std::string::npos) << error;
}

}  // namespace
}  // namespace ptxsim
