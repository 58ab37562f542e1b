// Thread block clusters under the timing model (cluster_placement.h,
// cluster_reach.h): the same results as the functional run whatever the
// host thread count, distributed shared memory at the SM-to-SM network's
// latency (ClusterTiming::dsmemLatencyCycles), barrier.cluster releasing
// its warps after its cost, and clusters placed whole on one GPC's SMs.

#include <gtest/gtest.h>

#include <algorithm>

#include "../cluster_support.h"
#include "ptxsim/sim/gpu_config.h"

namespace ptxsim {
namespace {

using test::clusterKernel;
using test::ClusterLaunch;
using test::ClusterRun;
using test::runCluster;

constexpr const char* kSync = "barrier.cluster.arrive;\nbarrier.cluster.wait;\n";

// Every thread adds its CTA's rank + 1 to a counter in rank 0's shared
// memory (atom.shared::cluster) and reads the next rank's word through a
// generic address (cvta of mapa); thread 0 of rank 0 writes the counter,
// each thread what it read.
std::string exchangeKernel() {
  const std::string body = std::string(
                               "mov.u32 %a, word;\n"
                               "mov.u32 %r, %cluster_ctarank;\n"
                               "mul.lo.u32 %v, %r, 1000;\n"
                               "st.shared.u32 [%a], %v;\n"
                               "setp.eq.u32 %p, %tx, 0;\n"
                               "mov.u32 %w, count;\n"
                               "@%p st.shared.u32 [%w], 0;\n") +
                           kSync +
                           "mapa.shared::cluster.u32 %w, %w, 0;\n"
                           "add.u32 %v, %r, 1;\n"
                           "atom.shared::cluster.add.u32 %v, [%w], %v;\n"
                           "mov.u32 %cx, %cluster_nctarank;\n"
                           "add.u32 %v, %r, 1;\n"
                           "rem.u32 %v, %v, %cx;\n"
                           "mapa.shared::cluster.u32 %v, %a, %v;\n"
                           "cvt.u64.u32 %g, %v;\n"
                           "cvta.shared.u64 %g, %g;\n"
                           "ld.u32 %v, [%g];\n"
                           "mad.lo.u32 %cy, %lin, 32, %tx;\n"
                           "mul.wide.u32 %o, %cy, 4;\n"
                           "add.u64 %o, %out, %o;\n"
                           "st.global.u32 [%o+4], %v;\n" +
                           kSync +
                           "setp.eq.u32 %q, %r, 0;\n"
                           "and.pred %q, %q, %p;\n"
                           "@!%q bra DONE;\n"
                           "ld.shared.u32 %v, [count];\n"
                           "atom.global.add.u32 %v, [%out], %v;\n"
                           "DONE:";
  return clusterKernel(".shared .align 4 .b32 word;\n.shared .align 4 .b32 count;", body);
}

TEST(ClusterTiming, ResultsMatchTheFunctionalRunOnAnyHostThreadCount) {
  ClusterLaunch l;
  l.grid = {64, 1, 1};
  l.cluster = {4, 1, 1};
  const size_t words = 1 + 64 * 32;
  ClusterRun functional = runCluster(exchangeKernel(), l, words);
  ASSERT_FALSE(functional.result.error) << functional.result.error.message;
  // Each cluster's counter: 32 threads of ranks 1..4.
  EXPECT_EQ(functional.out[0], 16u * 32u * (1 + 2 + 3 + 4));
  for (uint32_t cta = 0; cta < 64; ++cta)
    EXPECT_EQ(functional.out[1 + cta * 32], ((cta % 4 + 1) % 4) * 1000) << "CTA " << cta;
  l.timing = true;
  ClusterRun one = runCluster(exchangeKernel(), l, words);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  EXPECT_EQ(one.out, functional.out);
  l.hostThreads = 3;
  ClusterRun three = runCluster(exchangeKernel(), l, words);
  ASSERT_FALSE(three.result.error) << three.result.error.message;
  EXPECT_EQ(three.out, functional.out);
  EXPECT_GT(one.result.stats.timing.cyclesElapsed, 0u);
  EXPECT_EQ(three.result.stats.timing.cyclesElapsed, one.result.stats.timing.cyclesElapsed);
  EXPECT_EQ(three.result.stats.warpInstructions, one.result.stats.warpInstructions);
}

// Thread 0 of rank 0 follows 32 dependent loads through the word of rank
// `target` (each holds its own .shared::cluster address) and writes the
// cycles they took, then the word it ended at.
std::string chaseKernel(unsigned target) {
  const std::string body = "mov.u32 %a, word;\n"
                           "mapa.shared::cluster.u32 %w, %a, " +
                           std::to_string(target) +
                           ";\n"
                           "st.shared.u32 [%a], %w;\n" +
                           kSync +
                           "mov.u32 %r, %cluster_ctarank;\n"
                           "or.b32 %r, %r, %tx;\n"
                           "setp.ne.u32 %p, %r, 0;\n"
                           "@%p bra DONE;\n"
                           "mov.u32 %v, %w;\n"
                           "mov.u32 %i, 0;\n"
                           "mov.u64 %t0, %clock64;\n"
                           "LOOP:\n"
                           "ld.shared::cluster.u32 %v, [%v];\n"
                           "add.u32 %i, %i, 1;\n"
                           "setp.lt.u32 %q, %i, 32;\n"
                           "@%q bra LOOP;\n"
                           "st.global.u32 [%out+8], %v;\n"
                           "mov.u64 %t1, %clock64;\n"
                           "sub.u64 %t1, %t1, %t0;\n"
                           "st.global.u64 [%out], %t1;\n"
                           "DONE:\n" +
                           kSync;
  return clusterKernel(".shared .align 4 .b32 word;\n.reg .u64 %t0, %t1;\n.reg .u32 %i;", body);
}

uint64_t chaseCyclesPerStep(unsigned target) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  l.timing = true;
  ClusterRun run = runCluster(chaseKernel(target), l, 3);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  return (run.out[0] | uint64_t{run.out[1]} << 32) / 32;
}

TEST(ClusterTiming, AnotherCtasSharedMemoryAnswersAfterTheNetworksLatency) {
  const uint32_t latency = sim::TimingConfig{}.cluster.dsmemLatencyCycles;
  const uint64_t remote = chaseCyclesPerStep(1);
  const uint64_t own = chaseCyclesPerStep(0);
  // A step is the load's latency: the loop's other instructions overlap it.
  EXPECT_GE(remote, latency);
  EXPECT_LE(remote, latency + 8);
  EXPECT_LT(own, 60u);  // the SM's own shared memory (shared.latency)
}

TEST(ClusterTiming, ClusterBarrierReleasesItsWarpsAfterItsCost) {
  const sim::ClusterTiming timing = sim::TimingConfig{}.cluster;
  const uint64_t cost = timing.barrierCycles + 4 * timing.barrierCyclesPerCta;
  std::string body = std::string("mov.u64 %t0, %clock64;\n") + "mov.u32 %i, 0;\nLOOP:\n" + kSync +
                     "add.u32 %i, %i, 1;\n"
                     "setp.lt.u32 %q, %i, 16;\n"
                     "@%q bra LOOP;\n"
                     "mov.u64 %t1, %clock64;\n"
                     "sub.u64 %t1, %t1, %t0;\n"
                     "mov.u32 %r, %cluster_ctarank;\n"
                     "or.b32 %r, %r, %tx;\n"
                     "setp.eq.u32 %p, %r, 0;\n"
                     "@%p st.global.u64 [%out], %t1;";
  ClusterLaunch l;
  l.grid = {4, 1, 1};
  l.block = {128, 1, 1};
  l.cluster = {4, 1, 1};
  l.timing = true;
  ClusterRun run = runCluster(clusterKernel(".reg .u64 %t0, %t1;\n.reg .u32 %i;", body), l, 2);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  const uint64_t perBarrier = (run.out[0] | uint64_t{run.out[1]} << 32) / 16;
  EXPECT_GE(perBarrier, cost);
  // At most a synchronisation window (gpu.sync_window) and the loop's own
  // instructions beyond it.
  EXPECT_LE(perBarrier, cost + sim::TimingConfig{}.syncWindowCycles + 40);
}

TEST(ClusterTiming, ClustersStartWholeOnOneGpcBreadthFirst) {
  // Each CTA writes its %smid.
  ClusterLaunch l;
  l.grid = {64, 1, 1};
  l.cluster = {4, 1, 1};
  l.timing = true;
  std::string body =
      "setp.ne.u32 %p, %tx, 0;\n@%p bra DONE;\nmov.u32 %v, %smid;\n"
      "mul.wide.u32 %o, %lin, 4;\nadd.u64 %o, %out, %o;\nst.global.u32 [%o], %v;\nDONE:";
  ClusterRun run = runCluster(clusterKernel("", body), l, 64);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  // The GPC of each SM, by the preset's layout (SMs numbered GPC by GPC).
  const std::vector<uint32_t> gpcSms = sim::GpuConfig{}.gpcSms;
  auto gpcOf = [&](uint32_t sm) {
    uint32_t g = 0;
    for (uint32_t start = 0; g < gpcSms.size() && sm >= start + gpcSms[g]; start += gpcSms[g], ++g) {
    }
    return g;
  };
  std::vector<uint32_t> seen;
  for (uint32_t c = 0; c < 16; ++c) {
    for (uint32_t r = 0; r < 4; ++r) {
      EXPECT_EQ(gpcOf(run.out[4 * c + r]), gpcOf(run.out[4 * c])) << "cluster " << c << " rank " << r;
      seen.push_back(run.out[4 * c + r]);
    }
  }
  // 64 CTAs on 64 different SMs: one an SM before any takes a second.
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

// The remote arrival (cluster_support.h) runs between windows on rank 1's
// SM under the timing model.
TEST(ClusterTiming, ARemoteMbarrierArrivalCompletesThePhase) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  l.timing = true;
  ClusterRun run = runCluster(clusterKernel(test::kRemoteBarrierDeclaration, test::kRemoteMbarrierArriveBody), l, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 1u);
}

// Three of each CTA's four warps exit at once; the fourth passes three
// cluster barriers, which count only the warps that have not exited.
TEST(ClusterTiming, WarpsThatExitNoLongerHoldTheClusterBarrier) {
  ClusterLaunch l;
  l.grid = {4, 1, 1};
  l.block = {128, 1, 1};
  l.cluster = {4, 1, 1};
  l.timing = true;
  const std::string body = std::string(
                               "setp.ge.u32 %p, %tx, 32;\n"
                               "@%p bra DONE;\n") +
                           kSync + kSync + kSync +
                           "setp.eq.u32 %q, %tx, 0;\n"
                           "@%q atom.global.add.u32 %v, [%out], 1;\n"
                           "DONE:";
  ClusterRun run = runCluster(clusterKernel("", body), l, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 4u);
}

// Rank 0 reads rank 1's shared memory after rank 1 has exited: the same
// fault as in the functional run, though the read runs between windows.
TEST(ClusterTiming, ReadingAnExitedCtasSharedMemoryFaults) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  l.timing = true;
  ClusterRun run = runCluster(clusterKernel(test::kPeerWordsDeclaration, test::kReadExitedPeerBody), l, 1);
  ASSERT_TRUE(run.result.error);
  EXPECT_NE(run.result.error.message.find("which has exited"), std::string::npos) << run.result.error.message;
}

// A preset whose GPCs hold fewer blocks than a cluster has: the timing
// model refuses the launch rather than never starting its clusters.
TEST(ClusterTiming, AClusterNoGpcCanHoldIsRefused) {
  sim::GpuConfig config;
  config.gpcSms.assign(config.smCount / 2, 2);  // GPCs of 2 SMs; 1024 threads: 2 blocks an SM
  Device device(config, DeviceOptions{1});
  device.launchOptions().timing = true;
  auto module = device.loadModule(clusterKernel("", ""), "cluster_test.ptx");
  uint64_t out = device.malloc(4);
  sim::LaunchResult fits = device.launch(*module, "k", {4, 1, 1}, {1024, 1, 1}, 0, KernelArgs().add(out), false,
                                         {4, 1, 1}, false);
  EXPECT_FALSE(fits.error) << fits.error.message;
  sim::LaunchResult refused = device.launch(*module, "k", {8, 1, 1}, {1024, 1, 1}, 0, KernelArgs().add(out),
                                            false, {8, 1, 1}, false);
  ASSERT_EQ(refused.error.kind, sim::LaunchErrorKind::InvalidClusterSize) << refused.error.message;
  EXPECT_NE(refused.error.message.find("does not fit the SMs of any GPC"), std::string::npos)
      << refused.error.message;
}

}  // namespace
}  // namespace ptxsim
