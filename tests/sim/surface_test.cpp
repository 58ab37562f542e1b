// Surface instructions (suld, sust, sured, suq) on surface objects over CUDA
// arrays, against texel values computed here by hand; and the texture
// coherence check's bookkeeping.

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "../../sim/src/checks/texture_coherence.h"
#include "../support/ptx_kernel.h"
#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim {
namespace {

using sim::ArrayShape;
using sim::ChannelKind;
using sim::ElementFormat;

// A device with one array and a surface object over it; kernels get the
// surface handle as %in and write 64-bit words to %out.
struct SurfaceFixture {
  Device device{sim::GpuConfig{}, DeviceOptions{1}};
  uint64_t arrayHandle = 0;
  std::shared_ptr<const sim::CudaArray> array;
  uint64_t surface = 0;

  explicit SurfaceFixture(ArrayShape shape) {
    shape.flags.surfaceLoadStore = true;
    std::string error;
    arrayHandle = device.gpu().textures().createArray(shape, error);
    EXPECT_NE(arrayHandle, 0u) << error;
    array = device.gpu().textures().array(arrayHandle);
    sim::SurfaceObject s;
    s.resource.kind = sim::ResourceKind::Array;
    s.resource.arrayHandle = arrayHandle;
    s.resource.array = array;
    surface = device.gpu().textures().createSurface(s);
  }

  test::KernelRun run(const std::string& ptx, size_t outWords, unsigned threads = 32) {
    auto module = device.loadModule(ptx, "test.ptx");
    uint64_t out = device.malloc(outWords * 8);
    device.memset(out, 0, outWords * 8);
    test::KernelRun r;
    r.result = device.launch(*module, "k", {1}, {threads}, 0, KernelArgs().add(surface).add(out));
    r.out = device.read<uint64_t>(out, outWords);
    return r;
  }
  template <typename T>
  void upload(const std::vector<T>& texels) {
    device.write(array->base, texels);
  }
  template <typename T>
  std::vector<T> download() {
    return device.read<T>(array->base, array->bytes() / sizeof(T));
  }
};

ArrayShape shape2d(ElementFormat f, uint64_t w, uint64_t h) {
  ArrayShape s;
  s.format = f;
  s.width = w;
  s.height = h;
  return s;
}

constexpr ElementFormat kUchar4{4, 8, ChannelKind::Unsigned};
constexpr ElementFormat kFloat1{1, 32, ChannelKind::Float};
constexpr ElementFormat kUint1{1, 32, ChannelKind::Unsigned};
constexpr ElementFormat kInt1{1, 32, ChannelKind::Signed};

// Thread t reads texel (t % 4, t / 4) of a 4x3 uchar4 array as .v4.b8
// (x in bytes), lane 12 and up read outside with the given boundary mode.
std::string readUchar4(const std::string& mode) {
  return test::ptxKernel(
      ".reg .u32 %x, %y, %xb; .reg .b16 %c<4>; .reg .u64 %w<4>, %a;",
      "rem.u32 %x, %tx, 4; div.u32 %y, %tx, 4; shl.b32 %xb, %x, 2;\n"
      "suld.b.2d.v4.b8" + mode + " {%c0, %c1, %c2, %c3}, [%in, {%xb, %y}];\n"
      "cvt.u64.u16 %w0, %c0; cvt.u64.u16 %w1, %c1; cvt.u64.u16 %w2, %c2; cvt.u64.u16 %w3, %c3;\n"
      "shl.b64 %w1, %w1, 8; shl.b64 %w2, %w2, 16; shl.b64 %w3, %w3, 24;\n"
      "or.b64 %w0, %w0, %w1; or.b64 %w0, %w0, %w2; or.b64 %w0, %w0, %w3;\n"
      "add.u64 %a, %out, %tx8; st.global.u64 [%a], %w0;");
}

std::vector<uint8_t> uchar4Pattern() {
  std::vector<uint8_t> texels(4 * 3 * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 7 + 1);
  return texels;
}

uint64_t packed(const std::vector<uint8_t>& t, uint64_t x, uint64_t y) {
  size_t o = (y * 4 + x) * 4;
  return t[o] | uint64_t{t[o + 1]} << 8 | uint64_t{t[o + 2]} << 16 | uint64_t{t[o + 3]} << 24;
}

TEST(SurfaceTest, LoadUchar4InBoundsAndZero) {
  SurfaceFixture f(shape2d(kUchar4, 4, 3));
  auto texels = uchar4Pattern();
  f.upload(texels);
  auto r = f.run(readUchar4(".zero"), 32);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  for (unsigned t = 0; t < 32; ++t) {
    uint64_t want = t < 12 ? packed(texels, t % 4, t / 4) : 0;
    EXPECT_EQ(r.out[t], want) << "thread " << t;
  }
}

TEST(SurfaceTest, LoadClampGoesToTheNearestTexel) {
  SurfaceFixture f(shape2d(kUchar4, 4, 3));
  auto texels = uchar4Pattern();
  f.upload(texels);
  auto r = f.run(readUchar4(".clamp"), 32);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  for (unsigned t = 0; t < 32; ++t) {
    uint64_t y = std::min(t / 4, 2u);
    EXPECT_EQ(r.out[t], packed(texels, t % 4, y)) << "thread " << t;
  }
}

TEST(SurfaceTest, LoadClampNegativeAndPastTheRow) {
  SurfaceFixture f(shape2d(kFloat1, 5, 2));
  std::vector<float> texels{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  f.upload(texels);
  // (x bytes, y): (-4,-1) -> (0,0); (400, 0) -> (4,0); (8, 9) -> (2,1).
  auto r = f.run(test::ptxKernel(".reg .b32 %v<3>; .reg .s32 %m4, %m1;",
                                 "mov.s32 %m4, -4; mov.s32 %m1, -1;\n"
                                 "suld.b.2d.b32.clamp %v0, [%in, {%m4, %m1}];\n"
                                 "suld.b.2d.b32.clamp %v1, [%in, {400, 0}];\n"
                                 "suld.b.2d.b32.clamp %v2, [%in, {8, 9}];\n"
                                 "st.global.b32 [%out], %v0; st.global.b32 [%out+8], %v1; "
                                 "st.global.b32 [%out+16], %v2;"),
                 3, 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(r.out[0], std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(r.out[1], std::bit_cast<uint32_t>(5.0f));
  EXPECT_EQ(r.out[2], std::bit_cast<uint32_t>(8.0f));
}

TEST(SurfaceTest, TrapIsAnIllegalAddressWithCoordinates) {
  SurfaceFixture f(shape2d(kUchar4, 4, 3));
  auto r = f.run(readUchar4(".trap"), 32);
  ASSERT_EQ(r.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  // Lane 12 is the first out of bounds: texel (0, 3).
  EXPECT_NE(r.result.error.message.find("suld.trap out of bounds at x 0 bytes, y 3"), std::string::npos)
      << r.result.error.message;
  EXPECT_NE(r.result.error.message.find("4x3 elements of 4 bytes"), std::string::npos) << r.result.error.message;
  EXPECT_NE(r.result.error.message.find("thread (12,0,0)"), std::string::npos) << r.result.error.message;
}

TEST(SurfaceTest, StoreFloatCopyAndZeroDropsOutOfBounds) {
  SurfaceFixture f(shape2d(kFloat1, 8, 2));
  // Thread t writes float(t + 0.5) at (t % 8, t / 8) with .zero: threads
  // 16..31 are outside and must change nothing.
  auto r = f.run(test::ptxKernel(".reg .u32 %x, %y; .reg .f32 %v;",
                                 "rem.u32 %x, %tx, 8; div.u32 %y, %tx, 8; shl.b32 %x, %x, 2;\n"
                                 "cvt.rn.f32.u32 %v, %tx; add.f32 %v, %v, 0f3F000000;\n"
                                 "sust.b.2d.b32.zero [%in, {%x, %y}], %v;"),
                 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  auto got = f.download<float>();
  ASSERT_EQ(got.size(), 16u);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(got[i], static_cast<float>(i) + 0.5f) << i;
}

TEST(SurfaceTest, StoreVectorBytesAndClamp) {
  SurfaceFixture f(shape2d(kUchar4, 2, 1));
  // Thread 0 writes {1,2,3,4} at x = 100 bytes: clamped to texel 1.
  auto r = f.run(test::ptxKernel("", "sust.b.2d.v4.b8.clamp [%in, {100, 0}], {1, 2, 3, 4};"), 1, 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(f.download<uint8_t>(), (std::vector<uint8_t>{0, 0, 0, 0, 1, 2, 3, 4}));
}

TEST(SurfaceTest, MisalignedByteCoordinate) {
  SurfaceFixture f(shape2d(kFloat1, 8, 2));
  auto r = f.run(test::ptxKernel(".reg .b32 %v;", "suld.b.2d.b32.zero %v, [%in, {2, 0}];"), 1, 1);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::MisalignedAddress) << r.result.error.message;
}

TEST(SurfaceTest, AccessSizeMustMatchTheElement) {
  SurfaceFixture f(shape2d(kUchar4, 8, 2));
  auto r = f.run(test::ptxKernel(".reg .b16 %v;", "suld.b.2d.b16.zero %v, [%in, {0, 0}];"), 1, 1);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::Unsupported) << r.result.error.message;
}

TEST(SurfaceTest, UnknownHandle) {
  SurfaceFixture f(shape2d(kFloat1, 8, 2));
  auto r = f.run(test::ptxKernel(".reg .b32 %v; .reg .u64 %h;",
                                 "add.u64 %h, %in, 1000; suld.b.2d.b32.zero %v, [%h, {0, 0}];"),
                 1, 1);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_NE(r.result.error.message.find("not a live surface object"), std::string::npos);
}

TEST(SurfaceTest, OneDimensionalAndThreeDimensional) {
  {
    ArrayShape s;
    s.format = kUint1;
    s.width = 6;
    SurfaceFixture f(s);
    f.upload(std::vector<uint32_t>{10, 11, 12, 13, 14, 15});
    auto r = f.run(test::ptxKernel(".reg .b32 %v; .reg .u32 %x;",
                                   "shl.b32 %x, %tx, 2; suld.b.1d.b32.zero %v, [%in, {%x}];\n"
                                   "add.u64 %tx8, %tx8, %out; st.global.b32 [%tx8], %v;"),
                   8, 8);
    ASSERT_FALSE(r.result.error) << r.result.error.message;
    EXPECT_EQ(r.out, (std::vector<uint64_t>{10, 11, 12, 13, 14, 15, 0, 0}));
  }
  {
    ArrayShape s;
    s.format = kUint1;
    s.width = 2;
    s.height = 3;
    s.depth = 4;
    SurfaceFixture f(s);
    std::vector<uint32_t> texels(24);
    for (unsigned i = 0; i < 24; ++i) texels[i] = 100 + i;
    f.upload(texels);
    // (x=1, y=2, z=3): 3*6 + 2*2 + 1 = 23.
    auto r = f.run(test::ptxKernel(".reg .b32 %v;", "suld.b.3d.b32.trap %v, [%in, {4, 2, 3, 0}];\n"
                                                    "st.global.b32 [%out], %v;"),
                   1, 1);
    ASSERT_FALSE(r.result.error) << r.result.error.message;
    EXPECT_EQ(r.out[0], 123u);
  }
}

TEST(SurfaceTest, LayeredWritesItsLayer) {
  ArrayShape s;
  s.format = kUint1;
  s.width = 2;
  s.height = 2;
  s.depth = 3;  // layers
  s.flags.layered = true;
  SurfaceFixture f(s);
  auto r = f.run(test::ptxKernel("", "sust.b.a2d.b32.trap [%in, {2, 4, 1, 0}], 77;\n"
                                     "sust.b.a1d.b32.zero [%in, {0, 0}], 5;"),  // a1d on a 2D layered array
                 1, 1);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::IllegalInstruction) << r.result.error.message;
  auto got = f.download<uint32_t>();
  // Layer 2, (x=1, y=1): 2*4 + 1*2 + 1 = 11.
  for (unsigned i = 0; i < 12; ++i) EXPECT_EQ(got[i], i == 11 ? 77u : 0u) << i;
}

TEST(SurfaceTest, ReductionsAcrossTheWarp) {
  SurfaceFixture f(shape2d(kInt1, 4, 1));
  f.upload(std::vector<int32_t>{0, 100, -100, 0x0f});
  // Every lane: add 1 to texel 0; min(tid - 20) into texel 1; max(tid - 20)
  // into texel 2; or (1 << tid % 8) into texel 3.
  auto r = f.run(test::ptxKernel(".reg .s32 %m; .reg .b32 %bit, %sh;",
                                 "sured.b.add.2d.s32.trap [%in, {0, 0}], 1;\n"
                                 "sub.s32 %m, %tx, 20;\n"
                                 "sured.b.min.2d.s32.trap [%in, {4, 0}], %m;\n"
                                 "sured.b.max.2d.s32.trap [%in, {8, 0}], %m;\n"
                                 "rem.u32 %sh, %tx, 8; shl.b32 %bit, 1, %sh;\n"
                                 "sured.b.or.2d.b32.trap [%in, {12, 0}], %bit;"),
                 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(f.download<int32_t>(), (std::vector<int32_t>{32, -20, 11, 0xff}));
}

TEST(SurfaceTest, UnsignedMinAndZeroModeDropsReductions) {
  SurfaceFixture f(shape2d(kUint1, 2, 1));
  f.upload(std::vector<uint32_t>{0x80000000u, 7});
  auto r = f.run(test::ptxKernel("", "sured.b.min.2d.u32.trap [%in, {0, 0}], 5;\n"
                                     "sured.b.add.2d.u32.zero [%in, {8, 0}], 5;"),
                 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(f.download<uint32_t>(), (std::vector<uint32_t>{5, 7}));
}

TEST(SurfaceTest, Queries) {
  ArrayShape s;
  s.format = ElementFormat{2, 16, ChannelKind::Float};
  s.width = 7;
  s.height = 5;
  s.depth = 3;
  s.flags.layered = true;
  SurfaceFixture f(s);
  auto r = f.run(test::ptxKernel(".reg .b32 %q<7>;",
                                 "suq.width.b32 %q0, [%in]; suq.height.b32 %q1, [%in]; suq.depth.b32 %q2, [%in];\n"
                                 "suq.array_size.b32 %q3, [%in]; suq.channel_data_type.b32 %q4, [%in];\n"
                                 "suq.channel_order.b32 %q5, [%in]; suq.memory_layout.b32 %q6, [%in];\n"
                                 "st.global.b32 [%out], %q0; st.global.b32 [%out+8], %q1;\n"
                                 "st.global.b32 [%out+16], %q2; st.global.b32 [%out+24], %q3;\n"
                                 "st.global.b32 [%out+32], %q4; st.global.b32 [%out+40], %q5;\n"
                                 "st.global.b32 [%out+48], %q6;"),
                 7, 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  // CL_HALF_FLOAT = 0x10DD, CL_RG = 0x10B2.
  EXPECT_EQ(r.out, (std::vector<uint64_t>{7, 5, 1, 3, 0x10DD, 0x10B2, 0}));
}

TEST(SurfaceTest, FormattedStoreConvertsToHalf) {
  ArrayShape s = shape2d(ElementFormat{2, 16, ChannelKind::Float}, 2, 1);
  SurfaceFixture f(s);
  // sust.p: x counts elements. 1.5f -> 0x3E00; 65520f rounds to infinity
  // (0x7C00) under round-to-nearest-even; 1 + 2^-11 ties to even -> 0x3C00.
  auto r = f.run(test::ptxKernel("", "sust.p.2d.v2.b32.trap [%in, {1, 0}], {0f3FC00000, 0f477FF000};\n"
                                     "sust.p.2d.v2.b32.trap [%in, {0, 0}], {0f3F800800, 0fC0000000};"),
                 1, 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(f.download<uint16_t>(), (std::vector<uint16_t>{0x3C00, 0xC000, 0x3E00, 0x7C00}));
}

TEST(SurfaceTest, ModuleLoadRefusesSurfaceReferences) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.global .surfref s;\n"
                    ".visible .entry k() {\n.reg .b32 %v;\nsuld.b.1d.b32.trap %v, [s, {0}];\nret;\n}\n";
  std::string error = test::moduleLoadError(ptx, "t.ptx");
  EXPECT_NE(error.find("suld"), std::string::npos) << error;
}

// The coherence check, fed directly: a sust-like write by thread 3 and a
// texture read by thread 3 after it (hazard), a read of a granule only
// another thread writes later (hazard), and a thread that reads then
// writes its own texel (no hazard).
TEST(TextureCoherenceTest, ReportsWriteReadPairsOnce) {
  isa::Instruction writer, reader, laterWriter;
  writer.where.line = 10;
  reader.where.line = 20;
  laterWriter.where.line = 30;
  auto spec = [](isa::Opcode op) { return &isa::rowsFor(op)[0]; };
  writer.spec = spec(isa::Opcode::Sust);
  reader.spec = spec(isa::Opcode::Tex);
  laterWriter.spec = spec(isa::Opcode::St);
  sim::checks::TextureCoherenceChecker c("k", sim::Dim3{32, 1, 1}, {{0x1000, 0x100}});
  c.noteWrite(0x1000, 4, writer, 3);
  c.noteRead(0x1000, 4, reader, 3);
  c.noteRead(0x1002, 2, reader, 4);  // same pair again: one report
  c.noteRead(0x1040, 4, reader, 5);
  c.noteWrite(0x1040, 4, laterWriter, 5);  // own texel, read before: fine
  c.noteWrite(0x2000, 4, laterWriter, 6);  // outside the watched range
  c.noteRead(0x2000, 4, reader, 7);
  auto h = c.hazards();
  ASSERT_EQ(h.size(), 1u);
  EXPECT_NE(h[0].find("tex at PTX line 20 reads memory that sust at PTX line 10"), std::string::npos) << h[0];
  c.noteRead(0x1048, 4, reader, 8);
  c.noteWrite(0x1048, 4, laterWriter, 9);  // another thread read it: a race
  h = c.hazards();
  ASSERT_EQ(h.size(), 2u);
  EXPECT_NE(h[1].find("tex at PTX line 20 reads memory that st at PTX line 30"), std::string::npos) << h[1];
}

// Through a launch: sust to an array that a texture object also reads is a
// watched write; the texture read itself comes from the tex handlers.
TEST(TextureCoherenceTest, LaunchWatchesBoundArrays) {
  SurfaceFixture f(shape2d(kFloat1, 4, 1));
  sim::TextureObject t;
  t.resource = f.device.gpu().textures().surface(f.surface)->resource;
  f.device.gpu().textures().createTexture(t);
  auto ranges = f.device.gpu().textures().boundRanges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].first, f.array->base);
  EXPECT_EQ(ranges[0].second, 16u);
  f.device.launchOptions().checkWarpSync = true;
  auto r = f.run(test::ptxKernel("", "sust.b.2d.b32.trap [%in, {0, 0}], 1;"), 1, 1);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_TRUE(r.result.warnings.empty());  // a write alone is no hazard
}

}  // namespace
}  // namespace ptxsim
