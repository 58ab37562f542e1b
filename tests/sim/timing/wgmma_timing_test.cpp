// wgmma.mma_async under the timing driver, against cycles derived from the
// preset (TensorCoreTiming): a chain of wgmmas into the same accumulators
// costs N / columns-per-cycle a wgmma on each sub-partition's tensor core,
// the accumulators are not waited for between them, one wgmma with its
// commit_group and wait_group 0 costs its tensor-core cycles plus the
// latency, and two warpgroups of a CTA share the four tensor cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "timed_run.h"

namespace ptxsim {
namespace {

using test::runTimed;

// One CTA of `warpgroups` warpgroups; each runs `chain` m64nNk16 f16 wgmmas
// (A and B zeros from shared memory) and waits for them. out[2 warp],
// out[2 warp + 1]: each warp's clock before the first and after
// wait_group 0.
std::string chainKernel(unsigned n, unsigned chain) {
  const unsigned regs = n / 2;
  std::string decl = ".reg .f32 %d<" + std::to_string(regs) + ">;\n.reg .b64 %da, %db, %t0, %t1, %o;\n"
                     ".reg .b32 %base, %w;\n.reg .pred %p;\n.shared .align 1024 .b8 tile[16384];";
  std::string body;
  for (unsigned r = 0; r < regs; ++r) body += "mov.f32 %d" + std::to_string(r) + ", 0f00000000;\n";
  body += "mov.u32 %base, tile;\nshr.u32 %base, %base, 4;\ncvt.u64.u32 %da, %base;\n"
          "or.b64 %da, %da, 0x0000001000080000;\nadd.u64 %db, %da, 256;\nsetp.eq.u32 %p, 1, 1;\n"
          "bar.sync 0;\nwgmma.fence.sync.aligned;\nmov.u64 %t0, %clock64;\n";
  std::string d = "{";
  for (unsigned r = 0; r < regs; ++r) d += (r ? ",%d" : "%d") + std::to_string(r);
  d += "}";
  for (unsigned c = 0; c < chain; ++c)
    body += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32.f16.f16 " + d +
            ", %da, %db, %p, 1, 1, 0, 0;\n";
  body += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nmov.u64 %t1, %clock64;\n"
          "shr.u32 %w, %tx, 5;\nmul.wide.u32 %o, %w, 16;\nadd.u64 %o, %out, %o;\n"
          "st.global.u64 [%o], %t0;\nst.global.u64 [%o+8], %t1;\n";
  return test::ptxKernel(decl, body, "sm_90a");
}

// The CTA's span: from its first warp's first clock to its last warp's last.
uint64_t span(unsigned n, unsigned chain, unsigned warpgroups = 1) {
  test::TimedRun run = runTimed(chainKernel(n, chain), 16, 128 * warpgroups, true);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  uint64_t first = UINT64_MAX, last = 0;
  for (unsigned w = 0; w < 4 * warpgroups; ++w) {
    first = std::min(first, run.out[2 * w]);
    last = std::max(last, run.out[2 * w + 1]);
  }
  return last - first;
}

const sim::TensorCoreTiming kTensor{};

TEST(WgmmaTiming, AChainCostsItsTensorCoreCyclesAWgmma) {
  for (unsigned n : {64u, 128u, 256u}) {
    SCOPED_TRACE("N " + std::to_string(n));
    const double perWgmma = n / kTensor.wgmmaColumnsPerCycle;
    const double measured = (static_cast<double>(span(n, 8)) - static_cast<double>(span(n, 4))) / 4;
    EXPECT_NEAR(measured, perWgmma, 0.5);
  }
}

TEST(WgmmaTiming, OneWgmmaCostsItsCyclesAndTheLatency) {
  const double expected = 128 / kTensor.wgmmaColumnsPerCycle + kTensor.wgmmaLatencyCycles;
  const double measured = static_cast<double>(span(128, 1)) - static_cast<double>(span(128, 0));
  // Give or take the issue slots of the commit and the wait.
  EXPECT_NEAR(measured, expected, 4);
}

TEST(WgmmaTiming, NarrowWgmmasTakeTheOverhead) {
  for (unsigned n : {8u, 32u}) {
    SCOPED_TRACE("N " + std::to_string(n));
    const double measured = (static_cast<double>(span(n, 8)) - static_cast<double>(span(n, 4))) / 4;
    EXPECT_NEAR(measured, kTensor.wgmmaOverheadCycles + n / kTensor.wgmmaOverheadColumnsPerCycle, 0.5);
  }
}

// sm__pipe_tensor_op_gmma_cycles_active: each of the four tensor cores
// busy N / columns-per-cycle cycles a wgmma, over the SMs' active
// sub-partition-cycles.
TEST(WgmmaTiming, TheGmmaPipeCountsItsBusyCycles) {
  test::TimedRun run = runTimed(chainKernel(128, 8), 16, 128, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  const sim::TimedStats& t = run.result.stats.timing;
  const double subPartitionCycles = t.smCyclesActiveAvg * sim::GpuConfig{}.smCount * 4;
  EXPECT_NEAR(t.tensorGmmaPct * subPartitionCycles / 100, 4 * 8 * (128 / kTensor.wgmmaColumnsPerCycle), 0.5);
  EXPECT_DOUBLE_EQ(t.tensorHmmaPct, t.tensorGmmaPct);  // the hmma pipe counts wgmma too
}

TEST(WgmmaTiming, TwoWarpgroupsShareTheTensorCores) {
  const double one = (static_cast<double>(span(128, 8)) - static_cast<double>(span(128, 4))) / 4;
  const double two = (static_cast<double>(span(128, 8, 2)) - static_cast<double>(span(128, 4, 2))) / 4;
  EXPECT_NEAR(two, 2 * one, 1.0);
}

}  // namespace
}  // namespace ptxsim
