// The executor's per-instruction report, seen through a StepObserver: what
// a timing model will consume (lanes, unit class, branch outcome, memory
// space, access size, lane addresses).

#include <gtest/gtest.h>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

struct Recorder : sim::StepObserver {
  std::vector<sim::StepReport> reports;
  void onStep(const sim::StepReport& r) override { reports.push_back(r); }
};

TEST(StepReport, VectorAddReportsLanesBranchesAndAddresses) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  Recorder recorder;
  device.launchOptions().observer = &recorder;
  auto module = device.loadModuleFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
  const int n = 40;  // one block of 64: warp 1 has 8 lanes in range
  uint64_t a = device.malloc(n * 4), b = device.malloc(n * 4), c = device.malloc(n * 4);
  sim::LaunchResult r = device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {1}, {64}, 0,
                                      KernelArgs().add(a).add(b).add(c).add(n));
  ASSERT_FALSE(r.error) << r.error.message;
  ASSERT_EQ(recorder.reports.size(), r.stats.warpInstructions);
  unsigned loads = 0, stores = 0, branches = 0;
  for (const sim::StepReport& s : recorder.reports) {
    ASSERT_NE(s.instruction, nullptr);
    EXPECT_EQ(s.unit, s.instruction->unit);
    uint32_t inRange = s.warp == 0 ? 0xffffffffu : 0xffu;
    if (s.instruction->opcode == isa::Opcode::Bra) {
      ++branches;
      // Lanes out of range take the branch to the final ret.
      EXPECT_EQ(s.taken, ~inRange & s.active) << "warp " << s.warp;
    }
    if (s.access == sim::AccessKind::Load && s.space == sim::AddressSpace::Global) {
      ++loads;
      EXPECT_EQ(s.accessBytes, 4u);
      EXPECT_EQ(s.executed, inRange);
      for (unsigned l = 0; l < 32; ++l) {
        if ((s.executed >> l) & 1) {
          uint64_t index = s.warp * 32 + l;
          EXPECT_TRUE(s.addresses[l] == a + 4 * index || s.addresses[l] == b + 4 * index) << l;
        }
      }
    }
    if (s.access == sim::AccessKind::Store) {
      ++stores;
      EXPECT_EQ(s.unit, isa::UnitClass::Memory);
      for (unsigned l = 0; l < 32; ++l) {
        if ((s.executed >> l) & 1) EXPECT_EQ(s.addresses[l], c + 4 * (s.warp * 32 + l));
      }
    }
  }
  EXPECT_EQ(loads, 4u);  // two per warp
  EXPECT_EQ(stores, 2u);
  EXPECT_EQ(branches, 2u);
}

}  // namespace
}  // namespace ptxsim
