// The bundled example end to end through the host API: examples/vector_add.ptx
// (nvcc -arch=sm_90 -ptx examples/vector_add.cu) against a host sum.

#include <gtest/gtest.h>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

TEST(VectorAdd, MatchesHostSumIncludingPartialLastBlock) {
  Device device(sim::GpuConfig{}, DeviceOptions{2});
  auto module = device.loadModuleFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
  const int n = 1000;  // not a multiple of the block size: the guard matters
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  uint64_t da = device.upload(a), db = device.upload(b), dc = device.malloc(n * sizeof(float));
  sim::LaunchResult result = device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {4}, {256}, 0,
                                           KernelArgs().add(da).add(db).add(dc).add(n));
  ASSERT_FALSE(result.error) << result.error.message;
  std::vector<float> c = device.read<float>(dc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  // Counted by hand from the PTX: 10 instructions up to the guarded branch,
  // 11 in the body, then ret. Threads 0..999 run all 22; threads
  // 1000..1023 run 11. Warps 0..30 are whole; warp 31 diverges (8 lanes in
  // the body) and reconverges at the ret, so every warp issues 22.
  EXPECT_EQ(result.stats.warpInstructions, 32u * 22u);
  EXPECT_EQ(result.stats.threadInstructions, 1000u * 22u + 24u * 11u);
  EXPECT_EQ(result.stats.divergentBranches, 1u);
}

}  // namespace
}  // namespace ptxsim
