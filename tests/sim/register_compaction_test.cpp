// Registers never live together share a row (register_compaction.h): the
// rows a function needs, the cases that must keep a row apart, and values
// a warp computes through shared rows, checked against hand-worked results.
#include <gtest/gtest.h>

#include <string>

#include "../support/one_warp_grid.h"

namespace ptxsim::sim::exec {
namespace {

std::string kernel(const std::string& declarations, const std::string& body) {
  return ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.shared .align 16 .b8 "
         "buf[32];\n" +
         declarations + "\n" + body + "}\n";
}

// Steps warp 0 until it can run no more.
void runWarp(test::OneWarpGrid& run) {
  for (int i = 0; i < 10000 && step(*run.ctx) == StepResult::Executed;) ++i;
  ASSERT_FALSE(run.ctx->aborted);
}

TEST(RegisterCompaction, AChainNeedsTwoRowsWhateverItsLength) {
  // Each value dies where the next is made: %a and %b alternate, but a
  // destination never shares its source's row, so two rows hold the chain,
  // and the stored %x its own third (it is live across the chain).
  test::OneWarpGrid run;
  run.start(kernel(".reg .u32 %x, %v<6>;",
                   "mov.u32 %x, %tid.x;\n"
                   "add.u32 %v0, %x, 1;\n"
                   "add.u32 %v1, %v0, 2;\n"
                   "add.u32 %v2, %v1, 3;\n"
                   "add.u32 %v3, %v2, 4;\n"
                   "add.u32 %v4, %v3, 5;\n"
                   "add.u32 %v5, %v4, %x;\n"
                   "st.shared.u32 [buf], %v5;\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  const PreparedFunction& fn = run.kernel->kernel();
  EXPECT_EQ(fn.declaredRegisterRows, 7u);
  EXPECT_EQ(fn.registerCount, 3u);
  // The dependence rows still name the registers as declared: the timing
  // model's scoreboard sees %v4 (row 5) written by the sixth instruction.
  ASSERT_EQ(fn.writesOf(fn.code[5]).size(), 1u);
  EXPECT_EQ(fn.writesOf(fn.code[5])[0], 5u);
  runWarp(run);
  for (unsigned lane : {0u, 7u, 31u}) EXPECT_EQ(run.registerValue(6, lane), 2 * lane + 15);
}

TEST(RegisterCompaction, ARegisterReadBeforeAnyWriteKeepsItsOwnRowOfZeros) {
  // %u is never written: it reads zero, as declared registers start, even
  // though %t is written and dead before %u is read.
  test::OneWarpGrid run;
  run.start(kernel(".reg .u32 %t, %u, %r;",
                   "mov.u32 %t, 99;\n"
                   "st.shared.u32 [buf], %t;\n"
                   "add.u32 %r, %u, 1;\n"
                   "st.shared.u32 [buf+4], %r;\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  const PreparedFunction& fn = run.kernel->kernel();
  EXPECT_NE(fn.registerRows[1], fn.registerRows[0]);
  runWarp(run);
  EXPECT_EQ(run.registerValue(2, 3), 1u);
}

TEST(RegisterCompaction, AGuardedWriteKeepsTheOldValueLive) {
  // Lanes 0-15 overwrite %a; lanes 16-31 keep 5. %tmp, made and dead
  // between the two writes, must not take %a's row.
  test::OneWarpGrid run;
  run.start(kernel(".reg .u32 %a, %me, %tmp, %out; .reg .pred %p;",
                   "mov.u32 %a, 5;\n"
                   "mov.u32 %me, %tid.x;\n"
                   "setp.lt.u32 %p, %me, 16;\n"
                   "mul.lo.u32 %tmp, %me, 3;\n"
                   "st.shared.u32 [buf], %tmp;\n"
                   "@%p mov.u32 %a, 7;\n"
                   "add.u32 %out, %a, %me;\n"
                   "st.shared.u32 [buf+4], %out;\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  runWarp(run);
  EXPECT_EQ(run.registerValue(3, 0), 7u);
  EXPECT_EQ(run.registerValue(3, 15), 22u);
  EXPECT_EQ(run.registerValue(3, 16), 21u);
  EXPECT_EQ(run.registerValue(3, 31), 36u);
}

TEST(RegisterCompaction, DivergentPathsAndALoopComputeThroughSharedRows) {
  // Odd lanes sum 1..tid in a loop, even lanes take tid*tid; each path's
  // temporaries may share rows with the other's, per lane that is exact.
  test::OneWarpGrid run;
  run.start(kernel(".reg .u32 %me, %i, %s, %sq, %bit, %res; .reg .pred %odd, %more;",
                   "mov.u32 %me, %tid.x;\n"
                   "and.b32 %bit, %me, 1;\n"
                   "setp.ne.u32 %odd, %bit, 0;\n"
                   "@%odd bra ODD;\n"
                   "mul.lo.u32 %sq, %me, %me;\n"
                   "mov.u32 %res, %sq;\n"
                   "bra DONE;\n"
                   "ODD:\n"
                   "mov.u32 %s, 0;\n"
                   "mov.u32 %i, 1;\n"
                   "LOOP:\n"
                   "add.u32 %s, %s, %i;\n"
                   "add.u32 %i, %i, 1;\n"
                   "setp.le.u32 %more, %i, %me;\n"
                   "@%more bra LOOP;\n"
                   "mov.u32 %res, %s;\n"
                   "DONE:\n"
                   "st.shared.u32 [buf], %res;\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  EXPECT_LT(run.kernel->kernel().registerCount, run.kernel->kernel().declaredRegisterRows);
  runWarp(run);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const uint64_t expected = lane % 2 == 1 ? lane * (lane + 1) / 2 : lane * lane;
    EXPECT_EQ(run.registerValue(5, lane), expected) << "lane " << lane;
  }
}

TEST(RegisterCompaction, AShuffleReadsOtherLanesSourceBeforeAnyIsOverwritten) {
  // %v dies at the shuffle: its destination still takes another row, so
  // lane 0's result does not overwrite what lane 1 reads.
  test::OneWarpGrid run;
  run.start(kernel(".reg .u32 %v, %d;",
                   "mov.u32 %v, %laneid;\n"
                   "shfl.sync.down.b32 %d, %v, 1, 31, -1;\n"
                   "st.shared.u32 [buf], %d;\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  const PreparedFunction& fn = run.kernel->kernel();
  EXPECT_NE(fn.registerRows[0], fn.registerRows[1]);
  runWarp(run);
  EXPECT_EQ(run.registerValue(1, 0), 1u);
  EXPECT_EQ(run.registerValue(1, 30), 31u);
  EXPECT_EQ(run.registerValue(1, 31), 31u);  // past the end: its own value
}

TEST(RegisterCompaction, A128BitRegisterTakesTwoRowsInARow) {
  // %q takes two rows apart from %x and %y, which it is made from; %lo and
  // %hi, made from %q, then take %x's and %y's: four rows for six.
  test::OneWarpGrid run;
  run.start(kernel(".reg .b64 %x, %y; .reg .b128 %q; .reg .b64 %lo, %hi;",
                   "mov.b64 %x, 3;\n"
                   "mov.b64 %y, 4;\n"
                   "mov.b128 %q, {%x, %y};\n"
                   "mov.b128 {%lo, %hi}, %q;\n"
                   "add.u64 %lo, %lo, 1;\n"
                   "add.u64 %hi, %hi, 2;\n"
                   "st.shared.v2.u64 [buf], {%lo, %hi};\n"
                   "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  const PreparedFunction& fn = run.kernel->kernel();
  EXPECT_EQ(fn.declaredRegisterRows, 6u);
  EXPECT_EQ(fn.registerCount, 4u);
  runWarp(run);
  EXPECT_EQ(fn.registerRows[2], 2u);
  EXPECT_EQ(run.registerValue(3, 5), 4u);
  EXPECT_EQ(run.registerValue(4, 5), 6u);
}

TEST(RegisterCompaction, AWgmmaAccumulatorStaysLiveBetweenWgmmas) {
  // The second wgmma adds to the first's D (in another commit group, as
  // CUTLASS's mainloops chain k-blocks): %t, made and dead between them,
  // must not take a row of D. Before wgmma said that it reads D, %t took
  // %d0's row and the sum lost the first product.
  test::OneWarpGrid run;
  run.start(kernel(
      ".reg .f32 %d<4>; .reg .b64 %a, %b, %t; .reg .pred %p;",
      "mov.b64 %a, 0;\n"
      "mov.b64 %b, 0;\n"
      "setp.eq.u32 %p, 1, 1;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %a, %b, %p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n"
      "add.u64 %t, %b, 2;\n"
      "st.shared.u64 [buf+16], %t;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %a, %b, %p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n"
      "st.shared.v4.f32 [buf], {%d0, %d1, %d2, %d3};\n"
      "ret;\n"));
  ASSERT_NE(run.ctx, nullptr);
  const PreparedFunction& fn = run.kernel->kernel();
  ASSERT_EQ(fn.declaredRegisterRows, 8u);
  for (unsigned d = 0; d < 4; ++d) EXPECT_NE(fn.registerRows[6], fn.registerRows[d]) << "%d" << d;
}

}  // namespace
}  // namespace ptxsim::sim::exec
