// %smid, %clock, %clock64 and %globaltimer read the driver's clock
// (driver_clock.h): the functional driver's instruction count by default,
// a timing driver's cycles when it sets its own.
#include <gtest/gtest.h>

#include "../support/one_warp_grid.h"

namespace ptxsim::sim::exec {
namespace {

// Registers: %s 0, %c 1, %hi 2, %c64 3, %g 4. The stores after the ret
// the test runs to keep all five live there (else they could share a row).
const char* kClockKernel = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .u32 %s, %c, %hi;
  .reg .u64 %c64, %g;
  .shared .align 16 .b8 buf[32];
  mov.u32 %s, %smid;
  mov.u32 %c, %clock;
  mov.u32 %hi, %clock_hi;
  mov.u64 %c64, %clock64;
  mov.u64 %g, %globaltimer;
  st.shared.v4.u32 [buf], {%s, %c, %hi, %s};
  st.shared.v2.u64 [buf+16], {%c64, %g};
  ret;
}
)";

// Runs the five moves.
void runToReturn(ExecContext& ctx) {
  for (int i = 0; i < 5; ++i) ASSERT_EQ(step(ctx), StepResult::Executed);
}

TEST(DriverClock, FunctionalDriverCountsInstructions) {
  test::OneWarpGrid run;
  run.start(kClockKernel);
  ASSERT_NE(run.ctx, nullptr);
  run.grid->launchTimeNs = 1000;
  runToReturn(*run.ctx);
  EXPECT_EQ(run.registerValue(0, 0), 0u);     // CTA 0 on SM 0
  EXPECT_EQ(run.registerValue(1, 0), 1u);     // one instruction ran before %clock's
  EXPECT_EQ(run.registerValue(2, 0), 0u);
  EXPECT_EQ(run.registerValue(3, 0), 3u);
  EXPECT_EQ(run.registerValue(4, 0), 1004u);  // launch time plus four instructions
}

class FixedClock final : public DriverClock {
 public:
  uint32_t smOf(const ExecContext&) const override { return 77; }
  uint64_t cycle(const ExecContext&) const override { return 0x123456789abull; }
  uint64_t globalTimerNs(const ExecContext&) const override { return 5555; }
};

TEST(DriverClock, ATimingDriverGivesItsOwn) {
  test::OneWarpGrid run;
  run.start(kClockKernel);
  ASSERT_NE(run.ctx, nullptr);
  FixedClock clock;
  run.grid->clock = &clock;
  runToReturn(*run.ctx);
  EXPECT_EQ(run.registerValue(0, 31), 77u);
  EXPECT_EQ(run.registerValue(1, 31), 0x456789abu);
  EXPECT_EQ(run.registerValue(2, 31), 0x123u);
  EXPECT_EQ(run.registerValue(3, 31), 0x123456789abull);
  EXPECT_EQ(run.registerValue(4, 31), 5555u);
}

}  // namespace
}  // namespace ptxsim::sim::exec
