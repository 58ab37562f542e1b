// Checked memory: every global, shared and local access is checked, and a
// bad one fails the launch with a report naming the kernel, block, thread,
// PTX line and address, never crashing the host.

#include <gtest/gtest.h>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

using sim::LaunchErrorKind;

// Thread 5 reads in[index] where index comes from in[32] (one past the end
// when the test says so).
test::KernelRun readAtIndex(uint64_t index, uint64_t words) {
  std::vector<uint64_t> in(words, 7);
  std::string ptx = test::ptxKernel(".reg .u64 %i, %a, %v; .reg .pred %p;",
                                    "setp.ne.u32 %p, %tx, 5;\n"
                                    "@%p bra DONE;\n"
                                    "mov.u64 %i, " + std::to_string(index) + ";\n"
                                    "mul.lo.u64 %i, %i, 8;\n"
                                    "add.u64 %a, %in, %i;\n"
                                    "ld.global.u64 %v, [%a];\n"
                                    "st.global.u64 [%out], %v;\n"
                                    "DONE:");
  return test::runKernel(ptx, in, 1);
}

TEST(Memcheck, InBoundsGlobalReadSucceeds) {
  test::KernelRun run = readAtIndex(3, 4);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 7u);
}

TEST(Memcheck, GlobalReadPastTheEndIsReportedWithItsLocation) {
  test::KernelRun run = readAtIndex(4, 4);
  ASSERT_EQ(run.result.error.kind, LaunchErrorKind::IllegalAddress);
  const std::string& m = run.result.error.message;
  EXPECT_NE(m.find("invalid global read of 8 bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("0 bytes after the end of the 32-byte allocation"), std::string::npos) << m;
  EXPECT_NE(m.find("kernel k"), std::string::npos) << m;
  EXPECT_NE(m.find("block (0,0,0)"), std::string::npos) << m;
  EXPECT_NE(m.find("thread (5,0,0)"), std::string::npos) << m;
  // The ld is on line 18 of the generated kernel text.
  EXPECT_NE(m.find("PTX line 18"), std::string::npos) << m;
}

TEST(Memcheck, MisalignedGlobalAccessIsReported) {
  std::string ptx = test::ptxKernel(".reg .u64 %a; .reg .u32 %v;",
                                    "add.u64 %a, %in, 2;\n"
                                    "ld.global.u32 %v, [%a];");
  test::KernelRun run = test::runKernel(ptx, {1, 2}, 1, 1);
  ASSERT_EQ(run.result.error.kind, LaunchErrorKind::MisalignedAddress);
  EXPECT_NE(run.result.error.message.find("not aligned to 4 bytes"), std::string::npos) << run.result.error.message;
}

TEST(Memcheck, NullPointerIsOutsideEveryAllocation) {
  std::string ptx = test::ptxKernel(".reg .u64 %a;", "mov.u64 %a, 0;\nst.global.u64 [%a], %a;");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 1);
  ASSERT_EQ(run.result.error.kind, LaunchErrorKind::IllegalAddress);
  EXPECT_NE(run.result.error.message.find("invalid global write of 8 bytes at 0x0 (not inside any allocation)"),
            std::string::npos)
      << run.result.error.message;
}

TEST(Memcheck, UseAfterFreeIsReportedAsFreed) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(test::ptxKernel(".reg .u64 %v;", "ld.global.u64 %v, [%in];"));
  uint64_t stale = device.malloc(64);
  device.free(stale);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(stale).add(uint64_t{0}));
  ASSERT_EQ(r.error.kind, LaunchErrorKind::IllegalAddress);
  EXPECT_NE(r.error.message.find("inside a freed 64-byte allocation"), std::string::npos) << r.error.message;
}

TEST(Memcheck, SharedAccessBeyondTheBlocksSharedMemoryIsReported) {
  std::string ptx = test::ptxKernel(".shared .align 4 .b8 buffer[128]; .reg .u32 %a, %v;",
                                    "mov.u32 %a, buffer;\n"
                                    "add.u32 %a, %a, 128;\n"
                                    "ld.shared.u32 %v, [%a];");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 1);
  ASSERT_EQ(run.result.error.kind, LaunchErrorKind::IllegalAddress);
  EXPECT_NE(run.result.error.message.find("invalid shared read of 4 bytes at 0x80 (out of bounds of the 128-byte"),
            std::string::npos)
      << run.result.error.message;
}

TEST(Memcheck, LocalArrayOverrunIsReported) {
  std::string ptx = test::ptxKernel(".local .align 8 .b8 depot[16]; .reg .u64 %a;",
                                    "mov.u64 %a, depot;\n"
                                    "st.local.u64 [%a+16], %a;");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 1);
  ASSERT_EQ(run.result.error.kind, LaunchErrorKind::IllegalAddress);
  EXPECT_NE(run.result.error.message.find("invalid local write of 8 bytes at 0x10"), std::string::npos)
      << run.result.error.message;
}

TEST(Memcheck, GenericAddressesReachSharedAndLocalWindows) {
  std::string ptx = test::ptxKernel(
      ".shared .align 8 .b8 s[8]; .local .align 8 .b8 l[8]; .reg .u64 %sa, %ga, %la, %gl, %v, %w;",
      "mov.u64 %sa, s;\n"
      "cvta.shared.u64 %ga, %sa;\n"
      "st.u64 [%ga], 11;\n"
      "ld.shared.u64 %v, [%sa];\n"
      "mov.u64 %la, l;\n"
      "cvta.local.u64 %gl, %la;\n"
      "st.u64 [%gl], 22;\n"
      "ld.local.u64 %w, [%la];\n"
      "add.u64 %v, %v, %w;\n"
      "st.global.u64 [%out], %v;");
  test::KernelRun run = test::runKernel(ptx, {}, 1, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 33u);
}

TEST(Memcheck, HostCopiesOutsideAllocationsThrow) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  uint64_t a = device.malloc(16);
  std::vector<uint8_t> bytes(17);
  EXPECT_THROW(device.copyToDevice(a, bytes.data(), 17), Error);
  EXPECT_NO_THROW(device.copyToDevice(a, bytes.data(), 16));
  EXPECT_THROW(device.free(a + 8), Error);
  device.free(a);
  EXPECT_THROW(device.free(a), Error);
}

}  // namespace
}  // namespace ptxsim
