// The texture data model (texture_objects.h: a resource view over CUDA arrays, linear or pitched
// memory, and a texture descriptor) seen as the sampler's TexelSource and SamplerDesc. Texels are
// read from the page store as they are; each read is remembered so the caller can tell the
// texture-coherence check which memory a fetch touched.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ptxsim/memory/page_store.h"
#include "ptxsim/sim/texture_objects.h"
#include "sampling.h"

namespace ptxsim::sim::texture {

ChannelFormat channelFormatOf(const ElementFormat& format);
SamplerDesc samplerDescOf(const TextureDesc& desc);

// Unpacks one element's bytes (little endian) into per-channel raw bits, zero-extended.
std::array<uint32_t, 4> unpackElement(const uint8_t* bytes, const ElementFormat& format);

// A resource view as texels. Linear resources are 1D of sizeInBytes / element bytes texels;
// pitch2D resources are 2D with rows `pitchInBytes` apart. Not thread-safe: one per fetch.
class ResourceTexelSource final : public TexelSource {
 public:
  ResourceTexelSource(const ResourceView& view, const memory::PageStore& store);

  ChannelFormat format() const override { return format_; }
  Extent extent(int level) const override;
  int levels() const override;
  int slices() const override;
  std::array<uint32_t, 4> texel(int x, int y, int z, int slice, int level) const override;

  // One texel read: [address, address + bytes) in device memory, and where
  // the caches see it (block-linear for 2D and 3D arrays: block_linear.h).
  struct Read {
    uint64_t address = 0;
    uint32_t bytes = 0;
    uint64_t cacheAddress = 0;
  };
  // Every texel read so far.
  const std::vector<Read>& reads() const { return reads_; }

 private:
  const CudaArray& level(int l) const;

  const ResourceView& view_;
  const memory::PageStore& store_;
  ChannelFormat format_;
  mutable std::vector<Read> reads_;
};

// One texel of a source, seen as a 1x1x1 texture: an integer-indexed fetch (tex1Dfetch) computed
// by the sampler's point path without converting a large index to float.
class SingleTexelSource final : public TexelSource {
 public:
  SingleTexelSource(const TexelSource& inner, int x) : inner_(inner), x_(x) {}
  ChannelFormat format() const override { return inner_.format(); }
  Extent extent(int) const override { return {1, 1, 1}; }
  int levels() const override { return 1; }
  int slices() const override { return 1; }
  std::array<uint32_t, 4> texel(int, int, int, int, int) const override { return inner_.texel(x_, 0, 0, 0, 0); }

 private:
  const TexelSource& inner_;
  int x_;
};

}  // namespace ptxsim::sim::texture
