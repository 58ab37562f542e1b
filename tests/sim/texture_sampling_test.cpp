// Texture sampling arithmetic against values recorded on an H100 (a probe program sampling small
// textures; the hex words are the GPU's float results) and hand-derived values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "../../sim/src/texture/sampling.h"
#include "texture_vector_source.h"

namespace ptxsim::sim::texture {
namespace {

uint32_t fetch1(const TexelSource& s, const SamplerDesc& d, float x) {
  Request r;
  r.geometry = Geometry::Dim1;
  r.coord = {x, 0, 0};
  const Result res = sample(s, d, r);
  EXPECT_FALSE(res.unsupported) << *res.unsupported;
  return res.sample.bits[0];
}
float fetch1f(const TexelSource& s, const SamplerDesc& d, float x) {
  return std::bit_cast<float>(fetch1(s, d, x));
}

VectorSource line(std::vector<float> v) {
  VectorSource s(f32(), {static_cast<int>(v.size()), 1, 1});
  for (size_t i = 0; i < v.size(); ++i) s.setF(static_cast<int>(i), 0, 0, 0, 0, v[i]);
  return s;
}

std::vector<double> parse(const std::string& s) {
  std::istringstream in(s);
  std::vector<double> r;
  double v;
  while (in >> v) r.push_back(v);
  return r;
}

TEST(TextureSampling, WeightIsFractionRoundedHalfUpToEightBits) {
  EXPECT_EQ(linearWeight256(0.3), 77);       // 76.8
  EXPECT_EQ(linearWeight256(0.2), 51);       // 51.2
  EXPECT_EQ(linearWeight256(1.0 / 512), 1);  // exactly half: up (measured transition)
  EXPECT_EQ(linearWeight256(1.0 / 512 - 1.0 / 65536), 0);
  EXPECT_EQ(linearWeight256(0.999), 256);  // 9 bits: 1.0 is representable
}

TEST(TextureSampling, LinearOneDimensionMatchesGpuWeights) {
  const VectorSource s = line({0.f, 1.f});
  const SamplerDesc d = desc(FilterMode::Linear, AddressMode::Clamp, false);
  EXPECT_EQ(fetch1f(s, d, 0.5f + 7.f / 4096), 0.f);  // measured: steps begin at 0.5 + 1/512
  EXPECT_EQ(fetch1f(s, d, 0.5f + 8.f / 4096), 1.f / 256);
  EXPECT_EQ(fetch1f(s, d, 0.5f + 24.f / 4096), 2.f / 256);
  EXPECT_EQ(fetch1(s, d, 0.6f), 0x3dd00000u);  // GPU words
  EXPECT_EQ(fetch1(s, d, 0.7f), 0x3e4c0000u);
  EXPECT_EQ(fetch1(s, d, 0.8f), 0x3e9a0000u);
  EXPECT_EQ(fetch1f(s, d, 1.0f), 0.5f);
  EXPECT_EQ(fetch1f(s, d, -0.3f), 0.f);
  // Between texels 0 and 10 with frac 0.3: weight 77/256 gives 3.0078125 (truncating would give 2.96875).
  const VectorSource t = line({0.f, 10.f});
  EXPECT_EQ(fetch1f(t, d, 0.8f), 770.f / 256);
}

TEST(TextureSampling, LerpIsExactSumRoundedTiesAway) {
  const std::vector<std::string> row = {
      "3dcccccd", "3dd1999a", "3dd66667", "3ddb3333", "3de00000", "3de4cccd", "3de9999a", "3dee6667",
      "3df33333", "3df80000", "3dfccccd", "3e00cccd", "3e033333", "3e05999a", "3e080000", "3e0a6666",
      "3e0ccccd", "3e0f3333", "3e11999a", "3e140000", "3e166666", "3e18cccd", "3e1b3333", "3e1d999a",
      "3e200000", "3e226666", "3e24cccd", "3e273333", "3e29999a", "3e2c0000", "3e2e6666", "3e30cccd",
      "3e333333", "3e35999a", "3e380000", "3e3a6666", "3e3ccccd", "3e3f3333", "3e41999a", "3e440000",
      "3e466666", "3e48cccd", "3e4b3333", "3e4d999a", "3e500000", "3e526666", "3e54cccd", "3e573333",
      "3e59999a", "3e5c0000", "3e5e6666", "3e60cccd", "3e633333", "3e65999a", "3e680000", "3e6a6666",
      "3e6ccccd", "3e6f3333", "3e719999", "3e740000", "3e766666", "3e78cccd", "3e7b3333", "3e7d9999",
      "3e800000", "3e813333", "3e826666", "3e83999a", "3e84cccd", "3e860000", "3e873333", "3e886666",
      "3e89999a", "3e8acccd", "3e8c0000", "3e8d3333", "3e8e6666", "3e8f999a", "3e90cccd", "3e920000",
      "3e933333", "3e946666", "3e95999a", "3e96cccd", "3e980000", "3e993333", "3e9a6666", "3e9b9999",
      "3e9ccccd", "3e9e0000", "3e9f3333", "3ea06666", "3ea19999", "3ea2cccd", "3ea40000", "3ea53333",
      "3ea66666", "3ea79999", "3ea8cccd", "3eaa0000", "3eab3333", "3eac6666", "3ead9999", "3eaecccd",
      "3eb00000", "3eb13333", "3eb26666", "3eb39999", "3eb4cccd", "3eb60000", "3eb73333", "3eb86666",
      "3eb99999", "3ebacccd", "3ebc0000", "3ebd3333", "3ebe6666", "3ebf9999", "3ec0cccd", "3ec20000",
      "3ec33333", "3ec46666", "3ec59999", "3ec6cccd", "3ec80000", "3ec93333", "3eca6666", "3ecb9999",
      "3ecccccd", "3ece0000", "3ecf3333", "3ed06666", "3ed19999", "3ed2cccd", "3ed40000", "3ed53333",
      "3ed66666", "3ed79999", "3ed8cccd", "3eda0000", "3edb3333", "3edc6666", "3edd9999", "3edecccd",
      "3ee00000", "3ee13333", "3ee26666", "3ee39999", "3ee4cccd", "3ee60000", "3ee73333", "3ee86666",
      "3ee99999", "3eeacccd", "3eec0000", "3eed3333", "3eee6666", "3eef9999", "3ef0cccd", "3ef20000",
      "3ef33333", "3ef46666", "3ef59999", "3ef6cccd", "3ef80000", "3ef93333", "3efa6666", "3efb9999",
      "3efccccd", "3efe0000", "3eff3333", "3f003333", "3f00cccd", "3f016666", "3f020000", "3f029999",
      "3f033333", "3f03cccd", "3f046666", "3f050000", "3f059999", "3f063333", "3f06cccd", "3f076666",
      "3f080000", "3f089999", "3f093333", "3f09cccd", "3f0a6666", "3f0b0000", "3f0b9999", "3f0c3333",
      "3f0ccccd", "3f0d6666", "3f0e0000", "3f0e9999", "3f0f3333", "3f0fcccd", "3f106666", "3f110000",
      "3f119999", "3f123333", "3f12cccd", "3f136666", "3f140000", "3f149999", "3f153333", "3f15cccd",
      "3f166666", "3f170000", "3f179999", "3f183333", "3f18cccd", "3f196666", "3f1a0000", "3f1a9999",
      "3f1b3333", "3f1bcccd", "3f1c6666", "3f1d0000", "3f1d9999", "3f1e3333", "3f1ecccd", "3f1f6666",
      "3f200000", "3f209999", "3f213333", "3f21cccd", "3f226666", "3f230000", "3f239999", "3f243333",
      "3f24cccd", "3f256666", "3f260000", "3f269999", "3f273333", "3f27cccd", "3f286666", "3f290000",
      "3f299999", "3f2a3333", "3f2acccd", "3f2b6666", "3f2c0000", "3f2c9999", "3f2d3333", "3f2dcccd",
      "3f2e6666", "3f2f0000", "3f2f9999", "3f303333", "3f30cccd", "3f316666", "3f320000", "3f329999",
      "3f333333",
  };
  const VectorSource s = line({0.1f, 0.7f});
  const SamplerDesc d = desc(FilterMode::Linear, AddressMode::Clamp, false);
  for (int m = 0; m <= 256; ++m)
    EXPECT_EQ(fetch1(s, d, 0.5f + m / 256.f), std::stoul(row[m], nullptr, 16)) << "m=" << m;
  EXPECT_EQ(fetch1(line({1.0f, 1.00000012f}), d, 1.0f), 0x3f800001u);  // a tie, away from zero
  // Texels 2^24 apart in magnitude (past what a double sums exactly): 0.5 + 2^-25 is a tie, away.
  EXPECT_EQ(fetch1(line({1.0f, 0x1p-24f}), d, 1.0f), 0x3f000001u);
  EXPECT_EQ(fetch1(line({-3.3f, 5.5f}), d, 0.75f), 0xbf8ccccdu);
  EXPECT_EQ(fetch1(line({1e-40f, 3e-40f}), d, 0.5f), 0u);  // denormal texels flush
  EXPECT_EQ(fetch1(line({3.4e38f, 3.4e38f}), d, 0.75f), 0x7f7fc99eu);
}

TEST(TextureSampling, BilinearMatchesGpu) {
  VectorSource s(f32(), {2, 2, 1});
  const float v[4] = {0.1f, 0.7f, -0.3f, 0.9f};
  for (int i = 0; i < 4; ++i) s.setF(i % 2, i / 2, 0, 0, 0, v[i]);
  const SamplerDesc d = desc(FilterMode::Linear, AddressMode::Clamp, false);
  struct Case {
    int i, j;
    uint32_t bits;
  };
  const Case cases[] = {
      {0, 32, 0x3d4ccccdu},   {0, 144, 0xbe000000u},  {0, 256, 0xbe99999au},  {16, 96, 0x3acccca8u},
      {16, 208, 0xbe20cccdu}, {32, 48, 0x3de99999u},  {32, 160, 0xbce6666bu}, {48, 0, 0x3e59999au},
      {48, 112, 0x3db19999u}, {48, 224, 0xbd200003u}, {64, 64, 0x3e400000u},  {64, 176, 0x3d9fffffu},
  };
  for (const Case& c : cases) {
    Request r;
    r.coord = {0.5f + c.i / 256.f, 0.5f + c.j / 256.f, 0};
    EXPECT_EQ(sample(s, d, r).sample.bits[0], c.bits) << c.i << "," << c.j;
  }
}

TEST(TextureSampling, ThreeDimensionalLinearMatchesGpu) {
  // Points blending along one, two and three axes (the texture_weights_probe replay test covers
  // every weight).
  VectorSource s(f32(), {2, 2, 2});
  const float v[8] = {0.1f, 0.7f, -0.3f, 0.9f, 1.3f, -2.1f, 0.55f, 3.3f};
  for (int i = 0; i < 8; ++i) s.setF(i % 2, (i / 2) % 2, i / 4, 0, 0, v[i]);
  const SamplerDesc d = desc(FilterMode::Linear, AddressMode::Clamp, false);
  struct Case {
    int i, j, k;
    uint32_t bits;
  };
  const Case cases[] = {
      {0, 0, 0, 0x3dcccccdu},       {0, 0, 240, 0x3f9cccccu},     {0, 32, 192, 0x3f6accccu},
      {0, 64, 144, 0x3f203333u},    {0, 96, 96, 0x3eb39999u},     {0, 128, 48, 0x3dbcccccu},
      {0, 160, 0, 0xbe19999au},     {0, 160, 240, 0x3f451999u},   {0, 192, 192, 0x3f00cccdu},
      {0, 224, 144, 0x3e816666u},   {0, 256, 96, 0x3c999998u},    {128, 0, 48, 0x3e800000u},
      {128, 32, 0, 0x3ec66666u},    {128, 32, 240, 0xbda06664u},  {128, 64, 192, 0x3e6b3334u},
      {128, 96, 144, 0x3ed9199au},  {128, 128, 96, 0x3f013333u},  {128, 160, 48, 0x3ef18000u},
      {128, 192, 0, 0x3ea66666u},   {128, 192, 240, 0x3fa3d99au}, {128, 224, 192, 0x3fa6e666u},
      {128, 256, 144, 0x3f9b6666u}, {256, 0, 96, 0xbeb33332u},    {256, 32, 48, 0x3ea4cccdu},
      {256, 64, 0, 0x3f400000u},    {256, 64, 240, 0xbf27ffffu},  {256, 96, 192, 0x3e0ccccfu},
      {256, 128, 144, 0x3f300000u}, {256, 160, 96, 0x3f7e6666u},  {256, 192, 48, 0x3f873333u},
      {256, 224, 0, 0x3f600000u},   {256, 224, 240, 0x40210000u}, {256, 256, 192, 0x402ccccdu},
  };
  for (const Case& c : cases) {
    Request r;
    r.geometry = Geometry::Dim3;
    r.coord = {0.5f + c.i / 256.f, 0.5f + c.j / 256.f, 0.5f + c.k / 256.f};
    const Result res = sample(s, d, r);
    ASSERT_FALSE(res.unsupported) << *res.unsupported;
    EXPECT_EQ(res.sample.bits[0], c.bits) << c.i << "," << c.j << "," << c.k;
  }
}

TEST(TextureSampling, NormalizedIntegerFormatsFilterInSixteenBitDomain) {
  auto two = [](ChannelKind k, int bits, uint32_t a, uint32_t b) {
    VectorSource s({k, bits, 1}, {2, 1, 1});
    s.set(0, 0, 0, 0, 0, {a, 0, 0, 0});
    s.set(1, 0, 0, 0, 0, {b, 0, 0, 0});
    return s;
  };
  const SamplerDesc d = desc(FilterMode::Linear, AddressMode::Clamp, false, ReadMode::NormalizedFloat);
  const VectorSource u8 = two(ChannelKind::Unsigned, 8, 3, 200);
  EXPECT_EQ(fetch1(u8, d, 0.5f + 1 / 256.f), 0x3c7240f2u);  // GPU: 969/65535
  EXPECT_EQ(fetch1(u8, d, 0.5f + 2 / 256.f), 0x3c91e092u);
  EXPECT_EQ(fetch1(u8, d, 0.5f + 3 / 256.f), 0x3caa80abu);
  const VectorSource s8 = two(ChannelKind::Signed, 8, 0x80, 127);
  EXPECT_EQ(fetch1(s8, d, 0.5f + 1 / 256.f), 0xbf800000u);  // -128 is interpolated unclamped
  EXPECT_EQ(fetch1(s8, d, 0.5f + 2 / 256.f), 0xbf7dfffcu);
  const VectorSource u16 = two(ChannelKind::Unsigned, 16, 1000, 60001);
  EXPECT_EQ(fetch1(u16, d, 0.5f + 1 / 256.f), 0x3c99c09au);
  const VectorSource s16 = two(ChannelKind::Signed, 16, 0x8000, 12345);
  EXPECT_EQ(fetch1(s16, d, 0.5f + 1 / 256.f), 0xbf7ea1fdu);
  const VectorSource h = two(ChannelKind::Float, 16, 0x3c00, 0x4248);  // 1.0, 3.140625
  const SamplerDesc dh = desc(FilterMode::Linear, AddressMode::Clamp, false);
  EXPECT_EQ(fetch1(h, dh, 0.5f + 1 / 256.f), 0x3f812000u);  // rounded to half
  EXPECT_EQ(fetch1(h, dh, 0.5f + 2 / 256.f), 0x3f822000u);
  EXPECT_EQ(fetch1(h, dh, 1.0f), 0x40048000u);
}

TEST(TextureSampling, PointConversions) {
  const ChannelFormat u8{ChannelKind::Unsigned, 8, 1}, s8{ChannelKind::Signed, 8, 1};
  for (uint32_t v = 0; v < 256; ++v) {
    EXPECT_EQ(convertChannel(v, u8, ReadMode::NormalizedFloat, false, 0), static_cast<float>(v) / 255.f);
    const int sv = static_cast<int8_t>(v);
    EXPECT_EQ(convertChannel(v, s8, ReadMode::NormalizedFloat, false, 0), std::max(-1.f, sv / 127.f));
    EXPECT_EQ(convertChannel(v, s8, ReadMode::ElementType, false, 0), static_cast<float>(sv));
    EXPECT_EQ(convertChannel(v, s8, ReadMode::NormalizedFloat, true, 0),
              std::max(-1.f, sv / 127.f));  // no sRGB
  }
  const ChannelFormat s16{ChannelKind::Signed, 16, 1};
  const uint32_t w[] = {0, 1, 2, 3, 100, 12345, 32767, 32768, 32769, 65534, 65535};
  const uint32_t gpu[] = {0x00000000, 0x38000100, 0x38800100, 0x38c00180, 0x3b480190, 0x3ec0e582,
                          0x3f800000, 0xbf800000, 0xbf800000, 0xb8800100, 0xb8000100};
  for (int i = 0; i < 11; ++i)
    EXPECT_EQ(std::bit_cast<uint32_t>(convertChannel(w[i], s16, ReadMode::NormalizedFloat, false, 0)),
              gpu[i]);
  EXPECT_EQ(convertChannel(65535, {ChannelKind::Unsigned, 16, 1}, ReadMode::NormalizedFloat, false, 0), 1.f);
}

TEST(TextureSampling, SrgbUsesTheHardwareTableAndSparesAlpha) {
  VectorSource s({ChannelKind::Unsigned, 8, 4}, {1, 1, 1});
  s.set(0, 0, 0, 0, 0, {10, 100, 200, 128});
  SamplerDesc d = desc(FilterMode::Point, AddressMode::Clamp, false, ReadMode::NormalizedFloat);
  d.srgb = true;
  Request r;
  r.geometry = Geometry::Dim1;
  r.coord = {0.5f, 0, 0};
  const auto b = sample(s, d, r).sample.bits;
  EXPECT_EQ(b[0], 0x3b480000u);  // GPU words
  EXPECT_EQ(b[1], 0x3e020000u);
  EXPECT_EQ(b[2], 0x3f140000u);
  EXPECT_EQ(b[3], 0x3f008081u);  // alpha: 128/255
  // sRGB with linear filtering, texel i holding i.
  VectorSource ramp({ChannelKind::Unsigned, 8, 1}, {256, 1, 1});
  for (uint32_t i = 0; i < 256; ++i) ramp.set(static_cast<int>(i), 0, 0, 0, 0, {i, 0, 0, 0});
  d.filter = FilterMode::Linear;
  EXPECT_EQ(fetch1(ramp, d, 1.0f), 0x39200000u);
  EXPECT_EQ(fetch1(ramp, d, 1.25f), 0x39700000u);
  EXPECT_EQ(fetch1(ramp, d, 100.75f), 0x3e02c000u);
  EXPECT_EQ(fetch1(ramp, d, 200.3f), 0x3f13a000u);
  EXPECT_EQ(srgbTableBits(255), 0x3f800000u);
  EXPECT_EQ(srgbTableBits(0), 0u);
}

TEST(TextureSampling, AddressModesMatchGpu) {
  // Texels 0..4, border colour -7; "n" rows at normalized x = k*0.05 - 0.013 (k = -50..50), "u" rows at
  // unnormalized x = k*0.25 - 0.01 (k = -12..30), "e" rows at the listed edge values.
  struct Row {
    const char* kind;
    int mode, filter;
    const char* values;
  };
  const Row rows[] = {
      {"Jn", 0, 0,
       "2 2 2 3 3 3 3 4 4 4 4 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 "
       "4 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 0 0 0 0 1 1 1 1 2 "
       "2"},
      {"Jn", 0, 1,
       "1.93359 2.18359 2.43359 2.68359 2.93359 3.18359 3.43359 3.68359 3.93359 3.26562 2.26562 1.26562 "
       "0.265625 0.183594 0.433594 0.683594 0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 "
       "2.93359 3.18359 3.43359 3.68359 3.93359 3.26562 2.26562 1.26562 0.265625 0.183594 0.433594 0.683594 "
       "0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 2.93359 3.18359 3.43359 3.68359 "
       "3.93359 3.26562 2.26562 1.26562 0.265625 0.183594 0.433594 0.683594 0.933594 1.18359 1.43359 1.68359 "
       "1.93359 2.18359 2.43359 2.68359 2.93359 3.18359 3.43359 3.68359 3.93359 3.26562 2.26562 1.26562 "
       "0.265625 0.183594 0.433594 0.683594 0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 "
       "2.93359 3.18359 3.43359 3.68359 3.93359 3.26562 2.26562 1.26562 0.265625 0.183594 0.433594 0.683594 "
       "0.933594 1.18359 1.43359 1.68359 1.93359"},
      {"Jn", 1, 0,
       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
       "0 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
       "4"},
      {"Jn", 1, 1,
       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
       "0 0 0 0.183594 0.433594 0.683594 0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 "
       "2.93359 3.18359 3.43359 3.68359 3.93359 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
       "4 4"},
      {"Jn", 2, 0,
       "2 2 2 1 1 1 1 0 0 0 0 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 4 4 4 4 3 3 3 3 2 2 2 2 1 1 1 1 0 0 0 "
       "0 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 4 4 4 4 3 3 3 3 2 2 2 2 1 1 1 1 0 0 0 0 0 0 0 0 1 1 1 1 2 "
       "2"},
      {"Jn", 2, 1,
       "2.06641 1.81641 1.56641 1.31641 1.06641 0.816406 0.566406 0.316406 0.0664062 0 0 0 0 0.183594 "
       "0.433594 0.683594 0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 2.93359 3.18359 "
       "3.43359 3.68359 3.93359 4 4 4 4 3.81641 3.56641 3.31641 3.06641 2.81641 2.56641 2.31641 2.06641 "
       "1.81641 1.56641 1.31641 1.06641 0.816406 0.566406 0.316406 0.0664062 0 0 0 0 0.183594 0.433594 "
       "0.683594 0.933594 1.18359 1.43359 1.68359 1.93359 2.18359 2.43359 2.68359 2.93359 3.18359 3.43359 "
       "3.68359 3.93359 4 4 4 4 3.81641 3.56641 3.31641 3.06641 2.81641 2.56641 2.31641 2.06641 1.81641 "
       "1.56641 1.31641 1.06641 0.816406 0.566406 0.316406 0.0664062 0 0 0 0 0.183594 0.433594 0.683594 "
       "0.933594 1.18359 1.43359 1.68359 1.93359"},
      {"Jn", 3, 0,
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 "
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 -7 -7 "
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7"},
      {"Ju", 0, 0, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 4 4 4 4 4 4 4 4 4 4"},
      {"Ju", 0, 1,
       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.238281 0.488281 0.738281 0.988281 1.23828 1.48828 1.73828 1.98828 "
       "2.23828 2.48828 2.73828 2.98828 3.23828 3.48828 3.73828 3.98828 4 4 4 4 4 4 4 4 4 4 4 4"},
      {"Ju", 1, 1,
       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.238281 0.488281 0.738281 0.988281 1.23828 1.48828 1.73828 1.98828 "
       "2.23828 2.48828 2.73828 2.98828 3.23828 3.48828 3.73828 3.98828 4 4 4 4 4 4 4 4 4 4 4 4"},
      {"Ju", 2, 1,
       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.238281 0.488281 0.738281 0.988281 1.23828 1.48828 1.73828 1.98828 "
       "2.23828 2.48828 2.73828 2.98828 3.23828 3.48828 3.73828 3.98828 4 4 4 4 4 4 4 4 4 4 4 4"},
      {"Ju", 3, 0,
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 -7 -7 -7 -7 -7 -7 -7 "
       "-7 -7 -7"},
      {"Je", 0, 0, "0 0 0 0 0 0 1 2 3 4 0 0 0 4 0 0"},
      {"Je", 0, 1, "2 2 2 2 2 0.5 1.5 2.5 3.5 2 2 2 2 2 2 2"},
      {"Je", 1, 0, "0 0 4 0 4 0 1 2 3 4 4 0 0 0 4 0"},
      {"Je", 1, 1, "0 0 4 0 4 0.5 1.5 2.5 3.5 4 4 0 0 0 4 0"},
      {"Je", 2, 0, "0 0 4 4 0 0 1 2 3 4 4 4 0 0 0 0"},
      {"Je", 2, 1, "0 0 4 4 0 0.5 1.5 2.5 3.5 4 4 4 0 0 0 0"},
      {"Je", 3, 0, "0 0 -7 -7 -7 0 1 2 3 4 -7 -7 0 -7 -7 -7"},
      // Border and linear: a 1D texture blends as 2D of height 1 at y = 0, half with the border.
      {"Jn", 3, 1,
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 "
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -6.34375 -5.46875 -4.59375 -3.71875 -3.40625 "
       "-3.28125 -3.15625 -3.03125 -2.90625 -2.78125 -2.65625 -2.53125 -2.40625 -2.28125 -2.15625 "
       "-2.03125 -1.90625 -1.78125 -1.65625 -1.53125 -2.53125 -3.90625 -5.28125 -6.65625 -7 -7 -7 -7 -7 "
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7"},
      {"Ju", 3, 1,
       "-7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -7 -6.15234 -5.27734 -4.40234 -3.52734 -3.37891 -3.25391 -3.12891 "
       "-3.00391 -2.87891 -2.75391 -2.62891 -2.50391 -2.37891 -2.25391 -2.12891 -2.00391 -1.87891 "
       "-1.75391 -1.62891 -1.50391 -2.83203 -4.20703 -5.58203 -6.95703 -7 -7 -7 -7 -7 -7 -7 -7"},
      {"Je", 3, 1, "-5.25 -5.25 -4.25 -7 -7 -3.25 -2.75 -2.25 -1.75 -4.25 -4.25 -7 -5.25 -5.25 -7 -7"},
  };
  const std::vector<float> edges = {0.f,   -0.f,   1.f,   -1.f,        2.f,         0.2f,
                                    0.4f,  0.6f,   0.8f,  0.99999994f, 1.00000012f, -0.99999994f,
                                    1e-9f, -1e-9f, 1e20f, -1e20f};
  const VectorSource s = line({0, 1, 2, 3, 4});
  const AddressMode modes[] = {AddressMode::Wrap, AddressMode::Clamp, AddressMode::Mirror,
                               AddressMode::Border};
  for (const Row& row : rows) {
    const std::string kind = row.kind;
    SamplerDesc d = desc(row.filter ? FilterMode::Linear : FilterMode::Point, modes[row.mode], kind != "Ju");
    d.border = {-7.f, -7.f, -7.f, -7.f};
    const std::vector<double> want = parse(row.values);
    for (size_t i = 0; i < want.size(); ++i) {
      const int k = static_cast<int>(i);
      const float x = kind == "Jn"   ? (k - 50) * 0.05f - 0.013f
                      : kind == "Ju" ? (k - 12) * 0.25f - 0.01f
                                     : edges[i];
      EXPECT_NEAR(fetch1f(s, d, x), want[i], 5e-6 * std::max(1.0, std::fabs(want[i])))
          << kind << " mode " << row.mode << " filter " << row.filter << " x=" << x;
    }
  }
}

TEST(TextureSampling, NormalizedCoordinatesTruncateBeforeScaling) {
  // Measured: x = 0.2f samples texel 0 of 5 and the float nearest 1/3 samples texel 0 of 3.
  const VectorSource s = line({0, 1, 2, 3, 4});
  EXPECT_EQ(fetch1f(s, desc(FilterMode::Point, AddressMode::Clamp, true), 0.2f), 0.f);
  const VectorSource t = line({0, 1, 2});
  const SamplerDesc d = desc(FilterMode::Point, AddressMode::Clamp, true);
  EXPECT_EQ(fetch1f(t, d, std::bit_cast<float>(0x3eaaaaafu)), 0.f);
  EXPECT_EQ(fetch1f(t, d, std::bit_cast<float>(0x3eaaaab0u)), 1.f);
}

TEST(TextureSampling, GatherOrderMatchesGpu) {
  VectorSource s(f32(), {4, 4, 1});
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) s.setF(x, y, 0, 0, 0, 10.f * y + x);
  const SamplerDesc d = desc(FilterMode::Point, AddressMode::Clamp, false);
  struct Case {
    float x, y;
    float v[4];
  };
  const Case cases[] = {{1.3f, 2.7f, {30, 31, 21, 20}}, {1.7f, 1.2f, {11, 12, 2, 1}},
                        {0.2f, 0.1f, {0, 0, 0, 0}},     {3.9f, 3.9f, {33, 33, 33, 33}},
                        {2.f, 2.f, {21, 22, 12, 11}},   {2.5f, 2.5f, {32, 33, 23, 22}}};
  for (const Case& c : cases) {
    Request r;
    r.coord = {c.x, c.y, 0};
    const Result g = gather(s, d, r, 0);
    for (int q = 0; q < 4; ++q)
      EXPECT_EQ(std::bit_cast<float>(g.sample.bits[q]), c.v[q]) << c.x << "," << c.y << " q" << q;
  }
}

TEST(TextureSampling, MipLevelsMatchGpu) {
  VectorSource s(f32(), {8, 8, 1}, 4);
  for (int l = 0; l < 4; ++l)
    for (int y = 0; y < (8 >> l); ++y)
      for (int x = 0; x < (8 >> l); ++x) s.setF(x, y, 0, 0, l, 100.f * l + 10.f * y + x);
  const std::vector<float> lods = {-1.f, 0.f,   0.2f, 0.49f, 0.5f, 0.51f,   0.7f,   1.f,  1.3f, 1.5f,
                                   2.5f, 2.99f, 3.f,  3.5f,  10.f, 1.0039f, 1.002f, 1.1f, 1.26f};
  const std::vector<float> grads = {0.f,   0.0625f, 0.125f, 0.13f, 0.17f, 0.2f,
                                    0.25f, 0.3f,    0.5f,   1.f,   2.f,   0.14865f};
  struct Row {
    const char* kind;
    int mipFilter, filter, bias;
    const char* values;
  };
  const Row rows[] = {
      {"L", 0, 0, 0, "42 42 42 42 121 121 121 121 121 210 300 300 300 300 300 121 121 121 121"},
      {"LG", 0, 0, 0, "42 42 42 42 42 121 121 121 210 300 300 42"},
      {"L", 0, 0, 1, "42 42 42 121 121 121 121 121 210 210 210 210 210 210 210 121 121 121 210"},
      {"LG", 0, 0, 1, "42 42 42 42 121 121 121 210 210 210 210 121"},
      {"L", 0, 1, 0,
       "44.90625 44.90625 44.90625 44.90625 119.6836 119.6836 119.6836 119.6836 119.6836 207.0938 300 300 "
       "300 300 300 119.6836 119.6836 119.6836 119.6836"},
      {"L", 0, 1, 1,
       "44.90625 44.90625 44.90625 119.6836 119.6836 119.6836 119.6836 119.6836 207.0938 207.0938 207.0938 "
       "207.0938 207.0938 207.0938 207.0938 119.6836 119.6836 119.6836 207.0938"},
      {"L", 1, 0, 0,
       "42 42 57.73828 80.57422 81.5 82.11719 97.23828 121 147.4219 165.5 255 298.9453 300 300 300 121 121 "
       "129.6914 143.9453"},
      {"LG", 1, 0, 0, "42 42 42 46.62891 77.17969 95.38672 121 144.6406 210 300 300 61.75"},
      {"L", 1, 0, 1,
       "73.47656 73.47656 77.48828 100.3242 101.25 101.8672 116.9883 143.25 169.6719 187.75 227.9297 "
       "227.9297 227.9297 227.9297 227.9297 143.25 143.25 151.9414 166.1953"},
      {"LG", 1, 0, 1,
       "73.47656 73.47656 73.47656 73.47656 96.92969 115.1367 143.25 166.8906 227.9297 227.9297 227.9297 "
       "81.5"},
      // Trilinear: linear within and between levels, one footprint (footprint.h).
      {"L", 1, 1, 0,
       "44.90625 44.90625 59.74609 81.39062 82.31641 82.89062 97.19141 119.6836 145.6797 163.3711 "
       "253.5273 298.9062 300 300 300 119.6836 119.6836 128.2227 142.1875"},
      {"LG", 1, 1, 0,
       "44.90625 44.90625 44.90625 49.25 78.24219 95.46484 119.6836 142.9219 207.0938 300 300 63.59375"},
      {"L", 1, 1, 1,
       "74.73828 74.73828 78.46875 100.1133 100.9609 101.5781 115.918 141.5273 167.4805 185.2148 "
       "225.6289 225.6289 225.6289 225.6289 225.6289 141.5273 141.5273 150.0625 164.0664"},
      {"LG", 1, 1, 1,
       "74.73828 74.73828 74.73828 74.73828 96.88281 114.1484 141.5273 164.7266 225.6289 225.6289 "
       "225.6289 82.31641"},
  };
  for (const Row& row : rows) {
    SamplerDesc d = desc(row.filter ? FilterMode::Linear : FilterMode::Point, AddressMode::Clamp, true);
    d.mipFilter = row.mipFilter ? FilterMode::Linear : FilterMode::Point;
    d.maxMipClamp = row.bias ? 2.2f : 3.f;
    d.minMipClamp = row.bias ? 0.4f : 0.f;
    d.mipBias = row.bias ? 0.25f : 0.f;
    const bool grad = std::string(row.kind) == "LG";
    const std::vector<double> want = parse(row.values);
    for (size_t i = 0; i < want.size(); ++i) {
      Request r;
      r.coord = {0.3f, 0.6f, 0};
      if (grad) {
        r.lod.kind = Lod::Kind::Gradient;
        r.lod.dPdx = {grads[i], 0, 0};
        r.lod.dPdy = {0, grads[i], 0};
      } else {
        r.lod.kind = Lod::Kind::Level;
        r.lod.level = lods[i];
      }
      const Result res = sample(s, d, r);
      ASSERT_FALSE(res.unsupported) << *res.unsupported;
      EXPECT_NEAR(std::bit_cast<float>(res.sample.bits[0]), want[i], 5e-7 * want[i])
          << row.kind << " mf" << row.mipFilter << " f" << row.filter << " b" << row.bias << " i" << i;
    }
  }
}

TEST(TextureSampling, CubemapFacesMatchGpu) {
  VectorSource s(f32(), {4, 4, 1}, 1, 6);
  for (int f = 0; f < 6; ++f)
    for (int t = 0; t < 4; ++t)
      for (int u = 0; u < 4; ++u) s.setF(u, t, 0, f, 0, 100.f * f + 10.f * t + u);
  const float xs[] = {1, -1, 0.3f, 0.3f, 0.3f, 0.3f, 1, 1, -1, 1, 0.5f, 0.5f, 0, 0.999f, 2, -2};
  const float ys[] = {0.3f, 0.3f, 1, -1, -0.2f, -0.2f, 1, 1, 1, -1, 0.5f, -0.5f, 0, 0.2f, 0.5f, -0.7f};
  const float zs[] = {-0.2f, -0.2f, -0.2f, -0.2f, 1, -1, 0, 1, 1, -1, -0.5f, 0.5f, 0, 0.3f, -1.9f, 1.5f};
  auto fetchCube = [&](FilterMode f, int i) {
    Request r;
    r.geometry = Geometry::Cube;
    r.coord = {xs[i], ys[i], zs[i]};
    return std::bit_cast<float>(sample(s, desc(f, AddressMode::Clamp, true), r).sample.bits[0]);
  };
  const float gpu[] = {12, 111, 212, 322, 422, 521, 223, 403, 400, 530, 500, 433, 422, 11, 13, 123};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(fetchCube(FilterMode::Point, i), gpu[i]) << i;
  // Linear: bilinear within the face, clamped at its edges (measured; texture_weights_probe's VC rows
  // cover edges and corners of layered cubemaps too).
  const std::vector<double> linear = parse(
      "10.88281 110.0859 213.1172 321.0859 421.0859 519.8828 218 403 400 530 500 433 416.5 11.875 13 "
      "124.9922");
  for (int i = 0; i < 16; ++i)
    EXPECT_NEAR(fetchCube(FilterMode::Linear, i), linear[i], 5e-7 * linear[i]) << i;
}

TEST(TextureSampling, LayersAreSelectedNotFilteredAndElementReadsAreRaw) {
  VectorSource s({ChannelKind::Signed, 16, 2}, {2, 2, 1}, 1, 3);
  for (int l = 0; l < 3; ++l) s.set(1, 0, 0, l, 0, {static_cast<uint32_t>(0xfff0 + l), 7, 0, 0});
  const SamplerDesc d = desc(FilterMode::Point, AddressMode::Clamp, false);
  Request r;
  r.layered = true;
  r.coord = {1.5f, 0.5f, 0};
  for (int l = 0; l < 3; ++l) {
    r.layer = l;
    const Sample got = sample(s, d, r).sample;
    EXPECT_FALSE(got.isFloat);
    EXPECT_EQ(static_cast<int32_t>(got.bits[0]), -16 + l);
    EXPECT_EQ(got.bits[1], 7u);
    EXPECT_EQ(got.bits[3], 0u);  // a missing alpha reads as 0 (H100: short2 reads as (x, y, 0, 0))
  }
  r.layer = 9;  // clamped to the last layer
  EXPECT_EQ(static_cast<int32_t>(sample(s, d, r).sample.bits[0]), -14);
}

}  // namespace
}  // namespace ptxsim::sim::texture
