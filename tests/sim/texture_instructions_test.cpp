// tex, tld4, txq and istypep on texture objects, run from hand-written PTX against hand-derived values,
// the sampler's GPU-recorded results (tests/sim/texture_sampling_test.cpp) and txq/istypep values
// measured on an H100.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../support/ptx_kernel.h"
#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim::test {
namespace {

using sim::AddressMode;
using sim::ArrayShape;
using sim::ChannelKind;
using sim::ElementFormat;
using sim::FilterMode;
using sim::ReadMode;
using sim::ResourceKind;
using sim::TextureDesc;
using sim::TextureObject;

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

// A device with textures: arrays are filled texel by texel, the kernel reads the handle from in[0]
// and per-lane inputs from in[1 + tid].
class TextureTest : public ::testing::Test {
 protected:
  Device device{sim::GpuConfig{}, DeviceOptions{1}};
  sim::TextureRegistry& reg() { return device.gpu().textures(); }

  uint64_t array(ElementFormat f, uint64_t w, uint64_t h, uint64_t d, sim::ArrayFlags flags = {},
                 uint32_t levels = 1) {
    ArrayShape s;
    s.format = f;
    s.width = w;
    s.height = h;
    s.depth = d;
    s.flags = flags;
    s.levels = levels;
    std::string error;
    const uint64_t handle = reg().createArray(s, error);
    EXPECT_NE(handle, 0u) << error;
    return handle;
  }
  // Writes one texel of an array (or of a level of a mipmapped array) from `bytes`.
  void put(const sim::CudaArray& a, uint64_t layer, uint64_t x, uint64_t y, uint64_t z, const void* bytes) {
    writeRaw(a.texelAddress(layer, x, y, z), bytes, a.format.bytes());
  }
  void writeRaw(uint64_t address, const void* bytes, size_t n) {
    const auto* p = static_cast<const uint8_t*>(bytes);
    device.write(address, std::vector<uint8_t>(p, p + n));
  }
  void putF(const sim::CudaArray& a, uint64_t layer, uint64_t x, uint64_t y, uint64_t z, float v) {
    put(a, layer, x, y, z, &v);
  }
  uint64_t texture(uint64_t arrayHandle, TextureDesc desc) {
    TextureObject t;
    t.resource.kind = ResourceKind::Array;
    t.resource.arrayHandle = arrayHandle;
    t.resource.array = reg().array(arrayHandle);
    t.desc = desc;
    return reg().createTexture(std::move(t));
  }
  uint64_t mipTexture(uint64_t handle, TextureDesc desc) {
    TextureObject t;
    t.resource.kind = ResourceKind::MipmappedArray;
    t.resource.arrayHandle = handle;
    t.resource.mipmapped = reg().mipmappedArray(handle);
    t.desc = desc;
    return reg().createTexture(std::move(t));
  }

  // Runs `body` with %h (the handle) and %a, %b, %c, %d (u32 views of in[1 + tid]'s low word... see
  // below); results are stored by the body at [%o].
  KernelRun run(uint64_t handle, const std::vector<uint64_t>& lanes, const std::string& decls,
                const std::string& body, unsigned threads, size_t outWords, bool checkWarpSync = false) {
    const std::string ptx =
        ptxKernel(".reg .u64 %h, %o, %ia; .reg .b32 %v<8>; .reg .f32 %f<16>; .reg .pred %p<4>;" + decls,
                  "ld.global.u64 %h, [%in];\n"
                  "add.u64 %ia, %in, 8; add.u64 %ia, %ia, %tx8; ld.global.v2.b32 {%v0, %v1}, [%ia];\n"
                  "mul.wide.u32 %o, %tx, 16; add.u64 %o, %o, %out;\n" +
                      body);
    auto module = device.loadModule(ptx, "tex.ptx");
    std::vector<uint64_t> in{handle};
    in.insert(in.end(), lanes.begin(), lanes.end());
    const uint64_t inAddress = device.malloc(in.size() * 8);
    device.write(inAddress, in);
    const uint64_t outAddress = device.malloc(outWords * 8);
    device.memset(outAddress, 0, outWords * 8);
    device.launchOptions().checkWarpSync = checkWarpSync;
    KernelRun r;
    r.result = device.launch(*module, "k", {1}, {threads}, 0, KernelArgs().add(inAddress).add(outAddress));
    r.out = device.read<uint64_t>(outAddress, outWords);
    return r;
  }
  // Words of one lane's four 32-bit results (stored as two u64 words).
  static std::array<uint32_t, 4> lane(const KernelRun& r, unsigned l) {
    return {static_cast<uint32_t>(r.out[2 * l]), static_cast<uint32_t>(r.out[2 * l] >> 32),
            static_cast<uint32_t>(r.out[2 * l + 1]), static_cast<uint32_t>(r.out[2 * l + 1] >> 32)};
  }
  // Two f32 values packed into one input word (x low, y high).
  static uint64_t xy(float x, float y) { return uint64_t{fbits(x)} | uint64_t{fbits(y)} << 32; }

  static std::string loadError(const std::string& decls, const std::string& body) {
    return test::loadError(".reg .u64 %h; .reg .b32 %v<8>; .reg .f32 %f<16>; .reg .pred %p<4>;" + decls,
                           body);
  }
};

constexpr ElementFormat kF32{1, 32, ChannelKind::Float};
constexpr ElementFormat kU8x4{4, 8, ChannelKind::Unsigned};
constexpr ElementFormat kS32{1, 32, ChannelKind::Signed};

const char* kStore4 = "st.global.v4.b32 [%o], {%v4, %v5, %v6, %v7};";

TEST_F(TextureTest, Tex2dPointAndLinearOnFloatArray) {
  // 2x2 texels 0 1 / 2 3, unnormalized clamp.
  const uint64_t a = array(kF32, 2, 2, 0);
  const auto arr = reg().array(a);
  for (int i = 0; i < 4; ++i) putF(*arr, 0, i % 2, i / 2, 0, static_cast<float>(i));
  TextureDesc point;
  point.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  TextureDesc linear = point;
  linear.filterMode = FilterMode::Linear;
  const std::vector<uint64_t> at = {xy(1.5f, 0.5f), xy(0.2f, 1.9f), xy(1.f, 1.f), xy(0.75f, 0.5f),
                                    xy(-3.f, 7.f)};
  const std::string body =
      "mov.b32 %f1, %v0; mov.b32 %f2, %v1;\n"
      "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2}];\n"
      "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" +
      std::string(kStore4);
  const KernelRun p = run(texture(a, point), at, "", body, 5, 10);
  ASSERT_FALSE(p.result.error) << p.result.error.message;
  const float wantPoint[] = {1.f, 2.f, 3.f, 0.f, 2.f};
  for (unsigned l = 0; l < 5; ++l) {
    EXPECT_EQ(lane(p, l)[0], fbits(wantPoint[l])) << l;
    EXPECT_EQ(lane(p, l)[1], 0u);
    EXPECT_EQ(lane(p, l)[3], 0u);  // missing channels read as 0
  }
  const KernelRun q = run(texture(a, linear), at, "", body, 5, 10);
  ASSERT_FALSE(q.result.error) << q.result.error.message;
  // (1,1) is the centre of all four: 1.5; (0.75, 0.5): weight 64/256 on texel 1: 0.25; clamped corners.
  const float wantLinear[] = {1.f, 2.f, 1.5f, 0.25f, 2.f};
  for (unsigned l = 0; l < 5; ++l) EXPECT_EQ(lane(q, l)[0], fbits(wantLinear[l])) << l;
}

TEST_F(TextureTest, Tex1dLinearUsesEightBitWeightsAsRecorded) {
  // texture_sampling_test's LinearOneDimensionMatchesGpu: texels 0 1 2 3 4 ... x = 0.6 normalized?
  // Hand-derived instead: texels {0, 1}, unnormalized x = 0.5 + 0.3 -> weight round(0.3 * 256) = 77.
  const uint64_t a = array(kF32, 2, 0, 0);
  const auto arr = reg().array(a);
  putF(*arr, 0, 0, 0, 0, 0.f);
  putF(*arr, 0, 1, 0, 0, 1.f);
  TextureDesc d;
  d.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  d.filterMode = FilterMode::Linear;
  const KernelRun r = run(texture(a, d), {xy(0.8f, 0.f)}, "",
                          "mov.b32 %f1, %v0; tex.1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1}];\n"
                          "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" +
                              std::string(kStore4),
                          1, 2);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(77.f / 256.f));
}

TEST_F(TextureTest, NormalizedFloatReadOfUchar4) {
  const uint64_t a = array(kU8x4, 2, 1, 0);
  const auto arr = reg().array(a);
  const uint8_t t0[4] = {255, 128, 0, 51}, t1[4] = {1, 2, 3, 4};
  put(*arr, 0, 0, 0, 0, t0);
  put(*arr, 0, 1, 0, 0, t1);
  TextureDesc d;
  d.readMode = ReadMode::NormalizedFloat;
  d.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  const std::string body =
      "mov.b32 %f1, %v0; mov.b32 %f2, %v1;\n"
      "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2}];\n"
      "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" +
      std::string(kStore4);
  const KernelRun r = run(texture(a, d), {xy(0.5f, 0.5f)}, "", body, 1, 2);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(1.f));
  EXPECT_EQ(lane(r, 0)[1], fbits(128.f / 255.f));
  EXPECT_EQ(lane(r, 0)[2], 0u);
  EXPECT_EQ(lane(r, 0)[3], fbits(0.2f));  // 51/255
  // Element-type reads give the raw bytes as integers (tex.2d.v4.u32).
  TextureDesc e = d;
  e.readMode = ReadMode::ElementType;
  const KernelRun u = run(texture(a, e), {xy(1.5f, 0.5f)}, "",
                          "mov.b32 %f1, %v0; mov.b32 %f2, %v1;\n"
                          "tex.2d.v4.u32.f32 {%v4, %v5, %v6, %v7}, [%h, {%f1, %f2}];\n" +
                              std::string(kStore4),
                          1, 2);
  ASSERT_FALSE(u.result.error) << u.result.error.message;
  EXPECT_EQ(lane(u, 0), (std::array<uint32_t, 4>{1, 2, 3, 4}));
}

TEST_F(TextureTest, Tex1dfetchOnLinearMemory) {
  const uint64_t buffer = device.malloc(64);
  std::vector<int32_t> values = {7, -3, 100000, -2147483647 - 1};
  device.write(buffer, values);
  TextureObject t;
  t.resource.kind = ResourceKind::Linear;
  t.resource.devPtr = buffer;
  t.resource.format = kS32;
  t.resource.sizeInBytes = 16;
  const uint64_t h = reg().createTexture(std::move(t));
  const KernelRun r =
      run(h, {0, 1, 2, 3, 4, static_cast<uint32_t>(-1)}, "",
          "tex.1d.v4.s32.s32 {%v4, %v5, %v6, %v7}, [%h, {%v0}];\n" + std::string(kStore4), 6, 12);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  for (unsigned l = 0; l < 4; ++l)
    EXPECT_EQ(lane(r, l), (std::array<uint32_t, 4>{static_cast<uint32_t>(values[l]), 0, 0, 0})) << l;
  // Out of range: zero whatever the address mode and border colour (measured on an H100,
  // tests/sim/data/texture_probe_h100.txt, "O" rows).
  EXPECT_EQ(lane(r, 4), (std::array<uint32_t, 4>{0, 0, 0, 0}));
  EXPECT_EQ(lane(r, 5), (std::array<uint32_t, 4>{0, 0, 0, 0}));
}

TEST_F(TextureTest, Tex2dOnPitchedMemory) {
  // 3x2 floats with a 64-byte pitch.
  const uint64_t buffer = device.malloc(128);
  const float rows[2][3] = {{1.f, 2.f, 3.f}, {10.f, 20.f, 30.f}};
  writeRaw(buffer, rows[0], 12);
  writeRaw(buffer + 64, rows[1], 12);
  TextureObject t;
  t.resource.kind = ResourceKind::Pitch2D;
  t.resource.devPtr = buffer;
  t.resource.format = kF32;
  t.resource.width = 3;
  t.resource.height = 2;
  t.resource.pitchInBytes = 64;
  t.desc.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  const uint64_t h = reg().createTexture(std::move(t));
  const KernelRun r = run(h, {xy(2.5f, 1.5f), xy(0.1f, 0.9f), xy(9.f, 9.f)}, "",
                          "mov.b32 %f1, %v0; mov.b32 %f2, %v1;\n"
                          "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2}];\n"
                          "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" +
                              std::string(kStore4),
                          3, 6);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(30.f));
  EXPECT_EQ(lane(r, 1)[0], fbits(1.f));
  EXPECT_EQ(lane(r, 2)[0], fbits(30.f));
}

TEST_F(TextureTest, LayeredThreeDimensionalAndCubemapGeometries) {
  // 1D layered: 3 texels x 2 layers, value 10 * layer + x; the layer comes first, as .s32.
  const uint64_t l1 = array(kF32, 3, 0, 2, {.layered = true});
  const auto a1 = reg().array(l1);
  for (int l = 0; l < 2; ++l)
    for (int x = 0; x < 3; ++x) putF(*a1, l, x, 0, 0, 10.f * l + x);
  TextureDesc clamp;
  clamp.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  const std::string store =
      "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" + std::string(kStore4);
  KernelRun r =
      run(texture(l1, clamp), {uint64_t{fbits(2.5f)} << 32 | 1, uint64_t{fbits(0.5f)} << 32 | 7}, "",
          "mov.b32 %f1, %v1; tex.a1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%v0, %f1}];\n" + store, 2, 4);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(12.f));
  EXPECT_EQ(lane(r, 1)[0], fbits(10.f));  // layer 7 clamps to the last layer

  // 3D: 2x2x2, value x + 2y + 4z, point sampled at texel centres.
  const uint64_t d3 = array(kF32, 2, 2, 2);
  const auto a3 = reg().array(d3);
  for (int i = 0; i < 8; ++i) putF(*a3, 0, i % 2, (i / 2) % 2, i / 4, static_cast<float>(i));
  r = run(texture(d3, clamp), {xy(1.5f, 0.5f), xy(0.5f, 1.5f)}, "",
          "mov.b32 %f1, %v0; mov.b32 %f2, %v1; mov.f32 %f3, 0f3FC00000;\n"
          "tex.3d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2, %f3, %f3}];\n" +
              store,
          2, 4);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(5.f));
  EXPECT_EQ(lane(r, 1)[0], fbits(6.f));

  // Cubemap 2x2 faces, each face filled with its index: the major axis picks the face.
  const uint64_t cube = array(kF32, 2, 2, 6, {.cubemap = true});
  const auto ac = reg().array(cube);
  for (int f = 0; f < 6; ++f)
    for (int i = 0; i < 4; ++i) putF(*ac, f, i % 2, i / 2, 0, static_cast<float>(f));
  const float dirs[6][3] = {{1, .2f, -.3f}, {-1, .1f, .1f}, {.2f, 1, .3f},
                            {.1f, -1, .2f}, {.3f, .2f, 1},  {.1f, .4f, -1}};
  std::vector<uint64_t> in;
  for (const auto& d : dirs) in.push_back(xy(d[0], d[1]));
  for (const auto& d : dirs) in.push_back(fbits(d[2]));
  TextureDesc norm = clamp;
  norm.normalizedCoords = true;
  r = run(texture(cube, norm), in, ".reg .u64 %za;",
          "mov.b32 %f1, %v0; mov.b32 %f2, %v1; add.u64 %za, %ia, 48; ld.global.b32 %v2, [%za]; mov.b32 %f3, "
          "%v2;\n"
          "tex.cube.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2, %f3, %f3}];\n" +
              store,
          6, 12);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  for (unsigned f = 0; f < 6; ++f) EXPECT_EQ(lane(r, f)[0], fbits(static_cast<float>(f))) << f;
}

TEST_F(TextureTest, Tld4GathersTheFootprintInIsaOrder) {
  // texture_sampling_test's GatherOrderMatchesGpu: 4x4 texels 10y + x.
  const uint64_t a = array(kF32, 4, 4, 0);
  const auto arr = reg().array(a);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) putF(*arr, 0, x, y, 0, 10.f * y + x);
  TextureDesc d;
  d.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  const KernelRun r = run(texture(a, d), {xy(1.3f, 2.7f), xy(1.7f, 1.2f)}, "",
                          "mov.b32 %f1, %v0; mov.b32 %f2, %v1;\n"
                          "tld4.r.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f2}];\n"
                          "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" +
                              std::string(kStore4),
                          2, 4);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0), (std::array<uint32_t, 4>{fbits(30), fbits(31), fbits(21), fbits(20)}));
  EXPECT_EQ(lane(r, 1), (std::array<uint32_t, 4>{fbits(11), fbits(12), fbits(2), fbits(1)}));
}

TEST_F(TextureTest, LevelAndGradientSelectMipLevels) {
  // 4x4 float, 3 levels; every texel of level l holds 10 * l. Point mip filtering.
  const uint64_t m = array(kF32, 4, 4, 0, {}, 3);
  const auto mip = reg().mipmappedArray(m);
  for (int l = 0; l < 3; ++l) {
    const auto& a = *mip->levels[l];
    for (uint64_t y = 0; y < a.height; ++y)
      for (uint64_t x = 0; x < a.width; ++x) putF(a, 0, x, y, 0, 10.f * l);
  }
  TextureDesc d;
  d.addressMode = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  d.normalizedCoords = true;
  d.maxMipmapLevelClamp = 8.f;
  const uint64_t h = mipTexture(m, d);
  const std::string store =
      "mov.b32 %v4, %f4; mov.b32 %v5, %f5; mov.b32 %v6, %f6; mov.b32 %v7, %f7;\n" + std::string(kStore4);
  // LOD 1.0 -> level 1; 1.5 rounds half up -> level 2; 0.49 -> level 0; 7 clamps to level 2.
  KernelRun r = run(h, {fbits(1.f), fbits(1.5f), fbits(0.49f), fbits(7.f)}, "",
                    "mov.b32 %f3, %v0; mov.f32 %f1, 0f3F000000;\n"
                    "tex.level.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1}], %f3;\n" +
                        store,
                    4, 8);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  const float want[] = {10.f, 20.f, 0.f, 20.f};
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(lane(r, l)[0], fbits(want[l])) << l;
  // Gradients: |dPdx| * 4 texels = 2 -> LOD 1; 4 -> LOD 2; 1 -> LOD 0.
  r = run(h, {fbits(0.5f), fbits(1.f), fbits(0.25f)}, "",
          "mov.b32 %f3, %v0; mov.f32 %f1, 0f3F000000; mov.f32 %f2, 0f00000000;\n"
          "tex.grad.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1}], {%f3, %f2}, {%f2, %f2};\n" +
              store,
          3, 6);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0)[0], fbits(10.f));
  EXPECT_EQ(lane(r, 1)[0], fbits(20.f));
  EXPECT_EQ(lane(r, 2)[0], fbits(0.f));
}

TEST_F(TextureTest, TxqSizesAsMeasuredOnH100) {
  TextureDesc d;
  const std::string body =
      "txq.width.b32 %v4, [%h]; txq.height.b32 %v5, [%h]; txq.depth.b32 %v6, [%h];\n"
      "txq.level.width.b32 %v7, [%h], %v0;\n" +
      std::string(kStore4);
  struct Case {
    uint64_t handle;
    uint32_t level;
    std::array<uint32_t, 4> want;  // width height depth level-width
  };
  TextureObject lin;
  lin.resource.kind = ResourceKind::Linear;
  lin.resource.devPtr = device.malloc(512);
  lin.resource.format = kS32;
  lin.resource.sizeInBytes = 400;
  TextureObject pitch;
  pitch.resource.kind = ResourceKind::Pitch2D;
  pitch.resource.devPtr = lin.resource.devPtr;
  pitch.resource.format = kF32;
  pitch.resource.width = 5;
  pitch.resource.height = 4;
  pitch.resource.pitchInBytes = 64;
  const Case cases[] = {
      {texture(array(kF32, 5, 0, 0), d), 1, {5, 1, 0, 0}},
      {texture(array(kF32, 7, 3, 0), d), 0, {7, 3, 0, 7}},
      {texture(array(kF32, 6, 5, 4), d), 0, {6, 5, 4, 6}},
      {texture(array(kF32, 9, 8, 3, {.layered = true}), d), 0, {9, 8, 3, 9}},
      {texture(array(kF32, 8, 8, 6, {.cubemap = true}), d), 0, {8, 8, 0, 8}},
      {texture(array(kF32, 8, 8, 12, {.layered = true, .cubemap = true}), d), 0, {8, 8, 2, 8}},
      {mipTexture(array(kF32, 16, 12, 0, {}, 4), d), 1, {16, 12, 0, 8}},
      {mipTexture(array(kF32, 16, 12, 0, {}, 4), d), 5, {16, 12, 0, 0}},
      {reg().createTexture(lin), 0, {100, 0, 0, 100}},
      {reg().createTexture(pitch), 0, {5, 4, 0, 5}},
  };
  for (const Case& c : cases) {
    const KernelRun r = run(c.handle, {c.level}, "", body, 1, 2);
    ASSERT_FALSE(r.result.error) << r.result.error.message;
    EXPECT_EQ(lane(r, 0), c.want) << "handle " << c.handle;
  }
  // Level height of a mipmapped array (measured: level 1 of 16x12 is 8x6).
  const KernelRun r =
      run(cases[6].handle, {1}, "", "txq.level.height.b32 %v4, [%h], %v0; st.global.b32 [%o], %v4;", 1, 2);
  EXPECT_EQ(static_cast<uint32_t>(r.out[0]), 6u);
}

TEST_F(TextureTest, IstypepIsFalseForTextureObjects) {
  const uint64_t h = texture(array(kF32, 4, 4, 0), TextureDesc{});
  const KernelRun r = run(h, {0}, "",
                          "istypep.texref %p1, %h; selp.b32 %v4, 1, 2, %p1;\n"
                          "istypep.samplerref %p1, %h; selp.b32 %v5, 1, 2, %p1;\n"
                          "istypep.surfref %p1, %h; selp.b32 %v6, 1, 2, %p1; mov.b32 %v7, 0;\n" +
                              std::string(kStore4),
                          1, 2);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  EXPECT_EQ(lane(r, 0), (std::array<uint32_t, 4>{2, 2, 2, 0}));
}

TEST_F(TextureTest, BadHandlesRefusalsAndMismatchesFailTheLaunch) {
  const std::string body =
      "mov.f32 %f1, 0f3F000000; tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1}];";
  KernelRun r = run(12345, {0}, "", body, 1, 2);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_NE(r.result.error.message.find("0x3039 is not a live texture object"), std::string::npos)
      << r.result.error.message;
  EXPECT_NE(r.result.error.message.find("PTX line"), std::string::npos) << r.result.error.message;
  // A 3D array read with tex.2d.
  r = run(texture(array(kF32, 2, 2, 2), TextureDesc{}), {0}, "", body, 1, 2);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::Unsupported);
  EXPECT_NE(r.result.error.message.find("tex.2d on a 3d texture"), std::string::npos)
      << r.result.error.message;
  // The sampler refuses trilinear filtering of a mipmapped 3D texture (not modelled).
  TextureDesc trilinear;
  trilinear.filterMode = FilterMode::Linear;
  trilinear.mipmapFilterMode = FilterMode::Linear;
  trilinear.normalizedCoords = true;
  trilinear.maxMipmapLevelClamp = 8.f;
  r = run(mipTexture(array(kF32, 4, 4, 4, {}, 3), trilinear), {0}, "",
          "mov.f32 %f1, 0f3F000000; mov.f32 %f2, 0f3F000000;\n"
          "tex.level.3d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1, %f1, %f1}], %f2;",
          1, 2);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::Unsupported);
  EXPECT_NE(r.result.error.message.find("trilinear filtering of a mipmapped 3D texture"), std::string::npos)
      << r.result.error.message;
  // A destroyed texture is no longer live.
  const uint64_t h = texture(array(kF32, 2, 2, 0), TextureDesc{});
  ASSERT_TRUE(reg().destroyTexture(h));
  r = run(h, {0}, "", "txq.width.b32 %v4, [%h];", 1, 2);
  EXPECT_EQ(r.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
}

TEST_F(TextureTest, FormsNotModelledAreRefusedAtLoad) {
  EXPECT_NE(loadError("", "txq.filter_mode.b32 %v0, [%h];").find("fails to launch"), std::string::npos);
  EXPECT_NE(loadError("", "txq.num_mipmap_levels.b32 %v0, [%h];").find("fails to launch"), std::string::npos);
  EXPECT_NE(
      loadError("", "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, %h, {%f1, %f1}];").find("explicit sampler"),
      std::string::npos);
  EXPECT_NE(
      loadError("", "tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1}], {%v0, %v1};").find("offset"),
      std::string::npos);
  EXPECT_NE(
      loadError("", "tex.2d.v4.f32.s32 {%f4, %f5, %f6, %f7}, [%h, {%v0, %v1}];").find("integer coordinates"),
      std::string::npos);
  EXPECT_NE(loadError(".reg .f16 %hf<4>;", "tex.2d.v4.f16.f32 {%hf0, %hf1, %hf2, %hf3}, [%h, {%f1, %f1}];")
                .find(".f16"),
            std::string::npos);
  EXPECT_NE(
      loadError("", "tld4.r.3d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%h, {%f1, %f1, %f1, %f1}];").find(".2d"),
      std::string::npos);
}

TEST_F(TextureTest, WarpSyncCheckReportsATextureReadOfMemoryTheKernelWrote) {
  // Lane 0 writes texel 0 of a linear texture through a global store, lane 1 then fetches it.
  const uint64_t buffer = device.malloc(16);
  device.write(buffer, std::vector<int32_t>{1, 2, 3, 4});
  TextureObject t;
  t.resource.kind = ResourceKind::Linear;
  t.resource.devPtr = buffer;
  t.resource.format = kS32;
  t.resource.sizeInBytes = 16;
  const uint64_t h = reg().createTexture(std::move(t));
  const std::string body =
      "setp.eq.u32 %p1, %tx, 0; @%p1 st.global.b32 [%wa], %tx; bar.sync 0;\n"
      "mov.b32 %v2, 0; tex.1d.v4.s32.s32 {%v4, %v5, %v6, %v7}, [%h, {%v2}];\n" +
      std::string(kStore4);
  const KernelRun r =
      run(h, {buffer, buffer}, ".reg .u64 %wa;", "ld.global.u64 %wa, [%in+8];\n" + body, 2, 4, true);
  ASSERT_FALSE(r.result.error) << r.result.error.message;
  bool found = false;
  for (const std::string& w : r.result.warnings) found |= w.find("texture-coherence") != std::string::npos;
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace ptxsim::test
