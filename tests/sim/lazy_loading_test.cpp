// Lazy module loading (ptxsim/sim/module_loading.h): a kernel that uses an
// instruction the simulator lacks, here through a device function only it
// calls, fails when it is first used, naming the instruction; the module's
// other kernel loads and runs. Eager loading fails the whole module.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

// Line 7 holds tcgen05.fence (sm_100a; not implemented). `scaled` computes
// out[i] = 3 * in[i] + 1.
const char* kModule =
    ".version 9.0\n"                                   // 1
    ".target sm_100a\n"                                // 2
    ".address_size 64\n"                               // 3
    "\n"                                               // 4
    ".func fence_only()\n"                             // 5
    "{\n"                                              // 6
    "  tcgen05.fence::before_thread_sync;\n"           // 7
    "  ret;\n"                                         // 8
    "}\n"                                              // 9
    ".visible .entry fenced(.param .u64 out_param)\n"  // 10
    "{\n"                                              // 11
    "  call fence_only;\n"                             // 12
    "  ret;\n"                                         // 13
    "}\n"                                              // 14
    ".visible .entry scaled(.param .u64 in_param, .param .u64 out_param)\n"
    "{\n"
    "  .reg .u64 %in, %out, %offset;\n"
    "  .reg .u32 %tx, %v;\n"
    "  ld.param.u64 %in, [in_param];\n"
    "  ld.param.u64 %out, [out_param];\n"
    "  mov.u32 %tx, %tid.x;\n"
    "  mul.wide.u32 %offset, %tx, 4;\n"
    "  add.u64 %in, %in, %offset;\n"
    "  add.u64 %out, %out, %offset;\n"
    "  ld.global.u32 %v, [%in];\n"
    "  mad.lo.u32 %v, %v, 3, 1;\n"
    "  st.global.u32 [%out], %v;\n"
    "  ret;\n"
    "}\n";

constexpr unsigned kThreads = 64;

// Runs `scaled` on 0, 1, ..., kThreads-1 and returns its output.
std::vector<uint32_t> runScaled(Device& device, sim::LoadedModule& module) {
  std::vector<uint32_t> in(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) in[i] = i;
  uint64_t inAddress = device.upload(in);
  uint64_t outAddress = device.malloc(kThreads * 4);
  sim::LaunchResult r =
      device.launch(module, "scaled", {1}, {kThreads}, 0, KernelArgs().add(inAddress).add(outAddress));
  EXPECT_FALSE(r.error) << r.error.message;
  return device.read<uint32_t>(outAddress, kThreads);
}

std::vector<uint32_t> expectedScaled() {
  std::vector<uint32_t> out(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) out[i] = 3 * i + 1;
  return out;
}

TEST(LazyLoading, AModuleWithAnUnsupportedKernelLoadsAndItsOtherKernelRuns) {
  Device device(sim::GpuConfig{}, DeviceOptions{.hostThreads = 1});
  auto module = device.loadModule(kModule, "lazy.ptx");
  EXPECT_EQ(runScaled(device, *module), expectedScaled());
}

TEST(LazyLoading, TheUnsupportedKernelFailsAtLaunchNamingTheInstruction) {
  Device device(sim::GpuConfig{}, DeviceOptions{.hostThreads = 1});
  auto module = device.loadModule(kModule, "lazy.ptx");
  uint64_t out = device.malloc(4);
  for (int attempt = 0; attempt < 2; ++attempt) {  // the same failure at every use
    sim::LaunchResult r = device.launch(*module, "fenced", {1}, {32}, 0, KernelArgs().add(out));
    ASSERT_EQ(r.error.kind, sim::LaunchErrorKind::InvalidPtx) << r.error.message;
    EXPECT_EQ(
        r.error.message,
        "kernel fenced cannot be loaded: unsupported instruction tcgen05.fence.before_thread_sync at PTX line 7: "
        "not implemented");
    EXPECT_EQ(r.stats.warpInstructions, 0u);
  }
  // The failure leaves the device usable.
  EXPECT_EQ(runScaled(device, *module), expectedScaled());
}

TEST(LazyLoading, QueryingTheUnsupportedKernelsResourcesFailsLikeItsLaunch) {
  Device device(sim::GpuConfig{}, DeviceOptions{.hostThreads = 1});
  auto module = device.loadModule(kModule, "lazy.ptx");
  sim::Gpu::KernelResources resources;
  sim::LaunchError fenced = device.gpu().kernelResources(*module, "fenced", resources);
  EXPECT_EQ(fenced.kind, sim::LaunchErrorKind::InvalidPtx);
  EXPECT_NE(fenced.message.find("tcgen05.fence"), std::string::npos) << fenced.message;
  sim::LaunchError scaled = device.gpu().kernelResources(*module, "scaled", resources);
  EXPECT_FALSE(scaled) << scaled.message;
  EXPECT_EQ(resources.parameterBytes, 16u);
  EXPECT_EQ(device.gpu().kernelResources(*module, "absent", resources).kind,
            sim::LaunchErrorKind::InvalidValue);
}

TEST(LazyLoading, EagerLoadingFailsTheWholeModule) {
  Device device(sim::GpuConfig{},
                DeviceOptions{.hostThreads = 1, .moduleLoading = sim::ModuleLoading::Eager});
  try {
    device.loadModule(kModule, "eager.ptx");
    FAIL() << "the module loaded";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "eager.ptx: error: unsupported instruction tcgen05.fence.before_thread_sync at PTX line 7: not "
              "implemented\n");
  }
}

TEST(LazyLoading, CudaModuleLoadingValuesParse) {
  EXPECT_EQ(sim::parseModuleLoading("LAZY"), sim::ModuleLoading::Lazy);
  EXPECT_EQ(sim::parseModuleLoading("EAGER"), sim::ModuleLoading::Eager);
  EXPECT_EQ(sim::parseModuleLoading(""), std::nullopt);
}

}  // namespace
}  // namespace ptxsim
