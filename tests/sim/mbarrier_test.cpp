// mbarrier and the bulk copies that complete on one, run as PTX kernels:
// warps hand data over through an mbarrier whatever the SIMT mode, a bulk
// copy completes the tx-count its producer expected, cp.async arrives on an
// mbarrier, a wait that nobody will satisfy is a deadlock report rather than
// a hang, and misuse is an error naming the instruction and the place.

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

using sim::SimtMode;

// Warp 1 writes data[i] = 3 * i + 1 for 32 words and arrives (32 arrivals);
// warp 0, which runs first, spins on try_wait.parity until the phase is
// done and copies the words out. Then phase 1: warp 0 arrives 32 times and
// warp 1 waits on parity 1.
const char* kHandOffDeclarations =
    ".shared .align 8 .b64 mbar; .shared .align 4 .b32 data[32];"
    ".reg .u32 %a, %m, %i, %v; .reg .u64 %o, %state; .reg .pred %p, %done;";
const char* kHandOffBody =
    "mov.u32 %m, mbar;\n"
    "setp.ne.u32 %p, %tx, 0;\n"
    "@%p bra SYNC;\n"
    "mbarrier.init.shared::cta.b64 [%m], 32;\n"
    "SYNC:\n"
    "bar.sync 0;\n"
    "setp.lt.u32 %p, %tx, 32;\n"
    "@%p bra CONSUMER;\n"
    "sub.u32 %i, %tx, 32;\n"
    "mad.lo.u32 %v, %i, 3, 1;\n"
    "mov.u32 %a, data;\n"
    "mad.lo.u32 %a, %i, 4, %a;\n"
    "st.shared.u32 [%a], %v;\n"
    "mbarrier.arrive.release.cta.shared::cta.b64 %state, [%m];\n"
    "WAIT1:\n"
    "mbarrier.try_wait.parity.shared::cta.b64 %done, [%m], 1;\n"
    "@!%done bra WAIT1;\n"
    "bra.uni END;\n"
    "CONSUMER:\n"
    "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %done, [%m], 0;\n"
    "@!%done bra CONSUMER;\n"
    "mov.u32 %a, data;\n"
    "mad.lo.u32 %a, %tx, 4, %a;\n"
    "ld.shared.u32 %v, [%a];\n"
    "add.u64 %o, %out, %tx8;\n"
    "st.global.u32 [%o], %v;\n"
    "mbarrier.arrive.shared.b64 %state, [%m];\n"
    "END:";

void expectHandOff(const test::KernelRun& run) {
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], 3u * t + 1) << t;
}

TEST(Mbarrier, WarpsHandDataOverThroughPhasesUnderTheStack) {
  expectHandOff(
      test::runKernel(test::ptxKernel(kHandOffDeclarations, kHandOffBody), {}, 32, 64, SimtMode::Stack));
}

TEST(Mbarrier, WarpsHandDataOverThroughPhasesUnderIndependentThreadScheduling) {
  for (sim::ItsSchedule schedule : {sim::ItsSchedule::Converge, sim::ItsSchedule::RoundRobin,
                                    sim::ItsSchedule::Random, sim::ItsSchedule::Adversarial}) {
    expectHandOff(test::runKernel(test::ptxKernel(kHandOffDeclarations, kHandOffBody), {}, 32, 64,
                                  SimtMode::Its, schedule));
  }
}

TEST(Mbarrier, ABulkCopyCompletesTheBytesItsProducerExpected) {
  // Thread 0 expects 256 bytes, then copies in[0..31] (u64) into shared
  // memory; every thread waits on phase 0 and writes one word back out.
  // try_wait before the copy is issued sees the phase incomplete.
  std::string ptx = test::ptxKernel(
      ".shared .align 8 .b64 mbar; .shared .align 16 .b64 buf[32];"
      ".reg .u32 %m, %b, %a; .reg .u64 %o, %v, %state; .reg .pred %p, %done, %early;",
      "mov.u32 %m, mbar;\n"
      "mov.u32 %b, buf;\n"
      "setp.ne.u32 %p, %tx, 0;\n"
      "@%p bra SYNC;\n"
      "mbarrier.init.shared.b64 [%m], 1;\n"
      "mbarrier.arrive.expect_tx.shared::cta.b64 %state, [%m], 256;\n"
      "mbarrier.test_wait.shared::cta.b64 %early, [%m], %state;\n"
      "selp.u64 %v, 1, 0, %early;\n"
      "st.global.u64 [%out+256], %v;\n"
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%b], [%in], 256, [%m];\n"
      "SYNC:\n"
      "bar.sync 0;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %done, [%m], 0;\n"
      "@!%done bra WAIT;\n"
      "mad.lo.u32 %a, %tx, 8, %b;\n"
      "ld.shared.u64 %v, [%a];\n"
      "add.u64 %o, %out, %tx8;\n"
      "st.global.u64 [%o], %v;");
  std::vector<uint64_t> in(32);
  for (unsigned i = 0; i < 32; ++i) in[i] = 0x1000 + i * 7;
  test::KernelRun run = test::runKernel(ptx, in, 33, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], in[t]) << t;
  EXPECT_EQ(run.out[32], 0u);  // test_wait before the copy: incomplete
}

TEST(Mbarrier, BulkCopiesMoveSharedToSharedAndSharedToGlobal) {
  // Each of 8 threads stores 0x100 + t to src[t] (u64); thread 0 copies the
  // 64 bytes to dst (shared to shared, on the mbarrier), waits, and copies
  // dst to out in a bulk group.
  std::string ptx = test::ptxKernel(
      ".shared .align 8 .b64 mbar; .shared .align 16 .b64 src[8]; .shared .align 16 .b64 dst[8];"
      ".reg .u32 %m, %s, %d, %a; .reg .u64 %v; .reg .pred %p, %done;",
      "mov.u32 %m, mbar;\n"
      "mov.u32 %s, src;\n"
      "mov.u32 %d, dst;\n"
      "mad.lo.u32 %a, %tx, 8, %s;\n"
      "cvt.u64.u32 %v, %tx;\n"
      "add.u64 %v, %v, 256;\n"
      "st.shared.u64 [%a], %v;\n"
      "bar.sync 0;\n"
      "setp.ne.u32 %p, %tx, 0;\n"
      "@%p bra END;\n"
      "mbarrier.init.shared::cta.b64 [%m], 1;\n"
      "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%m], 64;\n"
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%d], [%s], 64, [%m];\n"
      "mbarrier.arrive.shared::cta.b64 _, [%m];\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %done, [%m], 0;\n"
      "@!%done bra WAIT;\n"
      "cp.async.bulk.global.shared::cta.bulk_group [%out], [%d], 64;\n"
      "cp.async.bulk.commit_group;\n"
      "cp.async.bulk.wait_group.read 0;\n"
      "cp.async.bulk.wait_group 0;\n"
      "mbarrier.inval.shared::cta.b64 [%m];\n"
      "END:");
  test::KernelRun run = test::runKernel(ptx, {}, 8, 8);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 8; ++t) EXPECT_EQ(run.out[t], 0x100u + t) << t;
}

TEST(Mbarrier, CpAsyncArrivesOnTheMbarrierWhenItsCopiesComplete) {
  // 32 threads each cp.async one word and arrive with .noinc (32 expected
  // arrivals). A second phase uses cp.async.mbarrier.arrive without .noinc,
  // which leaves the pending count as it was, then an explicit arrive.
  std::string ptx = test::ptxKernel(
      ".shared .align 8 .b64 mbar; .shared .align 16 .b32 buf[32];"
      ".reg .u32 %m, %a, %v; .reg .u64 %o, %src, %state; .reg .pred %p, %done;",
      "mov.u32 %m, mbar;\n"
      "setp.ne.u32 %p, %tx, 0;\n"
      "@%p bra SYNC;\n"
      "mbarrier.init.shared.b64 [%m], 32;\n"
      "SYNC:\n"
      "bar.sync 0;\n"
      "mov.u32 %a, buf;\n"
      "mad.lo.u32 %a, %tx, 4, %a;\n"
      "add.u64 %src, %in, %tx8;\n"
      "cp.async.ca.shared.global [%a], [%src], 4;\n"
      "cp.async.mbarrier.arrive.noinc.shared.b64 [%m];\n"
      "WAIT0:\n"
      "mbarrier.try_wait.parity.shared.b64 %done, [%m], 0;\n"
      "@!%done bra WAIT0;\n"
      "ld.shared.u32 %v, [%a];\n"
      "add.u64 %o, %out, %tx8;\n"
      "st.global.u32 [%o], %v;\n"
      "cp.async.mbarrier.arrive.shared.b64 [%m];\n"
      "mbarrier.test_wait.parity.shared.b64 %done, [%m], 1;\n"
      "selp.u32 %v, 1, 0, %done;\n"
      "st.global.u32 [%o+256], %v;\n"
      "bar.sync 0;\n"
      "mbarrier.arrive.shared.b64 %state, [%m];\n"
      "WAIT1:\n"
      "mbarrier.try_wait.shared.b64 %done, [%m], %state;\n"
      "@!%done bra WAIT1;");
  std::vector<uint64_t> in(32);
  for (unsigned i = 0; i < 32; ++i) in[i] = 0xabc0 + i;
  test::KernelRun run = test::runKernel(ptx, in, 64, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(run.out[t], 0xabc0u + t) << t;
    EXPECT_EQ(run.out[32 + t], 0u) << t;  // phase 1 incomplete after the net-zero arrive
  }
}

TEST(Mbarrier, AWaitNobodyWillCompleteIsADeadlockReport) {
  // Two arrivals expected, one made: the spin loop can never end.
  std::string ptx =
      test::ptxKernel(".shared .align 8 .b64 mbar; .reg .u32 %m; .reg .u64 %state; .reg .pred %done;",
                      "mov.u32 %m, mbar;\n"
                      "mbarrier.init.shared.b64 [%m], 64;\n"
                      "mbarrier.arrive.shared.b64 %state, [%m];\n"
                      "WAIT:\n"
                      "mbarrier.try_wait.shared.b64 %done, [%m], %state;\n"
                      "@!%done bra WAIT;");
  for (SimtMode mode : {SimtMode::Stack, SimtMode::Its}) {
    test::KernelRun run = test::runKernel(ptx, {}, 1, 1, mode);
    ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::Deadlock) << run.result.error.message;
    EXPECT_NE(run.result.error.message.find("repeat the same states"), std::string::npos)
        << run.result.error.message;
  }
}

TEST(Mbarrier, MisuseIsAnErrorNamingTheInstructionAndLine) {
  struct Case {
    const char* body;
    sim::LaunchErrorKind kind;
    const char* message;
  };
  const Case cases[] = {
      {"mbarrier.arrive.shared.b64 %state, [%m];", sim::LaunchErrorKind::IllegalInstruction,
       "mbarrier.arrive on the mbarrier at shared address 0x0: the mbarrier object is not initialised"},
      {"mbarrier.init.shared.b64 [%m], 0;", sim::LaunchErrorKind::IllegalInstruction,
       "mbarrier.init on the mbarrier at shared address 0x0: the count is outside 1 .. 2^20-1"},
      {"mbarrier.init.shared.b64 [%m+4], 1;", sim::LaunchErrorKind::MisalignedAddress,
       "not aligned to 8 bytes"},
      {"mbarrier.init.b64 [%in], 1;", sim::LaunchErrorKind::IllegalAddress,
       "mbarrier.init: the mbarrier's generic address"},
      {"mbarrier.init.shared.b64 [%m], 1;\n"
       "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%b], [%in], 24, [%m];",
       sim::LaunchErrorKind::MisalignedAddress, "cp.async.bulk: the size 24 is not a multiple of 16 bytes"},
      {"mbarrier.init.shared.b64 [%m], 1;\n"
       "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%b+8], [%in], 16, [%m];",
       sim::LaunchErrorKind::MisalignedAddress,
       "cp.async.bulk: the destination address 0x18 is not 16-byte aligned"},
      {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%b], [%in], 16, [%m];",
       sim::LaunchErrorKind::IllegalInstruction, "the mbarrier object is not initialised"},
  };
  for (const Case& c : cases) {
    std::string ptx = test::ptxKernel(
        ".shared .align 8 .b64 mbar; .shared .align 16 .b8 buf[64]; .reg .u32 %m, %b; .reg .u64 %state;",
        std::string("mov.u32 %m, mbar;\nmov.u32 %b, buf;\n") + c.body);
    test::KernelRun run = test::runKernel(ptx, {1, 2, 3, 4}, 1, 1);
    EXPECT_EQ(run.result.error.kind, c.kind) << c.body << ": " << run.result.error.message;
    const std::string& m = run.result.error.message;
    EXPECT_NE(m.find(c.message), std::string::npos) << m;
    EXPECT_NE(m.find("PTX line"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace ptxsim
