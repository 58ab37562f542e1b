// CTA barriers: bar.sync orders shared-memory traffic between warps,
// bar.red reduces predicates over the block, named barriers with thread
// counts, and a barrier that can never complete is a deadlock report, not a
// hang.

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

TEST(Barrier, BarSyncMakesOtherWarpsSharedWritesVisible) {
  // 128 threads: each writes its id to shared[t], syncs, then reads
  // shared[127 - t] (written by another warp).
  std::string ptx = test::ptxKernel(".shared .align 4 .b32 s[128]; .reg .u32 %a, %b, %v; .reg .u64 %o;",
                                    "mov.u32 %a, s;\n"
                                    "mad.lo.u32 %a, %tx, 4, %a;\n"
                                    "st.shared.u32 [%a], %tx;\n"
                                    "bar.sync 0;\n"
                                    "sub.u32 %b, 127, %tx;\n"
                                    "mov.u32 %a, s;\n"
                                    "mad.lo.u32 %a, %b, 4, %a;\n"
                                    "ld.shared.u32 %v, [%a];\n"
                                    "add.u64 %o, %out, %tx8;\n"
                                    "st.global.u32 [%o], %v;");
  test::KernelRun run = test::runKernel(ptx, {}, 128, 128);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 128; ++t) EXPECT_EQ(run.out[t], 127u - t) << t;
  EXPECT_EQ(run.result.stats.barriers, 4u);  // one per warp
}

TEST(Barrier, BarRedPopcCountsPredicatesOverTheBlock) {
  // Predicate: t is odd or t < 10. Over 96 threads: 48 odd + 5 even below 10.
  std::string ptx = test::ptxKernel(".reg .u32 %c, %v; .reg .pred %p, %q, %r; .reg .u64 %o;",
                                    "setp.lt.u32 %q, %tx, 10;\n"
                                    "sub.u32 %v, %tx, 1;\n"
                                    "mul.lo.u32 %v, %v, 2147483648;\n"
                                    "setp.eq.u32 %r, %v, 0;\n"  // (t-1)*2^31 == 0 <=> t odd
                                    "setp.eq.or.u32 %p, %v, 0, %q;\n"
                                    "bar.red.popc.u32 %c, 0, %p;\n"
                                    "bar.red.and.pred %r, 0, %p;\n"
                                    "selp.u32 %v, 1, 0, %r;\n"
                                    "add.u32 %c, %c, %v;\n"
                                    "add.u64 %o, %out, %tx8;\n"
                                    "st.global.u32 [%o], %c;");
  test::KernelRun run = test::runKernel(ptx, {}, 96, 96);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 96; ++t) EXPECT_EQ(run.out[t], 53u) << t;  // and-reduction is false: +0
}

TEST(Barrier, ABarrierThatCannotCompleteIsADeadlockNamingTheWarps) {
  // Warp 0 waits on barrier 1 for 64 threads; warp 1 never arrives.
  std::string ptx = test::ptxKernel(".reg .pred %p;",
                                    "setp.ge.u32 %p, %tx, 32;\n"
                                    "@%p bra DONE;\n"
                                    "bar.sync 1, 64;\n"
                                    "DONE:");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 64);
  ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::Deadlock);
  const std::string& m = run.result.error.message;
  EXPECT_NE(m.find("deadlock"), std::string::npos) << m;
  EXPECT_NE(m.find("warp 0 lanes 0xffffffff at PC 6 (PTX line 15) in k: waiting at a CTA barrier (barrier 1)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("kernel k, block (0,0,0)"), std::string::npos) << m;
}

TEST(Barrier, ExitedWarpsDoNotHoldUpABlockWideBarrier) {
  std::string ptx = test::ptxKernel(".reg .pred %p; .reg .u64 %o;",
                                    "setp.ge.u32 %p, %tx, 32;\n"
                                    "@%p exit;\n"
                                    "bar.sync 0;\n"
                                    "add.u64 %o, %out, %tx8;\n"
                                    "st.global.u64 [%o], 1;");
  test::KernelRun run = test::runKernel(ptx, {}, 96, 96);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 96; ++t) EXPECT_EQ(run.out[t], t < 32 ? 1u : 0u) << t;
}

}  // namespace
}  // namespace ptxsim
