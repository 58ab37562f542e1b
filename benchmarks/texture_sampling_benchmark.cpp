// Texture fetches per second through the sampler (sim/src/texture), one host thread: the
// arithmetic a tex instruction pays per lane, for the common filters. A fetch here reads texels
// from a vector, so this measures the filtering, not device memory.
#include <benchmark/benchmark.h>

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "../sim/src/texture/sampling.h"

namespace {

using namespace ptxsim::sim::texture;

// Texels in a vector, every level and slice of a w x h x d resource.
class Texels : public TexelSource {
 public:
  Texels(ChannelFormat f, Extent e, int levels) : f_(f), e_(e), levels_(levels) {
    for (int l = 0; l < levels; ++l) {
      offsets_.push_back(data_.size());
      const Extent x = extent(l);
      for (size_t i = 0; i < static_cast<size_t>(x.width) * x.height * x.depth; ++i)
        data_.push_back({std::bit_cast<uint32_t>(0.37f * static_cast<float>(i % 97)), static_cast<uint32_t>(i * 7919u),
                         static_cast<uint32_t>(i * 104729u), 0x3f800000u});
    }
  }
  ChannelFormat format() const override { return f_; }
  Extent extent(int l) const override {
    return {std::max(1, e_.width >> l), std::max(1, e_.height >> l), std::max(1, e_.depth >> l)};
  }
  int levels() const override { return levels_; }
  int slices() const override { return 1; }
  std::array<uint32_t, 4> texel(int x, int y, int z, int, int l) const override {
    const Extent e = extent(l);
    return data_[offsets_[l] + (static_cast<size_t>(z) * e.height + y) * e.width + x];
  }

 private:
  ChannelFormat f_;
  Extent e_;
  int levels_;
  std::vector<size_t> offsets_;
  std::vector<std::array<uint32_t, 4>> data_;
};

void fetches(benchmark::State& state, ChannelFormat format, Geometry g, Extent e, int levels, FilterMode filter,
             FilterMode mipFilter, ReadMode read) {
  const Texels texels(format, e, levels);
  SamplerDesc d;
  d.filter = filter;
  d.mipFilter = mipFilter;
  d.read = read;
  d.normalizedCoords = true;
  d.maxMipClamp = 16.f;
  Request r;
  r.geometry = g;
  if (levels > 1) r.lod.kind = Lod::Kind::Level;
  uint32_t i = 0;
  for (auto _ : state) {
    // Coordinates and levels of detail that move every fetch.
    r.coord = {static_cast<float>(i % 1021) / 1021.f, static_cast<float>(i % 977) / 977.f,
               static_cast<float>(i % 499) / 499.f};
    r.lod.level = static_cast<float>(i % 613) / 200.f;
    benchmark::DoNotOptimize(sample(texels, d, r));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

const ChannelFormat kFloat4{ChannelKind::Float, 32, 4};
const ChannelFormat kUchar4{ChannelKind::Unsigned, 8, 4};

void pointFloat4(benchmark::State& s) {
  fetches(s, kFloat4, Geometry::Dim2, {256, 256, 1}, 1, FilterMode::Point, FilterMode::Point, ReadMode::ElementType);
}
void bilinearFloat4(benchmark::State& s) {
  fetches(s, kFloat4, Geometry::Dim2, {256, 256, 1}, 1, FilterMode::Linear, FilterMode::Point, ReadMode::ElementType);
}
void bilinearUchar4NormalizedFloat(benchmark::State& s) {
  fetches(s, kUchar4, Geometry::Dim2, {256, 256, 1}, 1, FilterMode::Linear, FilterMode::Point,
          ReadMode::NormalizedFloat);
}
void linear3dFloat4(benchmark::State& s) {
  fetches(s, kFloat4, Geometry::Dim3, {64, 64, 64}, 1, FilterMode::Linear, FilterMode::Point, ReadMode::ElementType);
}
void trilinearMipFloat4(benchmark::State& s) {
  fetches(s, kFloat4, Geometry::Dim2, {256, 256, 1}, 9, FilterMode::Linear, FilterMode::Linear,
          ReadMode::ElementType);
}

BENCHMARK(pointFloat4);
BENCHMARK(bilinearFloat4);
BENCHMARK(bilinearUchar4NormalizedFloat);
BENCHMARK(linear3dFloat4);
BENCHMARK(trilinearMipFloat4);

}  // namespace

BENCHMARK_MAIN();
