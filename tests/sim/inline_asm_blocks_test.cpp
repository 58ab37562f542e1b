// Inline asm inlined more than once: each copy is a `{ }` block with the
// same labels and registers, which ptxas scopes per block. Every Hopper
// CUTLASS GEMM waits on its pipeline's mbarriers this way (issue 44:
// ptxsim refused such modules with "duplicate label 'LAB_WAIT'").

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

// CUTLASS's ClusterBarrier::wait, as nvcc inlines its asm: the barrier's
// 32-bit shared address, the phase and a suspend-time hint in registers.
std::string clusterBarrierWait(const char* barrier, const char* phase) {
  return std::string("{\n.reg .pred P1;\nLAB_WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [") +
         barrier + "], " + phase + ", %hint;\n@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}\n";
}

// A two-stage hand-over through a full and an empty barrier, each side
// waiting through its own inlined copy of the wait: warp 1 writes
// data[i] = 3i+1 and arrives on full; warp 0 waits on full (phase 0),
// copies the words out and arrives on empty; warp 1 waits on empty, writes
// data[i] = 5i+2 and arrives on full again; warp 0 waits on full (phase 1)
// and copies them out after the first.
TEST(InlineAsmBlocks, CutlassBarrierWaitsInlinedThriceRunAPipeline) {
  std::string body =
      "mov.u32 %full, full;\n"
      "mov.u32 %empty, empty;\n"
      "mov.u32 %phase0, 0;\n"
      "mov.u32 %phase1, 1;\n"
      "mov.u32 %hint, 10000000;\n"
      "setp.ne.u32 %p, %tx, 0;\n"
      "@%p bra SYNC;\n"
      "mbarrier.init.shared::cta.b64 [%full], 32;\n"
      "mbarrier.init.shared::cta.b64 [%empty], 32;\n"
      "SYNC:\n"
      "bar.sync 0;\n"
      "setp.lt.u32 %p, %tx, 32;\n"
      "@%p bra CONSUMER;\n"
      "sub.u32 %i, %tx, 32;\n"
      "mov.u32 %a, data;\n"
      "mad.lo.u32 %a, %i, 4, %a;\n"
      "mad.lo.u32 %v, %i, 3, 1;\n"
      "st.shared.u32 [%a], %v;\n"
      "mbarrier.arrive.release.cta.shared::cta.b64 %state, [%full];\n" +
      clusterBarrierWait("%empty", "%phase0") +
      "mad.lo.u32 %v, %i, 5, 2;\n"
      "st.shared.u32 [%a], %v;\n"
      "mbarrier.arrive.release.cta.shared::cta.b64 %state, [%full];\n"
      "bra.uni END;\n"
      "CONSUMER:\n"
      "mov.u32 %a, data;\n"
      "mad.lo.u32 %a, %tx, 4, %a;\n" +
      clusterBarrierWait("%full", "%phase0") +
      "ld.shared.u32 %v, [%a];\n"
      "add.u64 %o, %out, %tx8;\n"
      "st.global.u32 [%o], %v;\n"
      "mbarrier.arrive.release.cta.shared::cta.b64 %state, [%empty];\n" +
      clusterBarrierWait("%full", "%phase1") +
      "ld.shared.u32 %v, [%a];\n"
      "st.global.u32 [%o+256], %v;\n"
      "END:";
  std::string ptx = test::ptxKernel(
      ".shared .align 8 .b64 full; .shared .align 8 .b64 empty; .shared .align 4 .b32 data[32];"
      ".reg .u32 %full, %empty, %phase0, %phase1, %hint, %a, %i, %v; .reg .u64 %o, %state; .reg .pred %p;",
      body);
  for (sim::SimtMode simt : {sim::SimtMode::Stack, sim::SimtMode::Its}) {
    test::KernelRun run = test::runKernel(ptx, {}, 64, 64, simt);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    for (unsigned t = 0; t < 32; ++t) {
      EXPECT_EQ(run.out[t], 3u * t + 1) << t;
      EXPECT_EQ(run.out[32 + t], 5u * t + 2) << t;
    }
  }
}

}  // namespace
}  // namespace ptxsim
