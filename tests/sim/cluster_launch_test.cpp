// Cluster launches checked as the CUDA driver checks them (a grid of whole
// clusters, at most 8 CTAs unless non-portable sizes are allowed, never
// more than 16, the kernel's __cluster_dims__ if it has them), and cluster
// occupancy per GPC.

#include <gtest/gtest.h>

#include "cluster_support.h"
#include "ptxsim/sim/cluster_shape.h"

namespace ptxsim {
namespace {

using test::clusterKernel;
using test::ClusterLaunch;
using test::runCluster;

sim::LaunchError launchError(sim::Dim3 grid, sim::Dim3 cluster, bool nonPortable = false,
                             const char* directives = "") {
  ClusterLaunch l;
  l.grid = grid;
  l.cluster = cluster;
  l.nonPortable = nonPortable;
  return runCluster(clusterKernel("", "", directives), l, 1).result.error;
}

TEST(ClusterLaunch, GridMustBeWholeClusters) {
  sim::LaunchError e = launchError({6, 1, 1}, {4, 1, 1});
  EXPECT_EQ(e.kind, sim::LaunchErrorKind::InvalidClusterSize);
  EXPECT_NE(e.message.find("not a whole number of clusters"), std::string::npos) << e.message;
  EXPECT_FALSE(launchError({8, 2, 2}, {2, 2, 2}));
  EXPECT_FALSE(launchError({9, 1, 1}, {3, 1, 1}));
}

TEST(ClusterLaunch, MoreThanEightCtasNeedTheNonPortableAttributeAndSixteenIsTheMost) {
  EXPECT_FALSE(launchError({16, 1, 1}, {8, 1, 1}));
  sim::LaunchError nine = launchError({18, 1, 1}, {9, 1, 1});
  EXPECT_EQ(nine.kind, sim::LaunchErrorKind::InvalidClusterSize);
  EXPECT_NE(nine.message.find("NonPortableClusterSizeAllowed"), std::string::npos) << nine.message;
  EXPECT_FALSE(launchError({32, 1, 1}, {16, 1, 1}, true));
  EXPECT_EQ(launchError({32, 1, 1}, {32, 1, 1}, true).kind, sim::LaunchErrorKind::InvalidClusterSize);
  EXPECT_EQ(launchError({8, 1, 1}, {0, 1, 1}).kind, sim::LaunchErrorKind::InvalidClusterSize);
}

TEST(ClusterLaunch, KernelWithClusterDimsRunsWithThoseOnly) {
  const char* fixed = ".reqnctapercluster 2, 1, 1";
  EXPECT_FALSE(launchError({8, 1, 1}, {0, 0, 0}, false, fixed));
  EXPECT_FALSE(launchError({8, 1, 1}, {2, 1, 1}, false, fixed));
  sim::LaunchError other = launchError({8, 1, 1}, {4, 1, 1}, false, fixed);
  EXPECT_EQ(other.kind, sim::LaunchErrorKind::InvalidClusterSize);
  EXPECT_NE(other.message.find("differs from the kernel's __cluster_dims__"), std::string::npos)
      << other.message;
  // Its grid must be whole clusters too.
  EXPECT_EQ(launchError({7, 1, 1}, {0, 0, 0}, false, fixed).kind, sim::LaunchErrorKind::InvalidClusterSize);
  EXPECT_EQ(launchError({8, 1, 1}, {8, 1, 1}, false, ".maxclusterrank 4").kind,
            sim::LaunchErrorKind::InvalidClusterSize);
}

TEST(ClusterOccupancy, H100GpcsHoldEveryOneOfItsSms) {
  sim::GpuConfig h100;
  uint32_t total = 0;
  for (uint32_t sms : h100.gpcSms) total += sms;
  EXPECT_EQ(total, h100.smCount);
}

// What the H100 answers with one block per SM (tests/cuda/programs/
// clusters.expected): clusters fit whole in one GPC.
TEST(ClusterOccupancy, ClustersFitWholeInOneGpc) {
  sim::GpuConfig h100;
  EXPECT_EQ(sim::maxActiveClusters(h100, 1, 2), 66u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 1, 4), 30u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 1, 8), 15u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 1, 16), 7u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 0, 2), 0u);
}

// And with more blocks an SM (tests/cuda/programs/
// cluster_occupancy.expected): at most 8 of them count, and GPCs
// smaller than the cluster hold none.
TEST(ClusterOccupancy, TheH100CountsAtMostEightBlocksAnSm) {
  sim::GpuConfig h100;
  EXPECT_EQ(sim::maxActiveClusters(h100, 32, 1), 1056u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 16, 2), 528u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 8, 3), 327u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 5, 6), 101u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 4, 12), 37u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 2, 16), 14u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 25, 16), 58u);
  EXPECT_EQ(sim::maxActiveClusters(h100, 1, 3), 39u);
}

}  // namespace
}  // namespace ptxsim
