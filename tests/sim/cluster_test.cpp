// Thread block clusters: the cluster special registers, barrier.cluster
// across the cluster's CTAs, distributed shared memory (mapa and loads,
// stores and atomics through .shared::cluster and generic addresses),
// faults for ranks and offsets outside the cluster, the deadlock report
// of a cluster barrier one CTA never reaches, and results that do not
// depend on the host thread count.

#include <gtest/gtest.h>

#include "cluster_support.h"

namespace ptxsim {
namespace {

using test::clusterKernel;
using test::ClusterLaunch;
using test::ClusterRun;
using test::runCluster;

// Thread 0 of each CTA writes 15 registers to out[16 * %lin + i].
const char* const kSpecialsBody =
    "setp.ne.u32 %p, %tx, 0;\n"
    "@%p bra DONE;\n"
    "mul.wide.u32 %o, %lin, 64;\n"
    "add.u64 %o, %out, %o;\n"
    "mov.u32 %v, %cluster_ctarank;   st.global.u32 [%o+0], %v;\n"
    "mov.u32 %v, %cluster_nctarank;  st.global.u32 [%o+4], %v;\n"
    "mov.u32 %v, %clusterid.x;       st.global.u32 [%o+8], %v;\n"
    "mov.u32 %v, %clusterid.y;       st.global.u32 [%o+12], %v;\n"
    "mov.u32 %v, %clusterid.z;       st.global.u32 [%o+16], %v;\n"
    "mov.u32 %v, %nclusterid.x;      st.global.u32 [%o+20], %v;\n"
    "mov.u32 %v, %nclusterid.y;      st.global.u32 [%o+24], %v;\n"
    "mov.u32 %v, %nclusterid.z;      st.global.u32 [%o+28], %v;\n"
    "mov.u32 %v, %cluster_ctaid.x;   st.global.u32 [%o+32], %v;\n"
    "mov.u32 %v, %cluster_ctaid.y;   st.global.u32 [%o+36], %v;\n"
    "mov.u32 %v, %cluster_ctaid.z;   st.global.u32 [%o+40], %v;\n"
    "mov.u32 %v, %cluster_nctaid.x;  st.global.u32 [%o+44], %v;\n"
    "mov.u32 %v, %cluster_nctaid.y;  st.global.u32 [%o+48], %v;\n"
    "mov.u32 %v, %cluster_nctaid.z;  st.global.u32 [%o+52], %v;\n"
    "mov.pred %q, %is_explicit_cluster;\n"
    "selp.u32 %v, 1, 0, %q;          st.global.u32 [%o+56], %v;\n"
    "DONE:";

// What the registers must read for CTA (x,y,z) of `grid` in clusters `c`.
std::vector<uint32_t> expectedSpecials(sim::Dim3 grid, sim::Dim3 c, bool explicitCluster) {
  std::vector<uint32_t> out(16 * grid.count(), 0);
  for (uint32_t z = 0; z < grid.z; ++z) {
    for (uint32_t y = 0; y < grid.y; ++y) {
      for (uint32_t x = 0; x < grid.x; ++x) {
        uint32_t* o = &out[16 * (x + grid.x * (y + grid.y * z))];
        uint32_t px = x % c.x, py = y % c.y, pz = z % c.z;
        o[0] = px + c.x * (py + c.y * pz);
        o[1] = c.x * c.y * c.z;
        o[2] = x / c.x, o[3] = y / c.y, o[4] = z / c.z;
        o[5] = grid.x / c.x, o[6] = grid.y / c.y, o[7] = grid.z / c.z;
        o[8] = px, o[9] = py, o[10] = pz;
        o[11] = c.x, o[12] = c.y, o[13] = c.z;
        o[14] = explicitCluster ? 1 : 0;
      }
    }
  }
  return out;
}

TEST(Cluster, SpecialRegistersDescribeTheLaunchedClusters) {
  ClusterLaunch l;
  l.grid = {4, 2, 2};
  l.cluster = {2, 2, 1};
  ClusterRun run = runCluster(clusterKernel("", kSpecialsBody), l, 16 * 16);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, expectedSpecials(l.grid, l.cluster, true));
}

TEST(Cluster, WithoutClustersEachCtaIsAClusterOfOneThatIsNotExplicit) {
  ClusterLaunch l;
  l.grid = {3, 2, 1};
  ClusterRun run = runCluster(clusterKernel("", kSpecialsBody), l, 16 * 6);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, expectedSpecials(l.grid, {1, 1, 1}, false));
}

TEST(Cluster, KernelDirectiveGivesTheClusterShapeWithoutAnAttribute) {
  ClusterLaunch l;
  l.grid = {4, 2, 1};
  ClusterRun run =
      runCluster(clusterKernel("", kSpecialsBody, ".explicitcluster\n.reqnctapercluster 2, 1, 1"), l, 16 * 8);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, expectedSpecials(l.grid, {2, 1, 1}, true));
}

// Each thread stores rank*1000+tid into its CTA's s[tid]; after the
// cluster barrier it reads the next rank's s[tid] through mapa; a second
// barrier keeps every CTA alive until all have read. Without a working
// barrier rank 0 (which runs first) reads zeros.
const char* const kNeighbourBody =
    "mov.u32 %r, %cluster_ctarank;\n"
    "mov.u32 %w, %cluster_nctarank;\n"
    "mov.u32 %a, s;\n"
    "mad.lo.u32 %a, %tx, 4, %a;\n"
    "mad.lo.u32 %v, %r, 1000, %tx;\n"
    "st.shared.u32 [%a], %v;\n"
    "barrier.cluster.arrive.release.aligned;\n"
    "barrier.cluster.wait.acquire.aligned;\n"
    "add.u32 %r, %r, 1;\n"
    "rem.u32 %r, %r, %w;\n"
    "mapa.shared::cluster.u32 %a, %a, %r;\n"
    "ld.shared::cluster.u32 %v, [%a];\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;\n"
    "mov.u32 %w, %ntid.x;\n"
    "mad.lo.u32 %w, %lin, %w, %tx;\n"
    "mul.wide.u32 %o, %w, 4;\n"
    "add.u64 %o, %out, %o;\n"
    "st.global.u32 [%o], %v;";

std::vector<uint32_t> expectedNeighbours(sim::Dim3 grid, sim::Dim3 c, uint32_t threads) {
  std::vector<uint32_t> out;
  for (uint64_t cta = 0; cta < grid.count(); ++cta) {
    uint32_t x = cta % grid.x, y = cta / grid.x % grid.y, z = static_cast<uint32_t>(cta / (grid.x * grid.y));
    uint32_t rank = x % c.x + c.x * (y % c.y + c.y * (z % c.z));
    uint32_t next = (rank + 1) % (c.x * c.y * c.z);
    for (uint32_t t = 0; t < threads; ++t) out.push_back(next * 1000 + t);
  }
  return out;
}

TEST(Cluster, BarrierOrdersSharedStoresBeforeOtherCtasReadThem) {
  std::string ptx = clusterKernel(".shared .align 4 .b32 s[96];", kNeighbourBody);
  for (sim::Dim3 cluster : {sim::Dim3{2, 1, 1}, sim::Dim3{2, 2, 1}, sim::Dim3{8, 1, 1}}) {
    SCOPED_TRACE("cluster of " + std::to_string(cluster.count()));
    ClusterLaunch l;
    l.grid = {8, 2, 1};
    l.block = {96, 1, 1};
    l.cluster = cluster;
    ClusterRun run = runCluster(ptx, l, 16 * 96);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    EXPECT_EQ(run.out, expectedNeighbours(l.grid, cluster, 96));
    EXPECT_EQ(run.result.stats.barriers, 16u * 3 * 2);  // two arrivals per warp; waits are not counted
  }
}

TEST(Cluster, ResultsAndStatisticsDoNotDependOnHostThreads) {
  std::string ptx = clusterKernel(".shared .align 4 .b32 s[64];", kNeighbourBody);
  ClusterLaunch l;
  l.grid = {16, 1, 1};
  l.block = {64, 1, 1};
  l.cluster = {4, 1, 1};
  ClusterRun one = runCluster(ptx, l, 16 * 64);
  l.hostThreads = 3;
  ClusterRun three = runCluster(ptx, l, 16 * 64);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  ASSERT_FALSE(three.result.error) << three.result.error.message;
  EXPECT_EQ(one.out, expectedNeighbours(l.grid, l.cluster, 64));
  EXPECT_EQ(one.out, three.out);
  EXPECT_EQ(one.result.stats.warpInstructions, three.result.stats.warpInstructions);
  EXPECT_EQ(one.result.stats.barriers, three.result.stats.barriers);
}

TEST(Cluster, CooperativeLaunchOfClustersWorksToo) {
  ClusterLaunch l;
  l.grid = {8, 1, 1};
  l.block = {64, 1, 1};
  l.cluster = {4, 1, 1};
  l.cooperative = true;
  ClusterRun run = runCluster(clusterKernel(".shared .align 4 .b32 s[64];", kNeighbourBody), l, 8 * 64);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, expectedNeighbours(l.grid, l.cluster, 64));
}

// Atomics into other CTAs: every thread adds 1 into rank 0's counter through
// a .shared::cluster address, and its tid into the last rank's total
// through a generic address from mapa; getctarank and isspacep see where
// the addresses point. Thread 0 of each CTA reports.
const char* const kAtomicsBody =
    "setp.ne.u32 %p, %tx, 0;\n"
    "@%p bra ZEROED;\n"
    "st.shared.u32 [counter], 0;\n"
    "st.shared.u32 [total], 0;\n"
    "ZEROED:\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;\n"
    "mov.u32 %a, counter;\n"
    "mapa.shared::cluster.u32 %a, %a, 0;\n"
    "atom.shared::cluster.add.u32 %v, [%a], 1;\n"
    "mov.u32 %w, %cluster_nctarank;\n"
    "sub.u32 %w, %w, 1;\n"
    "cvta.shared.u64 %g, total;\n"
    "mapa.u64 %gr, %g, %w;\n"
    "red.add.u32 [%gr], %tx;\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;\n"
    "@%p bra DONE;\n"
    "mul.wide.u32 %o, %lin, 24;\n"
    "add.u64 %o, %out, %o;\n"
    "ld.shared.u32 %v, [counter];\n"
    "st.global.u32 [%o], %v;\n"
    "ld.u32 %v, [%g];\n"  // generic, own shared memory
    "st.global.u32 [%o+4], %v;\n"
    "getctarank.u64 %v, %gr;\n"
    "st.global.u32 [%o+8], %v;\n"
    "getctarank.shared::cluster.u32 %v, %a;\n"
    "st.global.u32 [%o+12], %v;\n"
    "isspacep.shared::cluster %q, %gr;\n"
    "selp.u32 %v, 1, 0, %q;\n"
    "isspacep.shared %q, %gr;\n"
    "selp.u32 %r, 2, 0, %q;\n"
    "add.u32 %v, %v, %r;\n"
    "isspacep.shared %q, %g;\n"
    "selp.u32 %r, 4, 0, %q;\n"
    "add.u32 %v, %v, %r;\n"
    "st.global.u32 [%o+16], %v;\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;\n"
    "DONE:\n"
    "@%p barrier.cluster.arrive;\n"
    "@%p barrier.cluster.wait;";

TEST(Cluster, AtomicsReachOtherCtasThroughClusterAndGenericAddresses) {
  ClusterLaunch l;
  l.grid = {6, 1, 1};
  l.block = {64, 1, 1};
  l.cluster = {3, 1, 1};
  ClusterRun run = runCluster(
      clusterKernel(".shared .align 4 .b32 counter;\n.shared .align 4 .b32 total;", kAtomicsBody), l, 6 * 6);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (uint32_t cta = 0; cta < 6; ++cta) {
    SCOPED_TRACE("block " + std::to_string(cta));
    uint32_t rank = cta % 3;
    const uint32_t* o = &run.out[6 * cta];
    EXPECT_EQ(o[0], rank == 0 ? 3u * 64 : 0u);             // every thread of the cluster added 1
    EXPECT_EQ(o[1], rank == 2 ? 3u * (63 * 64 / 2) : 0u);  // and its tid
    EXPECT_EQ(o[2], 2u);                                   // the generic address names rank 2
    EXPECT_EQ(o[3], 0u);                                   // the .shared::cluster one rank 0
    // In the cluster's window; in the CTA's own (.shared::cta) window only
    // where it is its own; its own generic address always is.
    EXPECT_EQ(o[4], 1u + 4u);
  }
}

// A guarded barrier.cluster would be undefined: the kernel above keeps it
// converged. Exited threads count as arrived (the ISA: "non-exited
// threads"), so rank 1 exiting at once does not hold rank 0 back.
TEST(Cluster, ExitedThreadsCountAsArrived) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  ClusterRun run = runCluster(clusterKernel("",
                                            "mov.u32 %r, %cluster_ctarank;\n"
                                            "setp.ne.u32 %p, %r, 0;\n"
                                            "@%p bra DONE;\n"
                                            "barrier.cluster.arrive;\n"
                                            "barrier.cluster.wait;\n"
                                            "st.global.u32 [%out], 7;\n"
                                            "DONE:"),
                              l, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 7u);
}

TEST(Cluster, BarrierOneCtaNeverReachesIsADeadlockNamingTheWait) {
  // Rank 1 spins on a shared flag nobody sets; rank 0 waits at the barrier.
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  ClusterRun run = runCluster(clusterKernel(".shared .align 4 .b32 flag;",
                                            "mov.u32 %r, %cluster_ctarank;\n"
                                            "setp.eq.u32 %p, %r, 0;\n"
                                            "@%p bra WAIT;\n"
                                            "SPIN:\n"
                                            "ld.volatile.shared.u32 %v, [flag];\n"
                                            "setp.eq.u32 %q, %v, 0;\n"
                                            "@%q bra SPIN;\n"
                                            "WAIT:\n"
                                            "barrier.cluster.arrive;\n"
                                            "barrier.cluster.wait;"),
                              l, 1);
  ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::Deadlock) << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("barrier.cluster.wait"), std::string::npos)
      << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("block (0,0,0)"), std::string::npos) << run.result.error.message;
}

TEST(Cluster, WaitWithoutArriveFailsWithItsLocation) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  ClusterRun run = runCluster(clusterKernel("", "barrier.cluster.wait;"), l, 1);
  ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalInstruction) << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("have not arrived"), std::string::npos) << run.result.error.message;
}

// Faults: a rank outside the cluster (mapa, or an address made by hand), an
// offset past the target's shared memory, and a CTA that has exited.
std::string faultOf(const std::string& declarations, const std::string& body, sim::Dim3 cluster) {
  ClusterLaunch l;
  l.grid = {cluster.x * 2, 1, 1};
  l.cluster = cluster;
  ClusterRun run = runCluster(clusterKernel(declarations, body), l, 1);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalAddress) << run.result.error.message;
  return run.result.error.message;
}

TEST(Cluster, OutOfRangeRanksAndOffsetsFaultWithClearMessages) {
  std::string mapa = faultOf(
      ".shared .align 4 .b32 s[4];",
      "mov.u32 %a, s;\nmapa.shared::cluster.u32 %a, %a, 2;\nld.shared::cluster.u32 %v, [%a];", {2, 1, 1});
  EXPECT_NE(mapa.find("mapa to rank 2 of a cluster of 2 blocks"), std::string::npos) << mapa;
  // Slot 1 + 5 of the window: rank 5 (memory/cluster_shared_address.h).
  std::string rank = faultOf(".shared .align 4 .b32 s[4];",
                             "mov.u32 %a, 100663296;\nld.shared::cluster.u32 %v, [%a];", {2, 1, 1});
  EXPECT_NE(rank.find("rank 5, outside the cluster of 2 blocks"), std::string::npos) << rank;
  std::string offset = faultOf(".shared .align 4 .b32 s[4];",
                               "mov.u32 %a, s;\nmapa.shared::cluster.u32 %a, %a, 1;\n"
                               "ld.shared::cluster.u32 %v, [%a+64];",
                               {2, 1, 1});
  EXPECT_NE(offset.find("out of bounds of the 16-byte shared memory of rank 1"), std::string::npos) << offset;
  std::string exited = faultOf(test::kPeerWordsDeclaration, test::kReadExitedPeerBody, {2, 1, 1});
  EXPECT_NE(exited.find("which has exited"), std::string::npos) << exited;
}

// An mbarrier in rank 0's shared memory completes with an arrival from
// rank 1 through a .shared::cluster address (mbarrier.arrive.shared::cluster).
TEST(Cluster, RemoteMbarrierArriveCompletesThePhase) {
  ClusterLaunch l;
  l.grid = {2, 1, 1};
  l.cluster = {2, 1, 1};
  ClusterRun run = runCluster(clusterKernel(test::kRemoteBarrierDeclaration, test::kRemoteMbarrierArriveBody), l, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 1u);
}

}  // namespace
}  // namespace ptxsim
