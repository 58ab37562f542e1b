#include <gtest/gtest.h>

#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim {
namespace {

isa::Function kernel() {
  isa::Function f;
  f.name = "k";
  f.isKernel = true;
  return f;
}

TEST(LaunchGeometry, AcceptsLegalLaunches) {
  EXPECT_EQ(checkLaunchGeometry(kernel(), {4096, 1, 1}, {1024, 1, 1}, {}), "");
  EXPECT_EQ(checkLaunchGeometry(kernel(), {1, 65535, 1}, {32, 32, 1}, {}), "");
}

TEST(LaunchGeometry, RejectsWhatTheDriverRejects) {
  EXPECT_NE(checkLaunchGeometry(kernel(), {1, 1, 1}, {1025, 1, 1}, {}), "");
  EXPECT_NE(checkLaunchGeometry(kernel(), {1, 1, 1}, {32, 32, 2}, {}), "");  // 2048 threads
  EXPECT_NE(checkLaunchGeometry(kernel(), {1, 1, 1}, {1, 1, 65}, {}), "");
  EXPECT_NE(checkLaunchGeometry(kernel(), {0, 1, 1}, {1, 1, 1}, {}), "");
  EXPECT_NE(checkLaunchGeometry(kernel(), {1, 65536, 1}, {1, 1, 1}, {}), "");
}

TEST(LaunchGeometry, HonoursPerformanceDirectives) {
  isa::Function k = kernel();
  k.directives.reqntid = {128, 1, 1};
  EXPECT_EQ(checkLaunchGeometry(k, {1, 1, 1}, {128, 1, 1}, {}), "");
  EXPECT_NE(checkLaunchGeometry(k, {1, 1, 1}, {64, 1, 1}, {}), "");
  k.directives.reqntid = {};
  k.directives.maxntid = {256, 1, 1};
  EXPECT_EQ(checkLaunchGeometry(k, {1, 1, 1}, {16, 16, 1}, {}), "");
  EXPECT_NE(checkLaunchGeometry(k, {1, 1, 1}, {16, 17, 1}, {}), "");
  isa::Function device;
  device.name = "f";
  EXPECT_NE(checkLaunchGeometry(device, {1, 1, 1}, {1, 1, 1}, {}), "");
}

}  // namespace
}  // namespace ptxsim::sim
