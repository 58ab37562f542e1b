// Kernels launched from device code (CDP2, tests/cuda/cdp/launch_order.cu):
// the order the child grids run in, the device-side errors (pending-launch
// count, nesting depth, invalid configuration), a child's fault reaching
// the host, the statistics of each child grid, the same results whatever
// the host thread count, and a device runtime function the simulator does
// not provide refused at load with its name.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

// cudaError_t values (driver_types.h).
constexpr int kSuccess = 0;
constexpr int kInvalidConfiguration = 9;
constexpr int kLaunchMaxDepthExceeded = 65;
constexpr int kLaunchPendingCountExceeded = 69;

std::string ptxPath(const std::string& name) {
  return std::string(PTXSIM_CUDA_PTX_DIR) + "/cdp/" + name + ".ptx";
}

struct LaunchRun {
  sim::LaunchResult result;
  std::vector<int> log;     // the values the grids logged, in the order they ran
  std::vector<int> errors;  // what the launching threads' cudaGetLastError returned
};

// Launches `kernel` as the host does, with (log, errors[, extra]) arguments.
LaunchRun runKernel(unsigned hostThreads, const char* kernel, unsigned blocks, size_t errorCount,
                    uint64_t pendingLaunchLimit = 2048, const int* extra = nullptr) {
  sim::GpuConfig config;
  config.pendingLaunchLimit = pendingLaunchLimit;
  Device device(config, DeviceOptions{hostThreads});
  auto module = device.loadModuleFile(ptxPath("launch_order"));
  uint64_t log = device.upload(std::vector<int>(64, 0));
  uint64_t errors = device.upload(std::vector<int>(errorCount, -1));
  KernelArgs args;
  args.add(log).add(errors);
  if (extra != nullptr) args.add(*extra);
  LaunchRun r;
  r.result = device.launch(*module, kernel, {blocks}, {32}, 0, args);
  std::vector<int> logged = device.read<int>(log, 64);
  r.log.assign(logged.begin() + 1, logged.begin() + 1 + logged[0]);
  r.errors = device.read<int>(errors, errorCount);
  return r;
}

// The driver's fixed order: the launching CTA's index, then program order,
// each grid followed by the grids it launched; tail launches after all the
// others. CUDA's rules hold in it: 101 before 102 (per-block stream), 110
// before 111 before its child 112 (named stream), tails last.
const std::vector<int> kLaunchManyOrder = {101, 110, 111, 112, 120, 102, 201,
                                           210, 211, 212, 220, 202, 190, 290};

TEST(DeviceLaunch, ChildGridsRunAfterTheirParentInStreamOrder) {
  LaunchRun r = runKernel(1, "_Z10launchManyPiS_", 2, 16);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(r.log, kLaunchManyOrder);
  for (unsigned block = 0; block < 2; ++block) {
    for (unsigned k = 0; k < 7; ++k) EXPECT_EQ(r.errors[block * 8 + k], kSuccess) << block << " " << k;
    EXPECT_EQ(r.errors[block * 8 + 7], -1);
  }
}

TEST(DeviceLaunch, EachChildGridIsALaunchOfItsOwnInTheStatistics) {
  LaunchRun r = runKernel(1, "_Z10launchManyPiS_", 2, 16);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(r.result.stats.launchId, 1u);
  EXPECT_EQ(r.result.stats.parentLaunchId, 0u);
  const std::vector<sim::KernelStats>& children = r.result.deviceLaunches;
  ASSERT_EQ(children.size(), 14u);  // 7 grids per block, one of them a grandchild
  for (size_t i = 0; i < children.size(); ++i) EXPECT_EQ(children[i].launchId, i + 2);
  // Block 0: 101 110 111 (launches 112) 112 120 102.
  EXPECT_EQ(children[2].kernel, "_Z13logThenLaunchPii");
  EXPECT_EQ(children[3].kernel, "_Z8logValuePii");
  EXPECT_EQ(children[3].parentLaunchId, children[2].launchId);
  EXPECT_EQ(children[3].launchDepth, 2u);
  EXPECT_EQ(children[0].parentLaunchId, 1u);
  EXPECT_EQ(children[0].launchDepth, 1u);
  // The tail launches ran last, with the geometry they were given.
  EXPECT_EQ(children[12].grid.x, 2u);
  EXPECT_EQ(children[12].block.x, 32u);
  EXPECT_NE(children[3].toJson().find("\"ptxsim__parent_launch_id\":4"), std::string::npos);
  EXPECT_EQ(r.result.stats.toJson().find("ptxsim__parent_launch_id"), std::string::npos);
}

TEST(DeviceLaunch, OrderErrorsAndStatisticsAreTheSameForAnyHostThreadCount) {
  LaunchRun one = runKernel(1, "_Z10launchManyPiS_", 2, 16);
  LaunchRun four = runKernel(4, "_Z10launchManyPiS_", 2, 16);
  ASSERT_FALSE(four.result.error) << four.result.error.message;
  EXPECT_EQ(four.log, one.log);
  EXPECT_EQ(four.errors, one.errors);
  ASSERT_EQ(four.result.deviceLaunches.size(), one.result.deviceLaunches.size());
  for (size_t i = 0; i < one.result.deviceLaunches.size(); ++i) {
    const sim::KernelStats& a = one.result.deviceLaunches[i];
    const sim::KernelStats& b = four.result.deviceLaunches[i];
    EXPECT_EQ(a.kernel, b.kernel);
    EXPECT_EQ(a.launchId, b.launchId);
    EXPECT_EQ(a.parentLaunchId, b.parentLaunchId);
    EXPECT_EQ(a.warpInstructions, b.warpInstructions);
  }
}

// Limit 4: block 0's three launches are pending when block 1 launches, so
// block 1's first fits and its next two do not, whatever the thread count.
TEST(DeviceLaunch, LaunchesBeyondThePendingCountFail) {
  const int perBlock = 3;
  for (unsigned threads : {1u, 2u, 4u}) {
    LaunchRun r = runKernel(threads, "_Z11launchBurstPiS_i", 2, 6, 4, &perBlock);
    ASSERT_FALSE(r.result.error) << r.result.error.message;
    EXPECT_EQ(r.errors, (std::vector<int>{kSuccess, kSuccess, kSuccess, kSuccess, kLaunchPendingCountExceeded,
                                          kLaunchPendingCountExceeded}))
        << threads << " host threads";
    EXPECT_EQ(r.log, (std::vector<int>{0, 1, 2, 100}));
  }
}

TEST(DeviceLaunch, NestingStopsAtDepth24) {
  Device device(sim::GpuConfig{}, DeviceOptions{2});
  auto module = device.loadModuleFile(ptxPath("launch_order"));
  uint64_t deepest = device.upload(std::vector<int>{-1, 0});
  sim::LaunchResult r = device.launch(*module, "_Z7recursePiS_i", {1}, {1}, 0,
                                      KernelArgs().add(deepest).add(deepest + 4).add(0));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(device.read<int>(deepest, 2), (std::vector<int>{24, kLaunchMaxDepthExceeded}));
  EXPECT_EQ(r.deviceLaunches.size(), 24u);
  EXPECT_EQ(r.deviceLaunches.back().launchDepth, 24u);
}

TEST(DeviceLaunch, AnInvalidConfigurationIsTheLaunchingThreadsError) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModuleFile(ptxPath("launch_order"));
  uint64_t log = device.upload(std::vector<int>(4, 0));
  uint64_t error = device.upload(std::vector<int>{-1, -1});
  sim::LaunchResult r =
      device.launch(*module, "_Z13launchInvalidPiS_", {1}, {1}, 0, KernelArgs().add(log).add(error));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(device.read<int>(error, 2), (std::vector<int>{kInvalidConfiguration, kSuccess}));
  EXPECT_TRUE(r.deviceLaunches.empty());
}

TEST(DeviceLaunch, AChildsFaultIsTheHostLaunchsError) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModuleFile(ptxPath("launch_order"));
  uint64_t buffer = device.upload(std::vector<int>(4, 0));
  sim::LaunchResult r = device.launch(*module, "_Z12launchFaultyPi", {1}, {1}, 0, KernelArgs().add(buffer));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_NE(r.error.message.find("_Z7writeAtPii"), std::string::npos) << r.error.message;
  EXPECT_NE(r.error.message.find("launched from the device"), std::string::npos) << r.error.message;
}

TEST(DeviceLaunch, AnUnprovidedDeviceRuntimeFunctionIsRefusedByName) {
  // Lazy loading: the kernel fails when it is launched.
  Device device;
  auto module = device.loadModuleFile(ptxPath("unsupported_call"));
  uint64_t out = device.malloc(4);
  sim::LaunchResult r = device.launch(*module, "_Z14queryAttributePi", {1}, {1}, 0, KernelArgs().add(out));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::InvalidPtx);
  EXPECT_NE(r.error.message.find(
                "'__cudaCDP2DeviceGetAttribute', a CUDA device runtime function ptxsim does not provide"),
            std::string::npos)
      << r.error.message;
}

}  // namespace
}  // namespace ptxsim
