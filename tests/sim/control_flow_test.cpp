// Control flow on the reconvergence stack: divergent branches, loops,
// calls with the .param ABI, recursion under divergence, indirect calls to
// different functions per lane, brx.idx, exit and ret in divergent code.
// Expected values are computed on the host from the same formulas.

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

const char* kFibonacci = R"(
.version 9.0
.target sm_90
.address_size 64

.func (.param .b32 result) fib(.param .b32 n)
{
  .reg .b32 %n, %a, %b;
  .reg .pred %p;
  ld.param.b32 %n, [n];
  setp.lt.s32 %p, %n, 2;
  @%p bra BASE;
  {
    .param .b32 arg;
    .param .b32 ret;
    sub.s32 %a, %n, 1;
    st.param.b32 [arg], %a;
    call.uni (ret), fib, (arg);
    ld.param.b32 %a, [ret];
  }
  {
    .param .b32 arg;
    .param .b32 ret;
    sub.s32 %b, %n, 2;
    st.param.b32 [arg], %b;
    call.uni (ret), fib, (arg);
    ld.param.b32 %b, [ret];
  }
  add.s32 %n, %a, %b;
BASE:
  st.param.b32 [result], %n;
  ret;
}

.visible .entry k(.param .u64 out_param)
{
  .reg .b32 %t, %n, %r;
  .reg .b64 %out, %off;
  ld.param.u64 %out, [out_param];
  mov.u32 %t, %tid.x;
  // n = t mod 12 without rem: t - 12*(t/12) is not available yet, so use
  // n = t for t < 12 and n = t - 12 above (the test runs 24 threads).
  setp.lt.u32 %p1, %t, 12;
  selp.b32 %n, %t, 0, %p1;
  @!%p1 sub.s32 %n, %t, 12;
  {
    .param .b32 arg;
    .param .b32 ret;
    st.param.b32 [arg], %n;
    call.uni (ret), fib, (arg);
    ld.param.b32 %r, [ret];
  }
  mul.wide.u32 %off, %t, 4;
  add.u64 %off, %out, %off;
  st.global.u32 [%off], %r;
  ret;
}
)";

int fibonacci(int n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }

std::string withPredicateDecl(std::string text) {
  // The kernel above uses %p1; declare it next to its other registers.
  size_t at = text.find(".reg .b64 %out, %off;");
  text.insert(at, ".reg .pred %p1;\n  ");
  return text;
}

TEST(ControlFlow, RecursionUnderDivergenceMatchesHost) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(withPredicateDecl(kFibonacci));
  uint64_t out = device.malloc(24 * 4);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {24}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  std::vector<int32_t> got = device.read<int32_t>(out, 24);
  for (int t = 0; t < 24; ++t) EXPECT_EQ(got[t], fibonacci(t % 12)) << "thread " << t;
}

const char* kIndirect = R"(
.version 9.0
.target sm_90
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %x;
  ld.param.b32 %x, [x];
  add.s32 %x, %x, %x;
  st.param.b32 [r], %x;
  ret;
}

.func (.param .b32 r) square(.param .b32 x)
{
  .reg .b32 %x;
  ld.param.b32 %x, [x];
  mul.lo.s32 %x, %x, %x;
  st.param.b32 [r], %x;
  ret;
}

.func (.param .b32 r) negate(.param .b32 x)
{
  .reg .b32 %x;
  ld.param.b32 %x, [x];
  sub.s32 %x, 0, %x;
  st.param.b32 [r], %x;
  ret;
}

.global .align 8 .u64 table[3] = {twice, square, negate};

.visible .entry k(.param .u64 out_param)
{
  .reg .b32 %t, %sel, %r;
  .reg .b64 %out, %off, %fp, %slot;
  .reg .pred %p;
  ld.param.u64 %out, [out_param];
  mov.u32 %t, %tid.x;
  // sel = t mod 3, by subtraction (t < 32).
  mov.u32 %sel, %t;
LOOP:
  setp.ge.u32 %p, %sel, 3;
  @%p sub.u32 %sel, %sel, 3;
  @%p bra LOOP;
  mul.wide.u32 %slot, %sel, 8;
  mov.u64 %fp, table;
  add.u64 %slot, %fp, %slot;
  ld.global.u64 %fp, [%slot];
  {
    .param .b32 arg;
    .param .b32 ret;
    st.param.b32 [arg], %t;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    call (ret), %fp, (arg), proto;
    ld.param.b32 %r, [ret];
  }
  mul.wide.u32 %off, %t, 4;
  add.u64 %off, %out, %off;
  st.global.u32 [%off], %r;
  ret;
}
)";

TEST(ControlFlow, IndirectCallsWithDifferentTargetsPerLane) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(kIndirect);
  uint64_t out = device.malloc(32 * 4);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {32}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  std::vector<int32_t> got = device.read<int32_t>(out, 32);
  for (int t = 0; t < 32; ++t) {
    int expected = t % 3 == 0 ? 2 * t : t % 3 == 1 ? t * t : -t;
    EXPECT_EQ(got[t], expected) << "thread " << t;
  }
}

TEST(ControlFlow, BrxIdxSendsLanesToTheirTableEntries) {
  std::string ptx = test::ptxKernel(".reg .u32 %i, %v; .reg .u64 %a; .reg .pred %p;",
                                    "and.b32 %i, %tx, 3;\n"
                                    "ts: .branchtargets L0, L1, L2, L3;\n"
                                    "brx.idx %i, ts;\n"
                                    "L0: mov.u32 %v, 100; bra.uni JOIN;\n"
                                    "L1: mov.u32 %v, 200; bra.uni JOIN;\n"
                                    "L2: mov.u32 %v, 300; bra.uni JOIN;\n"
                                    "L3: mov.u32 %v, 400;\n"
                                    "JOIN: add.u32 %v, %v, %tx;\n"
                                    "add.u64 %a, %out, %tx8;\n"
                                    "st.global.u32 [%a], %v;");
  test::KernelRun run = test::runKernel(ptx, {}, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], 100u * (t % 4 + 1) + t) << t;
}

TEST(ControlFlow, NestedDivergenceWithLoopsBreakAndEarlyExit) {
  // For each thread t: s = sum of i for i in [0, t) skipping multiples of 3
  // (continue), stopping once s > 40 (break); threads with t == 7 exit
  // early without writing; t == 9 returns before the loop.
  std::string ptx = test::ptxKernel(".reg .u32 %i, %s, %m; .reg .u64 %a; .reg .pred %p, %q;",
                                    "setp.eq.u32 %p, %tx, 9;\n"
                                    "@%p bra STORE0;\n"
                                    "mov.u32 %i, 0;\n"
                                    "mov.u32 %s, 0;\n"
                                    "LOOP: setp.ge.u32 %p, %i, %tx;\n"
                                    "@%p bra END;\n"
                                    "mov.u32 %m, %i;\n"
                                    "MOD: setp.ge.u32 %q, %m, 3;\n"
                                    "@%q sub.u32 %m, %m, 3;\n"
                                    "@%q bra MOD;\n"
                                    "setp.eq.u32 %q, %m, 0;\n"
                                    "@%q bra NEXT;\n"
                                    "add.u32 %s, %s, %i;\n"
                                    "setp.gt.u32 %q, %s, 40;\n"
                                    "@%q bra END;\n"
                                    "NEXT: add.u32 %i, %i, 1;\n"
                                    "bra LOOP;\n"
                                    "END: setp.eq.u32 %p, %tx, 7;\n"
                                    "@%p exit;\n"
                                    "add.u64 %a, %out, %tx8;\n"
                                    "st.global.u32 [%a], %s;\n"
                                    "ret;\n"
                                    "STORE0: add.u64 %a, %out, %tx8;\n"
                                    "st.global.u32 [%a], 999;");
  std::vector<uint64_t> sentinel;
  test::KernelRun run = test::runKernel(ptx, {}, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) {
    uint64_t expected = 0;
    if (t == 9) {
      expected = 999;
    } else if (t != 7) {
      for (unsigned i = 0; i < t; ++i) {
        if (i % 3 == 0) continue;
        expected += i;
        if (expected > 40) break;
      }
    }
    EXPECT_EQ(run.out[t], expected) << "thread " << t;
  }
}

TEST(ControlFlow, TrapFailsTheLaunchWithItsLocation) {
  std::string ptx = test::ptxKernel(".reg .pred %p;", "setp.eq.u32 %p, %tx, 3;\n@%p trap;");
  test::KernelRun run = test::runKernel(ptx, {}, 1);
  ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::Trap);
  EXPECT_NE(run.result.error.message.find("trap in kernel k, block (0,0,0), thread (3,0,0), PTX line 14"),
            std::string::npos)
      << run.result.error.message;
}

TEST(ControlFlow, AKernelThatNeverEndsStopsAtTheInstructionLimit) {
  // A counter keeps the state changing, so it is not a livelock; it just
  // runs too long.
  std::string ptx = test::ptxKernel(".reg .u32 %n;", "SPIN: add.u32 %n, %n, 1;\nbra SPIN;");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  device.launchOptions().maxWarpInstructions = 100000;
  auto module = device.loadModule(ptx);
  uint64_t buffer = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {2}, {64}, 0, KernelArgs().add(buffer).add(buffer));
  ASSERT_EQ(r.error.kind, sim::LaunchErrorKind::Timeout);
  EXPECT_NE(r.error.message.find("more than 100000 warp instructions"), std::string::npos) << r.error.message;
}

TEST(ControlFlow, ALoopThatRepeatsItsStateWithoutWritingMemoryIsALivelock) {
  std::string ptx = test::ptxKernel("", "SPIN: bra SPIN;");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  uint64_t buffer = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {2}, {64}, 0, KernelArgs().add(buffer).add(buffer));
  ASSERT_EQ(r.error.kind, sim::LaunchErrorKind::Deadlock) << r.error.message;
  EXPECT_NE(r.error.message.find("repeat the same states without writing memory"), std::string::npos)
      << r.error.message;
  EXPECT_NE(r.error.message.find("warp 1 lanes 0xffffffff at PC"), std::string::npos) << r.error.message;
}

TEST(ControlFlow, UnsupportedInstructionFailsAtLoadWithItsLine) {
  std::string error =
      test::moduleLoadError(test::ptxKernel(".reg .b32 %r;", "multimem.red.relaxed.sys.global.add.u32 [%in], %r;"), "tensor.ptx");
  EXPECT_NE(error.find("tensor.ptx: error: unsupported instruction multimem.red"), std::string::npos) << error;
  EXPECT_NE(error.find("at PTX line 13"), std::string::npos) << error;
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

TEST(LocalStack, AllocaGivesEachThreadItsOwnStackMemory) {
  // Each thread allocas 16 bytes, stores 8t and 8t+1000 there, restores
  // the stack, and allocas again: the same address comes back.
  std::string ptx = test::ptxKernel(".reg .u64 %sp, %a, %b, %v, %w, %o;",
                                    "stacksave.u64 %sp;\n"
                                    "alloca.u64 %a, 16, 16;\n"
                                    "mov.u64 %v, %tx8;\n"
                                    "st.local.u64 [%a], %v;\n"
                                    "add.u64 %w, %v, 1000;\n"
                                    "st.local.u64 [%a+8], %w;\n"
                                    "ld.local.u64 %v, [%a];\n"
                                    "ld.local.u64 %w, [%a+8];\n"
                                    "add.u64 %v, %v, %w;\n"
                                    "stackrestore.u64 %sp;\n"
                                    "alloca.u64 %b, 16, 16;\n"
                                    "sub.u64 %b, %b, %a;\n"
                                    "add.u64 %v, %v, %b;\n"
                                    "add.u64 %o, %out, %tx8;\n"
                                    "st.global.u64 [%o], %v;");
  test::KernelRun run = test::runKernel(ptx, {}, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], 2u * 8u * t + 1000u) << t;
}

}  // namespace
}  // namespace ptxsim
