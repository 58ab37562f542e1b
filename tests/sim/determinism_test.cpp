// Outputs and statistics do not depend on the number of host threads, and
// the statistics record carries Nsight Compute's metric names.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

sim::LaunchResult runVectorAdd(unsigned threads, std::vector<float>& c) {
  Device device(sim::GpuConfig{}, DeviceOptions{threads});
  auto module = device.loadModuleFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
  const int n = 20000;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 97) * 0.25f;
    b[i] = static_cast<float>(i % 13) - 6.0f;
  }
  uint64_t da = device.upload(a), db = device.upload(b), dc = device.malloc(n * 4);
  sim::LaunchResult r = device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {(n + 127) / 128}, {128}, 0,
                                      KernelArgs().add(da).add(db).add(dc).add(n));
  c = device.read<float>(dc, n);
  return r;
}

TEST(Determinism, OutputsAndCountersAreTheSameForAnyHostThreadCount) {
  std::vector<float> one, four;
  sim::LaunchResult r1 = runVectorAdd(1, one);
  sim::LaunchResult r4 = runVectorAdd(4, four);
  ASSERT_FALSE(r1.error) << r1.error.message;
  ASSERT_FALSE(r4.error) << r4.error.message;
  EXPECT_EQ(one, four);
  EXPECT_EQ(r1.stats.hostThreads, 1u);
  EXPECT_EQ(r4.stats.hostThreads, 4u);
  EXPECT_EQ(r1.stats.warpInstructions, r4.stats.warpInstructions);
  EXPECT_EQ(r1.stats.threadInstructions, r4.stats.threadInstructions);
  EXPECT_EQ(r1.stats.threadInstructionsPredOn, r4.stats.threadInstructionsPredOn);
  EXPECT_EQ(r1.stats.globalLoadInstructions, r4.stats.globalLoadInstructions);
  EXPECT_EQ(r1.stats.divergentBranches, r4.stats.divergentBranches);
}

TEST(Statistics, JsonRecordUsesNsightComputeMetricNames) {
  std::vector<float> c;
  sim::LaunchResult r = runVectorAdd(2, c);
  ASSERT_FALSE(r.error) << r.error.message;
  nlohmann::json j = nlohmann::json::parse(r.stats.toJson());
  EXPECT_EQ(j["kernel"], "_Z9vectorAddPKfS0_Pfi");
  EXPECT_EQ(j["grid"], nlohmann::json::array({157, 1, 1}));
  EXPECT_EQ(j["block"], nlohmann::json::array({128, 1, 1}));
  // 157 blocks of 4 warps = 628 warps. Threads 0..19999 (warps 0..624,
  // exactly) run 22 instructions each; the 96 threads beyond (warps
  // 625..627, wholly out of range) run 11 (see vector_add_test.cpp).
  EXPECT_EQ(j["smsp__thread_inst_executed.sum"], 20000u * 22u + 96u * 11u);
  EXPECT_EQ(j["smsp__inst_executed.sum"], 625u * 22u + 3u * 11u);
  EXPECT_EQ(j["smsp__inst_executed_op_global_ld.sum"], 625u * 2u);
  EXPECT_EQ(j["smsp__inst_executed_op_global_st.sum"], 625u);
  EXPECT_GT(j["ptxsim__simulation_seconds"].get<double>(), 0.0);
}

}  // namespace
}  // namespace ptxsim
