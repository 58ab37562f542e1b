// peek(): what a timing driver asks before it lets a warp issue. The
// instruction it names is the one the next step executes, however often
// it is asked, under every schedule (round-robin and random change their
// choice each time they choose, so choosing must happen once per step).
#include <gtest/gtest.h>

#include "../support/one_warp_grid.h"

namespace ptxsim::sim::exec {
namespace {

// Odd and even lanes take different paths, each a few instructions long,
// then meet again: a warp with two groups to choose between.
const char* kDivergentKernel = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .u32 %t, %a, %b;
  .reg .pred %odd;
  mov.u32 %t, %tid.x;
  and.b32 %a, %t, 1;
  setp.ne.u32 %odd, %a, 0;
  @%odd bra ODD;
  add.u32 %b, %t, 1;
  add.u32 %b, %b, 2;
  add.u32 %b, %b, 3;
  bra.uni JOIN;
ODD:
  mul.lo.u32 %b, %t, 3;
  mul.lo.u32 %b, %b, 5;
  mul.lo.u32 %b, %b, 7;
JOIN:
  ret;
}
)";

class PeekTest : public ::testing::TestWithParam<ItsSchedule> {
 protected:
  void SetUp() override {
    run_.options.simt = SimtMode::Its;
    run_.options.itsSchedule = GetParam();
    run_.options.seed = 7;
    run_.start(kDivergentKernel);
    ASSERT_NE(run_.ctx, nullptr);
    ctx_ = run_.ctx.get();
  }

  test::OneWarpGrid run_;
  ExecContext* ctx_ = nullptr;
};

TEST_P(PeekTest, NamesTheInstructionTheNextStepExecutes) {
  unsigned steps = 0, divergedSteps = 0;
  while (true) {
    const PreparedInstruction* first = peek(*ctx_);
    const PreparedInstruction* again = peek(*ctx_);
    ASSERT_EQ(first, again) << "asking twice changed the answer at step " << steps;
    if (first == nullptr) break;
    bool diverged = ctx_->warp->groups.size() > 1;
    StepResult result = step(*ctx_);
    ASSERT_FALSE(ctx_->aborted);
    if (result == StepResult::Waited) continue;
    ASSERT_EQ(result, StepResult::Executed);
    EXPECT_EQ(ctx_->report.instruction, first->source) << "step " << steps;
    ++steps;
    divergedSteps += diverged ? 1 : 0;
    ASSERT_LT(steps, 1000u);  // adversarial: each of 32 threads alone
  }
  EXPECT_TRUE(ctx_->warp->done());
  // mov, and, setp, bra; 3 adds + bra.uni and 3 muls on their paths; ret
  // (once, or once per group if they did not meet first), more when
  // threads run alone.
  EXPECT_GE(steps, 12u);
  EXPECT_GE(divergedSteps, 6u);  // at least the three instructions of each path
}

INSTANTIATE_TEST_SUITE_P(Schedules, PeekTest,
                         ::testing::Values(ItsSchedule::Converge, ItsSchedule::RoundRobin, ItsSchedule::Random,
                                           ItsSchedule::Adversarial));

}  // namespace
}  // namespace ptxsim::sim::exec
