// The texture path and cp.async end to end under the timing driver, each
// against cycles derived by hand from the H100 preset: a texture fetch that
// misses the L1 costs the L2's latency, the same texels again an L1 hit,
// both the texture pipeline's cycles (tex.latency) above a load; a cp.async
// waited for with wait_group 0 costs what a load does, and holds no
// independent instruction back.
#include <gtest/gtest.h>

#include <cstdlib>

#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"
#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/l2_cache.h"
#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/texture_objects.h"
#include "timed_run.h"

namespace ptxsim {
namespace {

using test::runTimed;
using test::TimedRun;

// The cycles an L1 miss that hits in the L2 takes beyond an L1 hit, for a
// one-sector access to `address` from SM 0: one cycle on the slice's port
// and the partition's latency, in place of the L1's 32 cycles.
uint64_t l2HitOverL1Hit(uint64_t address) {
  sim::GpuConfig config;
  memory::Hbm dram(config.timing.dram);
  memory::L2Cache cache(config.timing.l2, dram);
  bool near = cache.partitionOf(cache.sliceOf(address & ~uint64_t{127})) == 0;
  return 1 + (near ? config.timing.l2.nearLatencyCycles : config.timing.l2.farLatencyCycles) -
         config.timing.l1.hitLatencyCycles;
}

// One thread stores word 0 of a float buffer (the L2 allocates its sector,
// the L1 does not) and waits for it; then it times, each up to an add that
// uses its result, two fetches of texel 0 (`fetch`, after `setup`), then
// two loads of word 64 (in DRAM at first). out[0..3]: the fetches' cycles,
// the loads'.
class TextureTiming : public ::testing::Test {
 protected:
  Device device{sim::GpuConfig{}, DeviceOptions{1}};
  uint64_t buffer = 0;

  std::vector<uint64_t> run(const std::string& setup, const std::string& fetch, bool linear,
                            sim::LaunchResult& result) {
    device.launchOptions().timing = true;
    buffer = device.malloc(4096);
    device.memset(buffer, 0, 4096);
    sim::TextureObject t;
    if (linear) {
      t.resource.kind = sim::ResourceKind::Linear;
      t.resource.sizeInBytes = 4096;
    } else {
      t.resource.kind = sim::ResourceKind::Pitch2D;
      t.resource.width = 32;
      t.resource.height = 32;
      t.resource.pitchInBytes = 128;
      t.desc.filterMode = sim::FilterMode::Linear;
    }
    t.resource.devPtr = buffer;
    t.resource.format = sim::ElementFormat{1, 32, sim::ChannelKind::Float};
    uint64_t handle = device.gpu().textures().createTexture(std::move(t));
    std::string body =
        "ld.global.u64 %h, [%in];\nld.global.u64 %b, [%in+8];\nst.global.cg.f32 [%b], 0f00000000;\nmembar.gl;\n" + setup +
        "mov.f32 %u, 0f3F800000;\nmov.u64 %t0, %clock64;\n" + fetch + "add.f32 %u, %g0, %u;\nmov.u64 %t1, %clock64;\n" + fetch +
        "add.f32 %u, %g0, %u;\nmov.u64 %t2, %clock64;\n"
        "ld.global.ca.f32 %g0, [%b+256];\nadd.f32 %u, %g0, %u;\nmov.u64 %t3, %clock64;\n"
        "ld.global.ca.f32 %g0, [%b+256];\nadd.f32 %u, %g0, %u;\nmov.u64 %t4, %clock64;\n"
        "sub.u64 %t4, %t4, %t3;\nsub.u64 %t3, %t3, %t2;\nsub.u64 %t2, %t2, %t1;\nsub.u64 %t1, %t1, %t0;\n"
        "st.global.u64 [%out], %t1;\nst.global.u64 [%out+8], %t2;\nst.global.u64 [%out+16], %t3;\n"
        "st.global.u64 [%out+24], %t4;\nst.global.f32 [%out+32], %u;\n";
    std::string ptx = test::ptxKernel(
        ".reg .u64 %h, %b, %t0, %t1, %t2, %t3, %t4; .reg .b32 %c; .reg .f32 %g0, %g1, %g2, %g3, %u, %x, %y;",
        body);
    auto module = device.loadModule(ptx, "test.ptx");
    uint64_t in = device.malloc(16);
    device.write(in, std::vector<uint64_t>{handle, buffer});
    uint64_t out = device.malloc(64);
    device.memset(out, 0, 64);
    result = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(in).add(out));
    return device.read<uint64_t>(out, 5);
  }
};

const char* kFetch1D = "tex.1d.v4.f32.s32 {%g0, %g1, %g2, %g3}, [%h, {%c}];\n";

TEST_F(TextureTiming, AFetchMissingTheL1CostsTheL2sLatencyAndASecondHits) {
  sim::LaunchResult result;
  std::vector<uint64_t> out = run("mov.b32 %c, 0;\n", kFetch1D, true, result);
  ASSERT_FALSE(result.error) << result.error.message;
  EXPECT_EQ(out[0] - out[1], l2HitOverL1Hit(buffer));
  EXPECT_EQ(result.stats.timing.l1TextureRequests, 2u);
  EXPECT_EQ(result.stats.timing.l1TextureSectors, 2u);
  EXPECT_EQ(out[4], 0x3F800000u);  // 1.0f: 0 fetched twice and loaded twice, plus 1
}

TEST_F(TextureTiming, AFetchCostsTheTexturePipelinesCyclesAboveALoad) {
  sim::LaunchResult result;
  std::vector<uint64_t> out = run("mov.b32 %c, 0;\n", kFetch1D, true, result);
  ASSERT_FALSE(result.error) << result.error.message;
  // The fetch hit and the load hit are timed alike: they differ by the
  // texture pipeline's own cycles.
  EXPECT_EQ(out[1] - out[3], sim::GpuConfig{}.timing.texture.latencyCycles);
}

TEST_F(TextureTiming, ABilinearFetchReadsItsFootprintsSectors) {
  sim::LaunchResult result;
  // At (1.0, 1.0) in texel units a bilinear fetch reads texels (0,0),
  // (1,0), (0,1), (1,1): rows 0 and 1, 128 bytes apart, two lines of one
  // sector each.
  run("mov.f32 %x, 0f3F800000;\nmov.f32 %y, 0f3F800000;\n",
      "tex.2d.v4.f32.f32 {%g0, %g1, %g2, %g3}, [%h, {%x, %y}];\n", false, result);
  ASSERT_FALSE(result.error) << result.error.message;
  EXPECT_EQ(result.stats.timing.l1TextureSectors, 4u);  // two fetches of 2 sectors
  EXPECT_EQ(result.stats.timing.l1TextureRequests, 2u);
}

// cp.async of 16 bytes per thread into shared memory, committed and waited
// for; `between` runs after the commit. Each kernel runs twice, timed the
// second time, its code in the instruction caches.
std::string copyKernel(const std::string& op, const std::string& between, const std::string& wait) {
  std::string body =
      ".shared .align 16 .b8 s[512];\nmov.u64 %s, s;\n"
      "st.global.cg.u32 [%out+64], %tx;\nmembar.gl;\n"
      "mov.u64 %t0, %clock64;\n" + op + " [%s], [%out+64], 16;\ncp.async.commit_group;\n" + between + wait +
      "\nld.shared.u32 %v, [%s];\nmov.u64 %t1, %clock64;\nsub.u64 %t1, %t1, %t0;\n"
      "st.global.u64 [%out], %t1;\ncvt.u64.u32 %w, %v;\nst.global.u64 [%out+8], %w;\n";
  return test::ptxKernel(".reg .u64 %s, %t0, %t1, %w; .reg .u32 %v; .reg .f32 %f;", body);
}

std::string loadKernel() {
  std::string body =
      ".shared .align 16 .b8 s[512];\nmov.u64 %s, s;\n"
      "st.global.cg.u32 [%out+64], %tx;\nmembar.gl;\n"
      "mov.u64 %t0, %clock64;\nld.global.cg.u32 %v, [%out+64];\nst.shared.u32 [%s], %v;\n"
      "ld.shared.u32 %v, [%s];\nmov.u64 %t1, %clock64;\nsub.u64 %t1, %t1, %t0;\n"
      "st.global.u64 [%out], %t1;\ncvt.u64.u32 %w, %v;\nst.global.u64 [%out+8], %w;\n";
  return test::ptxKernel(".reg .u64 %s, %t0, %t1, %w; .reg .u32 %v; .reg .f32 %f;", body);
}

size_t reason(sim::StallReason r) { return static_cast<size_t>(r); }

TEST(AsyncCopyTiming, ACopyWaitedForCostsAboutAGlobalLoad) {
  TimedRun copy = runTimed(copyKernel("cp.async.cg.shared.global", "", "cp.async.wait_group 0;"), 16, 1, true, "gto", 1, 1, 2);
  TimedRun load = runTimed(loadKernel(), 16, 1, true, "gto", 1, 1, 2);
  ASSERT_FALSE(copy.result.error) << copy.result.error.message;
  ASSERT_FALSE(load.result.error) << load.result.error.message;
  EXPECT_EQ(copy.out[1], 0u);  // thread 0's word, copied at issue as before
  // The copy's L2 round trip (an L1 bypass, like ld.cg) where the load had
  // its own; the load then stores to shared memory, the copy does not, but
  // the copy adds a commit and a wait: within a few cycles of each other.
  int64_t difference = static_cast<int64_t>(copy.out[0]) - static_cast<int64_t>(load.out[0]);
  EXPECT_LE(std::abs(difference), 30) << copy.out[0] << " vs " << load.out[0];
  EXPECT_GT(copy.out[0], 250u);  // it did wait for the L2
  EXPECT_GT(copy.result.stats.timing.stallWarpCycles[reason(sim::StallReason::LongScoreboard)], 200u);
  EXPECT_EQ(copy.result.stats.timing.l1LdgstsRequests, 1u);
  EXPECT_EQ(copy.result.stats.timing.l1LdgstsSectors, 1u);
}

TEST(AsyncCopyTiming, WaitAllWaitsLikeWaitGroupZero) {
  TimedRun group = runTimed(copyKernel("cp.async.ca.shared.global", "", "cp.async.wait_group 0;"), 16, 1, true, "gto", 1, 1, 2);
  TimedRun all = runTimed(copyKernel("cp.async.ca.shared.global", "", "cp.async.wait_all;"), 16, 1, true, "gto", 1, 1, 2);
  ASSERT_FALSE(group.result.error) << group.result.error.message;
  ASSERT_FALSE(all.result.error) << all.result.error.message;
  EXPECT_EQ(group.out[0], all.out[0]);
  EXPECT_GT(all.out[0], 250u);
}

TEST(AsyncCopyTiming, ACopyDoesNotHoldIndependentInstructionsBack) {
  // 64 dependent adds (256 cycles at 4 each) between the commit and the
  // wait overlap the copy's ~300 cycles: the whole takes about as long as
  // the copy alone, not the sum.
  std::string adds = "mov.f32 %f, 0f3F800000;\n";
  for (int i = 0; i < 64; ++i) adds += "add.f32 %f, %f, 0f3F800000;\n";
  TimedRun alone = runTimed(copyKernel("cp.async.cg.shared.global", "", "cp.async.wait_group 0;"), 16, 1, true, "gto", 1, 1, 2);
  TimedRun overlapped =
      runTimed(copyKernel("cp.async.cg.shared.global", adds, "cp.async.wait_group 0;"), 16, 1, true, "gto", 1, 1, 2);
  ASSERT_FALSE(overlapped.result.error) << overlapped.result.error.message;
  EXPECT_LT(overlapped.out[0], alone.out[0] + 64u);
  EXPECT_GE(overlapped.out[0], 4u * 64u);
}

TEST(AsyncCopyTiming, WaitGroupOneLeavesTheNewestGroupInFlight) {
  // Two groups: the first copy, then 64 adds, then the second copy. wait_group 1
  // waits only for the first, which has landed by the time the adds are done; wait_group
  // 0 waits for the second's round trip too.
  std::string adds = "mov.f32 %f, 0f3F800000;\n";
  for (int i = 0; i < 80; ++i) adds += "add.f32 %f, %f, 0f3F800000;\n";
  std::string second = adds + "cp.async.cg.shared.global [%s+16], [%out+80], 16;\ncp.async.commit_group;\n";
  TimedRun one = runTimed(copyKernel("cp.async.cg.shared.global", second, "cp.async.wait_group 1;"), 16, 1, true, "gto", 1, 1, 2);
  TimedRun zero = runTimed(copyKernel("cp.async.cg.shared.global", second, "cp.async.wait_group 0;"), 16, 1, true, "gto", 1, 1, 2);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  ASSERT_FALSE(zero.result.error) << zero.result.error.message;
  // The adds end about 320 cycles in, after the first copy landed: wait_group 1 costs nothing more.
  EXPECT_LT(one.out[0], 4u * 80u + 60u);
  EXPECT_GT(zero.out[0], one.out[0] + 200u);
}

}  // namespace
}  // namespace ptxsim
