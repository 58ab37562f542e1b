// Test helpers for the texture sampler: texels held in a vector, and a sampler description.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "../../sim/src/texture/sampling.h"

namespace ptxsim::sim::texture {

// Texels in a vector: levels of (w>>l, h>>l, d>>l) texels, `slices` slices each.
class VectorSource : public TexelSource {
 public:
  VectorSource(ChannelFormat f, Extent e, int levels = 1, int slices = 1)
      : f_(f), e_(e), levels_(levels), slices_(slices) {
    for (int l = 0; l < levels; ++l) {
      const Extent x = extent(l);
      offsets_.push_back(data_.size());
      data_.resize(data_.size() + static_cast<size_t>(x.width) * x.height * x.depth * slices * 4);
    }
  }
  ChannelFormat format() const override { return f_; }
  Extent extent(int l) const override {
    return {std::max(1, e_.width >> l), std::max(1, e_.height >> l), std::max(1, e_.depth >> l)};
  }
  int levels() const override { return levels_; }
  int slices() const override { return slices_; }
  std::array<uint32_t, 4> texel(int x, int y, int z, int s, int l) const override {
    std::array<uint32_t, 4> r{};
    for (int c = 0; c < 4; ++c) r[c] = data_[index(x, y, z, s, l) + c];
    return r;
  }
  void set(int x, int y, int z, int s, int l, std::array<uint32_t, 4> v) {
    for (int c = 0; c < 4; ++c) data_[index(x, y, z, s, l) + c] = v[c];
  }
  void setF(int x, int y, int z, int s, int l, float v) {
    set(x, y, z, s, l, {std::bit_cast<uint32_t>(v), 0, 0, 0});
  }

 private:
  size_t index(int x, int y, int z, int s, int l) const {
    const Extent e = extent(l);
    return offsets_[l] + ((((static_cast<size_t>(s) * e.depth + z) * e.height + y) * e.width + x) * 4);
  }
  ChannelFormat f_;
  Extent e_;
  int levels_, slices_;
  std::vector<size_t> offsets_;
  std::vector<uint32_t> data_;
};

inline ChannelFormat f32() { return {ChannelKind::Float, 32, 1}; }

inline SamplerDesc desc(FilterMode f, AddressMode a, bool norm, ReadMode rm = ReadMode::ElementType) {
  SamplerDesc d;
  d.address = {a, a, a};
  d.filter = f;
  d.read = rm;
  d.normalizedCoords = norm;
  return d;
}

}  // namespace ptxsim::sim::texture
