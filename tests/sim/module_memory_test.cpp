// Module-scope variables (.global and .const with initializers and address
// relocations), reading and writing them through the host API, dynamic
// shared memory, and kernel parameters of several sizes.

#include <gtest/gtest.h>

#include <cstring>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

const char* kGlobals = R"(
.version 9.0
.target sm_90
.address_size 64

.const .align 4 .u32 weights[4] = {3, 5, 7, 11};
.global .align 4 .u32 counter = 40;
.global .align 8 .u64 pointer_to_weights_2 = generic(weights)+8;
.global .align 4 .b8 message[6] = {104, 101, 108, 108, 111, 0};

.visible .entry k(.param .u64 out_param, .param .u32 scale, .param .align 8 .b8 pair[16])
{
  .reg .u32 %w, %c, %s, %x, %m;
  .reg .u64 %out, %p, %lo, %hi;
  ld.param.u64 %out, [out_param];
  ld.param.u32 %s, [scale];
  ld.param.u64 %lo, [pair];
  ld.param.u64 %hi, [pair+8];
  ld.const.u32 %w, [weights+12];
  ld.global.u32 %c, [counter];
  ld.global.u64 %p, [pointer_to_weights_2];
  ld.u32 %x, [%p];
  ld.global.u8 %m, [message+1];
  mad.lo.u32 %c, %w, %s, %c;
  st.global.u32 [counter], %c;
  st.global.u32 [%out], %c;
  st.global.u32 [%out+4], %x;
  st.global.u32 [%out+8], %m;
  sub.u64 %lo, %hi, %lo;
  st.global.u64 [%out+16], %lo;
  ret;
}
)";

TEST(ModuleMemory, GlobalsConstantsRelocationsAndParameters) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(kGlobals);
  uint64_t out = device.malloc(24);
  struct Pair {
    uint64_t lo, hi;
  } pair{5, 1005};
  sim::LaunchResult r =
      device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(out).add(uint32_t{2}).add(pair));
  ASSERT_FALSE(r.error) << r.error.message;
  std::vector<uint32_t> got = device.read<uint32_t>(out, 3);
  EXPECT_EQ(got[0], 11u * 2u + 40u);  // weights[3] * scale + counter
  EXPECT_EQ(got[1], 7u);              // *(weights + 2), through the relocated pointer
  EXPECT_EQ(got[2], uint32_t{'e'});
  EXPECT_EQ(device.read<uint64_t>(out + 16, 1)[0], 1000u);
  // The kernel's store to `counter` is visible through the symbol.
  uint64_t size = 0;
  uint64_t counter = device.symbolAddress(*module, "counter", &size);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(device.read<uint32_t>(counter, 1)[0], 62u);
  // And a host write to it is seen by the next launch.
  device.write<uint32_t>(counter, {100});
  r = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(out).add(uint32_t{1}).add(pair));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(device.read<uint32_t>(out, 1)[0], 111u);
  EXPECT_THROW(device.symbolAddress(*module, "missing"), Error);
}

TEST(ModuleMemory, KernelParametersAndConstantsThroughGenericAddresses) {
  const char* ptx = R"(
.version 9.0
.target sm_90
.address_size 64
.const .align 4 .u32 c = 77;
.visible .entry k(.param .u64 out_param)
{
  .reg .u64 %p, %g;
  .reg .u32 %v, %w;
  .reg .pred %q;
  mov.u64 %p, out_param;
  cvta.param.u64 %g, %p;
  ld.u64 %p, [%g];
  mov.u64 %g, c;
  cvta.const.u64 %g, %g;
  ld.u32 %v, [%g];
  isspacep.const %q, %g;
  selp.u32 %w, 1, 0, %q;
  st.global.v2.u32 [%p], {%v, %w};
  ret;
}
)";
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  uint64_t out = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(device.read<uint32_t>(out, 2), (std::vector<uint32_t>{77, 1}));
}

TEST(ModuleMemory, ArgumentsOfTheWrongSizeOrCountAreRejected) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(kGlobals);
  EXPECT_THROW(device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(uint64_t{0})), Error);
  EXPECT_THROW(device.launch(*module, "k", {1}, {1}, 0,
                             KernelArgs().add(uint64_t{0}).add(uint64_t{2}).add(uint64_t{0})),
               Error);
  EXPECT_THROW(device.launch(*module, "nope", {1}, {1}, 0, KernelArgs()), Error);
}

TEST(ModuleMemory, DynamicSharedMemoryFollowsStaticSharedMemory) {
  // Static 12 bytes, then the dynamic array (16-byte aligned: offset 16).
  // Each thread writes t to dyn[t], syncs, reads dyn[(t+1) % n].
  std::string ptx = test::ptxKernel(
      ".shared .align 4 .b8 fixed[12]; .extern .shared .align 16 .b8 dyn[]; .reg .u32 %a, %b, %n, %v, %d, %f;"
      " .reg .u64 %o; .reg .pred %p;",
      "mov.u32 %a, dyn;\n"
      "mov.u32 %f, fixed;\n"
      "sub.u32 %d, %a, %f;\n"
      "mad.lo.u32 %b, %tx, 4, %a;\n"
      "st.shared.u32 [%b], %tx;\n"
      "bar.sync 0;\n"
      "mov.u32 %n, %ntid.x;\n"
      "add.u32 %v, %tx, 1;\n"
      "setp.eq.u32 %p, %v, %n;\n"
      "@%p mov.u32 %v, 0;\n"
      "mad.lo.u32 %b, %v, 4, %a;\n"
      "ld.shared.u32 %v, [%b];\n"
      "mov.u32 %n, %dynamic_smem_size;\n"
      "add.u64 %o, %out, %tx8;\n"
      "st.global.v2.u32 [%o], {%v, %d};\n"
      "setp.ne.u32 %p, %tx, 0;\n"
      "@%p bra DONE;\n"
      "mov.u32 %n, %total_smem_size;\n"
      "st.global.u32 [%out+512], %n;\n"
      "DONE:");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  uint64_t out = device.malloc(520);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {64}, 256, KernelArgs().add(out).add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  std::vector<uint32_t> got = device.read<uint32_t>(out, 130);
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(got[2 * t], (t + 1) % 64) << t;
    EXPECT_EQ(got[2 * t + 1], 16u) << t;  // dyn sits 16 bytes after fixed
  }
  EXPECT_EQ(got[128], 16u + 256u);
  EXPECT_EQ(r.stats.staticSharedBytes, 12u);
  // Beyond the dynamic size the launch faults.
  r = device.launch(*module, "k", {1}, {64}, 128, KernelArgs().add(out).add(out));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::IllegalAddress) << r.error.message;
}

// As ptxas allocates, a kernel's static shared memory is the module-scope
// arrays it can reach (through the functions it calls) and its own: the
// other kernel's 40 KiB array and the helper's 128 bytes count only where
// they are used. Counting every array for every kernel put `big` over the
// 48 KiB static limit (bandwidth.cu's smemRead did).
TEST(ModuleMemory, AKernelsStaticSharedMemoryIsWhatItReaches) {
  std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.shared .align 4 .b8 helperSums[128];
.shared .align 16 .b8 other[40960];
.func (.param .u32 r) helper(.param .u32 a)
{
  .reg .u32 %x, %y;
  ld.param.u32 %y, [a];
  mov.u32 %x, helperSums;
  add.u32 %x, %x, %y;
  st.param.u32 [r], %x;
  ret;
}
.visible .entry usesHelper(.param .u64 out)
{
  .reg .u32 %v;
  .reg .u64 %o;
  ld.param.u64 %o, [out];
  {
    .param .u32 arg;
    .param .u32 result;
    st.param.u32 [arg], 1;
    call (result), helper, (arg);
    ld.param.u32 %v, [result];
  }
  st.global.u32 [%o], %v;
  ret;
}
.visible .entry usesOther(.param .u64 out)
{
  .reg .u32 %v;
  .reg .u64 %o;
  ld.param.u64 %o, [out];
  mov.u32 %v, other;
  st.global.u32 [%o], %v;
  ret;
}
.visible .entry big(.param .u64 out)
{
  .shared .align 16 .b8 mine[45056];
  .reg .u32 %v;
  .reg .u64 %o;
  ld.param.u64 %o, [out];
  mov.u32 %v, mine;
  st.global.u32 [%o], %v;
  ret;
}
)";
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  uint64_t out = device.malloc(4);
  sim::LaunchResult r = device.launch(*module, "usesHelper", {1}, {32}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(r.stats.staticSharedBytes, 128u);
  r = device.launch(*module, "usesOther", {1}, {32}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(r.stats.staticSharedBytes, 40960u);
  r = device.launch(*module, "big", {1}, {32}, 0, KernelArgs().add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  EXPECT_EQ(r.stats.staticSharedBytes, 45056u);
  EXPECT_EQ(device.read<uint32_t>(out, 1)[0], 0u);  // `mine` is the kernel's only shared array
}

TEST(ModuleMemory, TooMuchSharedMemoryIsRejectedBeforeTheLaunch) {
  std::string ptx = test::ptxKernel(".shared .align 4 .b8 big[1024];", "");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {32}, 300 * 1024, KernelArgs().add(uint64_t{0}).add(uint64_t{0}));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::OutOfResources) << r.error.message;
  r = device.launch(*module, "k", {1}, {2048}, 0, KernelArgs().add(uint64_t{0}).add(uint64_t{0}));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::InvalidConfiguration) << r.error.message;
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

TEST(ModuleMemory, Registers128BitsWideMoveLoadAndStoreBothHalves) {
  std::string ptx = test::ptxKernel(".reg .b128 %q, %r; .reg .b64 %lo, %hi, %x, %y;",
                                    "ld.global.b128 %q, [%in];\n"
                                    "mov.b128 {%lo, %hi}, %q;\n"
                                    "mov.b128 %r, {%hi, %lo};\n"
                                    "st.global.b128 [%out], %r;\n"
                                    "mov.b128 %q, %r;\n"
                                    "mov.b128 {%x, %y}, %q;\n"
                                    "st.global.v2.b64 [%out+16], {%y, %x};");
  test::KernelRun run = test::runKernel(ptx, {0x1111222233334444ull, 0x5555666677778888ull}, 4, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, (std::vector<uint64_t>{0x5555666677778888ull, 0x1111222233334444ull, 0x1111222233334444ull,
                                           0x5555666677778888ull}));
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

TEST(ModuleMemory, CpAsyncCopiesGlobalToSharedWithZeroFill) {
  // Thread t copies 16 bytes of in[2t..2t+1] to shared, with a source size
  // of 4*(t%5) bytes (the rest zero-filled), then reads them back.
  std::string ptx = test::ptxKernel(
      ".shared .align 16 .b8 s[512]; .reg .u32 %d, %n, %m; .reg .u64 %src, %a, %b, %o;",
      "mov.u32 %d, s;\n"
      "mad.lo.u32 %d, %tx, 16, %d;\n"
      "mul.wide.u32 %src, %tx, 16;\n"
      "add.u64 %src, %in, %src;\n"
      "rem.u32 %m, %tx, 5;\n"
      "mul.lo.u32 %n, %m, 4;\n"
      "cp.async.cg.shared.global [%d], [%src], 16, %n;\n"
      "cp.async.commit_group;\n"
      "cp.async.wait_group 0;\n"
      "ld.shared.v2.u64 {%a, %b}, [%d];\n"
      "mul.wide.u32 %o, %tx, 16;\n"
      "add.u64 %o, %out, %o;\n"
      "st.global.v2.u64 [%o], {%a, %b};");
  std::vector<uint64_t> in(64);
  for (unsigned i = 0; i < 64; ++i) in[i] = 0x0101010101010101ull * (i + 1);
  test::KernelRun run = test::runKernel(ptx, in, 64, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned t = 0; t < 32; ++t) {
    uint8_t expected[16] = {};
    std::memcpy(expected, &in[2 * t], 4 * (t % 5));
    uint64_t lo, hi;
    std::memcpy(&lo, expected, 8);
    std::memcpy(&hi, expected + 8, 8);
    EXPECT_EQ(run.out[2 * t], lo) << t;
    EXPECT_EQ(run.out[2 * t + 1], hi) << t;
  }
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

TEST(ModuleMemory, KernelsReachRegisteredHostMemoryAtItsOwnAddresses) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(test::ptxKernel(".reg .u64 %a, %v;",
                                                  "add.u64 %a, %in, %tx8;\n"
                                                  "ld.global.u64 %v, [%a];\n"
                                                  "add.u64 %v, %v, %v;\n"
                                                  "st.global.u64 [%a], %v;"));
  std::vector<uint64_t> host(32);
  for (unsigned i = 0; i < 32; ++i) host[i] = i + 1;
  device.registerHostMemory(host.data(), host.size() * 8, memory::AllocationKind::Managed);
  auto address = reinterpret_cast<uint64_t>(host.data());
  sim::LaunchResult r = device.launch(*module, "k", {1}, {32}, 0, KernelArgs().add(address).add(address));
  ASSERT_FALSE(r.error) << r.error.message;
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(host[i], 2u * (i + 1));
  // Host copies reach it too, and one past the end is out of bounds.
  EXPECT_EQ(device.read<uint64_t>(address + 8, 1)[0], 4u);
  EXPECT_THROW(device.read<uint64_t>(address + 256, 1), Error);
  device.forgetHostMemory(host.data());
  r = device.launch(*module, "k", {1}, {32}, 0, KernelArgs().add(address).add(address));
  EXPECT_EQ(r.error.kind, sim::LaunchErrorKind::IllegalAddress);
}

}  // namespace
}  // namespace ptxsim
