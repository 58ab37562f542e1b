// The executor's per-instruction report, seen through a StepObserver: what
// a timing model will consume (lanes, unit class, branch outcome, memory
// space, access size, lane addresses).

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../support/ptx_kernel.h"
#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim {
namespace {

struct Recorder : sim::StepObserver {
  std::vector<sim::StepReport> reports;
  void onStep(const sim::StepReport& r) override { reports.push_back(r); }
};

TEST(StepReport, VectorAddReportsLanesBranchesAndAddresses) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  Recorder recorder;
  device.launchOptions().observer = &recorder;
  auto module = device.loadModuleFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
  const int n = 40;  // one block of 64: warp 1 has 8 lanes in range
  uint64_t a = device.malloc(n * 4), b = device.malloc(n * 4), c = device.malloc(n * 4);
  sim::LaunchResult r = device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {1}, {64}, 0,
                                      KernelArgs().add(a).add(b).add(c).add(n));
  ASSERT_FALSE(r.error) << r.error.message;
  ASSERT_EQ(recorder.reports.size(), r.stats.warpInstructions);
  unsigned loads = 0, stores = 0, branches = 0;
  for (const sim::StepReport& s : recorder.reports) {
    ASSERT_NE(s.instruction, nullptr);
    EXPECT_EQ(s.unit, s.instruction->unit);
    uint32_t inRange = s.warp == 0 ? 0xffffffffu : 0xffu;
    if (s.instruction->opcode == isa::Opcode::Bra) {
      ++branches;
      // Lanes out of range take the branch to the final ret.
      EXPECT_EQ(s.taken, ~inRange & s.active) << "warp " << s.warp;
    }
    if (s.access == sim::AccessKind::Load && s.space == sim::AddressSpace::Global) {
      ++loads;
      EXPECT_EQ(s.accessBytes, 4u);
      EXPECT_EQ(s.executed, inRange);
      for (unsigned l = 0; l < 32; ++l) {
        if ((s.executed >> l) & 1) {
          uint64_t index = s.warp * 32 + l;
          EXPECT_TRUE(s.addresses[l] == a + 4 * index || s.addresses[l] == b + 4 * index) << l;
        }
      }
    }
    if (s.access == sim::AccessKind::Store) {
      ++stores;
      EXPECT_EQ(s.unit, isa::UnitClass::Memory);
      for (unsigned l = 0; l < 32; ++l) {
        if ((s.executed >> l) & 1) EXPECT_EQ(s.addresses[l], c + 4 * (s.warp * 32 + l));
      }
    }
  }
  EXPECT_EQ(loads, 4u);  // two per warp
  EXPECT_EQ(stores, 2u);
  EXPECT_EQ(branches, 2u);
}

TEST(StepReport, TextureFetchesReportEveryTexelTheyRead) {
  // A pitched 2D float texture of 8 x 8 texels, rows 64 bytes apart, read
  // by 4 lanes: tex1Dfetch-style point reads one texel a lane; a bilinear
  // fetch at (x + 1, 1) in texel units reads (x, 0), (x + 1, 0), (x, 1),
  // (x + 1, 1).
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  Recorder recorder;
  device.launchOptions().observer = &recorder;
  uint64_t buffer = device.malloc(512);
  device.memset(buffer, 0, 512);
  sim::TextureObject t;
  t.resource.kind = sim::ResourceKind::Pitch2D;
  t.resource.devPtr = buffer;
  t.resource.format = sim::ElementFormat{1, 32, sim::ChannelKind::Float};
  t.resource.width = 8;
  t.resource.height = 8;
  t.resource.pitchInBytes = 64;
  t.desc.filterMode = sim::FilterMode::Linear;
  uint64_t handle = device.gpu().textures().createTexture(std::move(t));
  std::string body =
      "ld.global.u64 %h, [%in];\ncvt.rn.f32.u32 %x, %tx;\nadd.f32 %x, %x, 0f3F800000;\n"
      "tex.2d.v4.f32.f32 {%g0, %g1, %g2, %g3}, [%h, {%x, %y}];\n";
  std::string ptx = test::ptxKernel(".reg .u64 %h; .reg .f32 %g0, %g1, %g2, %g3, %x, %y;",
                                    "mov.f32 %y, 0f3F800000;\n" + body);
  auto module = device.loadModule(ptx, "test.ptx");
  uint64_t in = device.malloc(8);
  device.write(in, std::vector<uint64_t>{handle});
  uint64_t out = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {4}, 0, KernelArgs().add(in).add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  const sim::StepReport* fetch = nullptr;
  for (const sim::StepReport& s : recorder.reports) {
    if (s.instruction->opcode == isa::Opcode::Tex) fetch = &s;
    else EXPECT_TRUE(s.texels.empty());
  }
  ASSERT_NE(fetch, nullptr);
  EXPECT_EQ(fetch->access, sim::AccessKind::Load);
  EXPECT_EQ(fetch->space, sim::AddressSpace::Texture);
  EXPECT_EQ(fetch->accessBytes, 4u);
  ASSERT_EQ(fetch->texels.size(), 16u);
  std::set<uint64_t> want, got(fetch->texels.begin(), fetch->texels.end());
  for (uint64_t lane = 0; lane < 4; ++lane) {
    EXPECT_EQ(fetch->addresses[lane] % 4, 0u);
    for (uint64_t dy = 0; dy < 2; ++dy)
      for (uint64_t dx = 0; dx < 2; ++dx) want.insert(buffer + dy * 64 + (lane + dx) * 4);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(fetch->texelLanes, (std::vector<uint8_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
}

TEST(StepReport, ArrayTexelsAreReportedWhereTheBlockLinearLayoutPutsThem) {
  // A 64 x 64 float CUDA array (256-byte rows) read at texel (4 lane, 1) by
  // 4 lanes with point sampling: the functional address is row-major,
  // base + 256 + 16 lane; the caches' is block-linear (block_linear.h):
  // x byte b = 16 lane is in GOB b / 64, which starts a block of 8 GOBs
  // (4 KiB: 64 rows); within the GOB, x bit 4 is offset bit 5, x bit 5 is
  // bit 8 and row 1 is bit 4.
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  Recorder recorder;
  device.launchOptions().observer = &recorder;
  sim::ArrayShape shape;
  shape.format = sim::ElementFormat{1, 32, sim::ChannelKind::Float};
  shape.width = 64;
  shape.height = 64;
  std::string error;
  uint64_t array = device.gpu().textures().createArray(shape, error);
  ASSERT_NE(array, 0u) << error;
  const uint64_t base = device.gpu().textures().array(array)->base;
  sim::TextureObject t;
  t.resource.kind = sim::ResourceKind::Array;
  t.resource.arrayHandle = array;
  t.resource.array = device.gpu().textures().array(array);
  uint64_t handle = device.gpu().textures().createTexture(std::move(t));
  std::string body =
      "ld.global.u64 %h, [%in];\ncvt.rn.f32.u32 %x, %tx;\nmul.f32 %x, %x, 0f40800000;\nadd.f32 %x, %x, 0f3F000000;\n"
      "tex.2d.v4.f32.f32 {%g0, %g1, %g2, %g3}, [%h, {%x, %y}];\n";
  std::string ptx = test::ptxKernel(".reg .u64 %h; .reg .f32 %g0, %g1, %g2, %g3, %x, %y;",
                                    "mov.f32 %y, 0f3FC00000;\n" + body);
  auto module = device.loadModule(ptx, "test.ptx");
  uint64_t in = device.malloc(8);
  device.write(in, std::vector<uint64_t>{handle});
  uint64_t out = device.malloc(8);
  sim::LaunchResult r = device.launch(*module, "k", {1}, {8}, 0, KernelArgs().add(in).add(out));
  ASSERT_FALSE(r.error) << r.error.message;
  const sim::StepReport* fetch = nullptr;
  for (const sim::StepReport& s : recorder.reports)
    if (s.instruction->opcode == isa::Opcode::Tex) fetch = &s;
  ASSERT_NE(fetch, nullptr);
  ASSERT_EQ(fetch->texels.size(), 8u);
  for (unsigned lane = 0; lane < 8; ++lane) {
    EXPECT_EQ(fetch->addresses[lane], base + 256 + 16 * lane) << lane;
    EXPECT_EQ(fetch->texelLanes[lane], lane);
    const uint64_t x = 16 * lane;  // the texel's first byte in its row
    EXPECT_EQ(fetch->texels[lane], base + 4096 * (x / 64) + 16 + 32 * ((x >> 4) & 1) + 256 * ((x >> 5) & 1)) << lane;
  }
}

}  // namespace
}  // namespace ptxsim
