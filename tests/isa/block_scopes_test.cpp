// Names in nested `{ }` blocks resolve as ptxas resolves them (CUDA 13.0,
// `ptxas -arch=sm_90`): where this file says which label a branch reaches,
// ptxas built the same code as with that label renamed apart (identical
// cubins). The forms ptxas refuses are tests/ptx/invalid/*.ptx.

#include <gtest/gtest.h>

#include "ptxsim/isa/lower.h"

namespace ptxsim::isa {
namespace {

std::shared_ptr<const Module> compileOk(const std::string& body) {
  CompileResult result = compilePtx(".version 9.0\n.target sm_90\n.address_size 64\n" + body);
  for (const Diagnostic& d : result.errors)
    ADD_FAILURE() << d.where.line << ":" << d.where.column << ": " << d.message;
  return result.module;
}

// CUTLASS's ClusterBarrier::wait is inline asm with its own labels; inlined
// twice, one function holds two blocks with LAB_WAIT and DONE (issue 44).
TEST(BlockScopes, SiblingBlocksKeepTheirOwnLabels) {
  auto m = compileOk(R"(
.entry k() {
  .reg .b32 %r;
  {
  .reg .pred P1;
  LAB_WAIT:
  setp.eq.s32 P1, %r, 0;           // 0
  @P1 bra DONE;                    // 1 -> 3
  bra LAB_WAIT;                    // 2 -> 0
  DONE:
  }
  {
  .reg .pred P1;
  LAB_WAIT:
  setp.eq.s32 P1, %r, 1;           // 3
  @P1 bra DONE;                    // 4 -> 6
  bra LAB_WAIT;                    // 5 -> 3
  DONE:
  }
  ret;                             // 6
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  EXPECT_EQ(k.instructions[1].branchTarget, 3u);
  EXPECT_EQ(k.instructions[2].branchTarget, 0u);
  EXPECT_EQ(k.instructions[4].branchTarget, 6u);
  EXPECT_EQ(k.instructions[5].branchTarget, 3u);
  // Each block's P1 is a register of its own.
  EXPECT_NE(k.operands[k.instructions[0].firstOperand].index,
            k.operands[k.instructions[3].firstOperand].index);
}

TEST(BlockScopes, TheInnermostBlockDeclaringALabelWinsBeforeOrAfterTheBranch) {
  auto m = compileOk(R"(
.entry k() {
  .reg .pred %p;
  .reg .b32 %r;
L:
  add.s32 %r, %r, 1;               // 0
  {
  L:
    add.s32 %r, %r, 2;             // 1
    @%p bra L;                     // 2 -> 1: the inner L hides the outer one
  }
  {
    @%p bra L;                     // 3 -> 5: the inner L, though declared later
    bra AFTER;                     // 4 -> 6: a later label of the enclosing block
  L:
    add.s32 %r, %r, 3;             // 5
  }
AFTER:
  @%p bra L;                       // 6 -> 0: inner blocks' labels are out of sight
  ret;                             // 7
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  EXPECT_EQ(k.instructions[2].branchTarget, 1u);
  EXPECT_EQ(k.instructions[3].branchTarget, 5u);
  EXPECT_EQ(k.instructions[4].branchTarget, 6u);
  EXPECT_EQ(k.instructions[6].branchTarget, 0u);
}

TEST(BlockScopes, TargetListsAndTheirLabelsBelongToTheirBlock) {
  auto m = compileOk(R"(
.entry k() {
  .reg .b32 %r;
  {
  ts: .branchtargets A, B;
    brx.idx %r, ts;                // 0
  A:
    add.s32 %r, %r, 1;             // 1
  B:
    add.s32 %r, %r, 2;             // 2
  }
  {
  ts: .branchtargets B, A;
    brx.idx %r, ts;                // 3
  A:
    add.s32 %r, %r, 3;             // 4
  B:
    add.s32 %r, %r, 4;             // 5
  }
  ret;                             // 6
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  ASSERT_EQ(k.branchTables.size(), 2u);
  EXPECT_EQ(k.branchTables[0], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(k.branchTables[1], (std::vector<uint32_t>{5, 4}));
  EXPECT_EQ(k.operands[k.instructions[0].firstOperand + 1].index, 0u);
  EXPECT_EQ(k.operands[k.instructions[3].firstOperand + 1].index, 1u);
}

// Registers, unlike labels, are visible only after their declaration: a use
// before an inner block's own %x still reads the outer %x.
TEST(BlockScopes, ARegisterIsHiddenFromItsDeclarationOn) {
  auto m = compileOk(R"(
.entry k() {
  .reg .b32 %r, %x;
  {
    add.s32 %r, %r, %x;            // 0: the outer %x
    .reg .b32 %x;
    add.s32 %r, %r, %x;            // 1: the inner %x
  }
  add.s32 %r, %r, %x;              // 2: the outer %x again
  ret;
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  auto source = [&](size_t i) { return k.operands[k.instructions[i].firstOperand + 2].index; };
  EXPECT_EQ(source(0), 1u);  // %r is register 0, the outer %x register 1
  EXPECT_EQ(source(1), 2u);
  EXPECT_EQ(source(2), 1u);
}

}  // namespace
}  // namespace ptxsim::isa
