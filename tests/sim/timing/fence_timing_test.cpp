// Memory fences under the timing model (sim/src/timing/fence_cost.h): a
// fence holds the warp until its earlier accesses are done and then for
// its MEMBAR's time (FenceTiming, by scope); an mbarrier arrival that
// releases at cluster scope carries the cluster's MEMBAR; proxy fences and
// relaxed arrivals carry none.

#include <gtest/gtest.h>

#include <string>

#include "../cluster_support.h"

namespace ptxsim {
namespace {

using test::clusterKernel;
using test::ClusterLaunch;
using test::ClusterRun;
using test::runCluster;

sim::GpuConfig withFences(uint32_t cta, uint32_t cluster, uint32_t gpu, uint32_t sys) {
  sim::GpuConfig config;
  config.timing.fence = {cta, cluster, gpu, sys};
  return config;
}

// Cycles thread 0 of rank `rank` spends on `count` repetitions of
// `instruction` (clock64 around them), in a cluster of two CTAs.
uint64_t cyclesOf(const std::string& instruction, unsigned count, const sim::GpuConfig& config, unsigned rank = 0) {
  std::string body = "mov.u32 %r, %cluster_ctarank;\nmov.u32 %a, bar;\n"
                     "setp.eq.u32 %p, %tx, 0;\n"
                     "@%p mbarrier.init.shared::cta.b64 [%a], 1000;\n"
                     "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                     "xor.b32 %w, %r, 1;\nmapa.shared::cluster.u32 %w, %a, %w;\n"
                     "mov.u64 %t0, %clock64;\n";
  for (unsigned i = 0; i < count; ++i) body += instruction + "\n";
  body += "mov.u64 %t1, %clock64;\nsub.u64 %t1, %t1, %t0;\n"
          "setp.eq.u32 %q, %r, " + std::to_string(rank) + ";\nand.pred %q, %q, %p;\n"
          "@%q st.global.u64 [%out], %t1;\n"
          "barrier.cluster.arrive;\nbarrier.cluster.wait;";
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  l.timing = true;
  l.config = config;
  ClusterRun run = runCluster(clusterKernel(".shared .align 8 .b64 bar;\n.reg .u64 %t0, %t1;", body), l, 2);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  return run.out[0] | uint64_t{run.out[1]} << 32;
}

TEST(FenceTiming, AFenceHoldsTheWarpForItsScopesTime) {
  const sim::GpuConfig none = withFences(0, 0, 0, 0);
  const sim::GpuConfig costly = withFences(20, 150, 400, 900);
  struct Form {
    const char* instruction;
    uint32_t cycles;
  };
  for (const Form& f : {Form{"fence.acq_rel.gpu;", 400}, Form{"fence.sc.gpu;", 400}, Form{"membar.gl;", 400},
                        Form{"fence.acq_rel.cta;", 20}, Form{"membar.cta;", 20}, Form{"fence.acq_rel.cluster;", 150},
                        Form{"membar.sys;", 900}, Form{"fence.sc.sys;", 900}}) {
    const uint64_t base = cyclesOf(f.instruction, 8, none);
    const uint64_t fenced = cyclesOf(f.instruction, 8, costly);
    // Each of the 8 fences adds its MEMBAR's time, give or take an issue
    // cycle (the MEMBAR starts as the warp reaches it).
    EXPECT_GE(fenced - base, 8u * (f.cycles - 1)) << f.instruction;
    EXPECT_LE(fenced - base, 8u * f.cycles + 16) << f.instruction;
  }
}

TEST(FenceTiming, ProxyFencesCarryNoMembar) {
  const sim::GpuConfig costly = withFences(20, 150, 400, 900);
  for (const char* instruction : {"fence.proxy.async.shared::cta;", "fence.proxy.alias;"}) {
    EXPECT_EQ(cyclesOf(instruction, 8, costly), cyclesOf(instruction, 8, withFences(0, 0, 0, 0))) << instruction;
  }
}

TEST(FenceTiming, AClusterScopeReleaseArrivalCarriesTheClustersMembar) {
  const sim::GpuConfig none = withFences(0, 0, 0, 0);
  const sim::GpuConfig costly = withFences(20, 150, 400, 900);
  const std::string release = "@%p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%w];";
  const uint64_t added = cyclesOf(release, 4, costly, 1) - cyclesOf(release, 4, none, 1);
  EXPECT_GE(added, 4u * (150 - 1));
  EXPECT_LE(added, 4u * 150 + 16);
  // A relaxed arrival, or one releasing at CTA scope on the CTA's own
  // mbarrier, orders nothing beyond the CTA: no MEMBAR.
  for (const std::string other : {std::string("@%p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%w];"),
                                  std::string("@%p mbarrier.arrive.release.cta.shared::cta.b64 _, [%a];")}) {
    EXPECT_EQ(cyclesOf(other, 4, costly, 1), cyclesOf(other, 4, none, 1)) << other;
  }
}

}  // namespace
}  // namespace ptxsim
