// The array model behind the cudart shim's array API (sim/texture_objects.h):
// shapes CUDA accepts and refuses, the layout of levels and layers in device
// memory, host copies into arrays, and handles that are never reused.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim {
namespace {

using sim::ArrayShape;
using sim::ChannelKind;
using sim::ElementFormat;

ArrayShape shape(ElementFormat f, uint64_t w, uint64_t h, uint64_t d) {
  ArrayShape s;
  s.format = f;
  s.width = w;
  s.height = h;
  s.depth = d;
  return s;
}

constexpr ElementFormat kFloat4{4, 32, ChannelKind::Float};
constexpr ElementFormat kUchar1{1, 8, ChannelKind::Unsigned};

TEST(ArrayModelTest, FormatsCudaHas) {
  EXPECT_TRUE((ElementFormat{1, 8, ChannelKind::Signed}.valid()));
  EXPECT_TRUE((ElementFormat{2, 16, ChannelKind::Float}.valid()));
  EXPECT_FALSE((ElementFormat{3, 8, ChannelKind::Unsigned}.valid()));
  EXPECT_FALSE((ElementFormat{1, 8, ChannelKind::Float}.valid()));
  EXPECT_EQ(kFloat4.bytes(), 16u);
}

TEST(ArrayModelTest, ShapesAndExtents) {
  Device device;
  auto& t = device.gpu().textures();
  std::string error;
  uint64_t a1 = t.createArray(shape(kUchar1, 10, 0, 0), error);
  uint64_t a2 = t.createArray(shape(kFloat4, 5, 3, 0), error);
  uint64_t a3 = t.createArray(shape(kFloat4, 5, 3, 2), error);
  ASSERT_NE(a1, 0u);
  ASSERT_NE(a2, 0u);
  ASSERT_NE(a3, 0u);
  EXPECT_EQ(t.array(a1)->extent(), (std::array<uint64_t, 3>{10, 0, 0}));
  EXPECT_EQ(t.array(a2)->extent(), (std::array<uint64_t, 3>{5, 3, 0}));
  EXPECT_EQ(t.array(a3)->extent(), (std::array<uint64_t, 3>{5, 3, 2}));
  EXPECT_EQ(t.array(a3)->dimensions, 3u);
  EXPECT_EQ(t.array(a3)->bytes(), 5u * 3 * 2 * 16);

  ArrayShape layered = shape(kUchar1, 4, 0, 7);
  layered.flags.layered = true;
  auto l = t.array(t.createArray(layered, error));
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->dimensions, 1u);
  EXPECT_EQ(l->layers, 7u);
  EXPECT_EQ(l->extent(), (std::array<uint64_t, 3>{4, 0, 7}));
  // Layer 3, x 2: 3 * 4 + 2.
  EXPECT_EQ(l->texelAddress(3, 2, 0, 0) - l->base, 14u);

  ArrayShape cube = shape(kUchar1, 8, 8, 12);
  cube.flags.cubemap = true;
  EXPECT_EQ(t.createArray(cube, error), 0u) << "12 faces without the layered flag";
  cube.flags.layered = true;
  auto c = t.array(t.createArray(cube, error));
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->layers, 12u);
  cube.height = 4;
  EXPECT_EQ(t.createArray(cube, error), 0u) << "non-square faces";
  EXPECT_EQ(t.createArray(shape(kUchar1, 0, 4, 0), error), 0u);
  EXPECT_EQ(t.createArray(shape(kUchar1, 4, 0, 3), error), 0u) << "depth without height";
}

TEST(ArrayModelTest, MipmapLevelsFollowEachOther) {
  Device device;
  auto& t = device.gpu().textures();
  std::string error;
  ArrayShape s = shape(kFloat4, 10, 3, 0);
  s.levels = 4;
  uint64_t h = t.createArray(s, error);
  auto m = t.mipmappedArray(h);
  ASSERT_NE(m, nullptr) << error;
  ASSERT_EQ(m->levels.size(), 4u);
  // 10x3, 5x1, 2x1, 1x1; each level starts on a 256-byte granule.
  uint64_t widths[] = {10, 5, 2, 1}, heights[] = {3, 1, 1, 1};
  uint64_t offset = 0;
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(m->levels[i]->width, widths[i]);
    EXPECT_EQ(m->levels[i]->height, heights[i]);
    EXPECT_EQ(m->levels[i]->base - m->base, offset);
    offset += (widths[i] * heights[i] * 16 + 255) / 256 * 256;
    EXPECT_EQ(t.array(m->levelHandles[i]), m->levels[i]);
  }
  EXPECT_FALSE(t.destroyArray(m->levelHandles[1])) << "a level is freed with its mipmapped array";
  EXPECT_TRUE(t.destroyMipmappedArray(h));
  EXPECT_EQ(t.array(m->levelHandles[0]), nullptr);
}

TEST(ArrayModelTest, HostCopiesAndHandles) {
  Device device;
  auto& t = device.gpu().textures();
  std::string error;
  uint64_t h = t.createArray(shape(kUchar1, 4, 2, 0), error);
  auto a = t.array(h);
  device.write(a->base, std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8});
  uint8_t texel = 0;
  sim::readTexel(device.gpu().store(), *a, 0, 2, 1, 0, &texel);
  EXPECT_EQ(texel, 7);
  sim::SurfaceObject s;
  s.resource.array = a;
  uint64_t surface = t.createSurface(s);
  EXPECT_NE(surface, h);
  EXPECT_EQ(t.texture(surface), nullptr) << "a surface handle is no texture";
  EXPECT_TRUE(t.destroySurface(surface));
  EXPECT_FALSE(t.destroySurface(surface));
  EXPECT_EQ(t.surface(surface), nullptr);
  EXPECT_TRUE(t.destroyArray(h));
  EXPECT_EQ(device.allocationAt(a->base), nullptr) << "the texels are freed";
  uint64_t next = t.createArray(shape(kUchar1, 4, 2, 0), error);
  EXPECT_GT(next, surface) << "handles are never reused";
}

}  // namespace
}  // namespace ptxsim
