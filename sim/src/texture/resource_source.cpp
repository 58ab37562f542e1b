// Adapter from the texture data model to the sampler's interfaces.
#include "resource_source.h"

#include <algorithm>

#include "block_linear.h"

namespace ptxsim::sim::texture {

ChannelFormat channelFormatOf(const ElementFormat& format) {
  ChannelFormat f;
  switch (format.kind) {
    case sim::ChannelKind::Signed: f.kind = ChannelKind::Signed; break;
    case sim::ChannelKind::Unsigned: f.kind = ChannelKind::Unsigned; break;
    case sim::ChannelKind::Float: f.kind = ChannelKind::Float; break;
  }
  f.bits = format.bitsPerChannel;
  f.channels = format.channels;
  return f;
}

namespace {

AddressMode addressOf(sim::AddressMode m) {
  switch (m) {
    case sim::AddressMode::Wrap: return AddressMode::Wrap;
    case sim::AddressMode::Clamp: return AddressMode::Clamp;
    case sim::AddressMode::Mirror: return AddressMode::Mirror;
    case sim::AddressMode::Border: return AddressMode::Border;
  }
  return AddressMode::Clamp;
}

FilterMode filterOf(sim::FilterMode m) {
  return m == sim::FilterMode::Linear ? FilterMode::Linear : FilterMode::Point;
}

}  // namespace

SamplerDesc samplerDescOf(const TextureDesc& desc) {
  SamplerDesc d;
  for (int i = 0; i < 3; ++i) d.address[i] = addressOf(desc.addressMode[i]);
  d.filter = filterOf(desc.filterMode);
  d.read = desc.readMode == sim::ReadMode::NormalizedFloat ? ReadMode::NormalizedFloat : ReadMode::ElementType;
  d.srgb = desc.sRGB;
  d.border = desc.borderColor;
  d.normalizedCoords = desc.normalizedCoords;
  d.mipFilter = filterOf(desc.mipmapFilterMode);
  d.mipBias = desc.mipmapLevelBias;
  d.minMipClamp = desc.minMipmapLevelClamp;
  d.maxMipClamp = desc.maxMipmapLevelClamp;
  return d;
}

std::array<uint32_t, 4> unpackElement(const uint8_t* bytes, const ElementFormat& format) {
  std::array<uint32_t, 4> raw{0, 0, 0, 0};
  const unsigned size = format.channelBytes();
  for (unsigned c = 0; c < format.channels && c < 4; ++c) {
    uint32_t v = 0;
    for (unsigned b = 0; b < size; ++b) v |= static_cast<uint32_t>(bytes[c * size + b]) << (8 * b);
    raw[c] = v;
  }
  return raw;
}

ResourceTexelSource::ResourceTexelSource(const ResourceView& view, const memory::PageStore& store)
    : view_(view), store_(store), format_(channelFormatOf(view.elementFormat())) {}

const CudaArray& ResourceTexelSource::level(int l) const {
  if (view_.kind == ResourceKind::MipmappedArray) return *view_.mipmapped->levels[static_cast<size_t>(l)];
  return *view_.array;
}

Extent ResourceTexelSource::extent(int l) const {
  switch (view_.kind) {
    case ResourceKind::Linear:
      return {static_cast<int>(std::min<uint64_t>(view_.sizeInBytes / view_.format.bytes(), INT32_MAX)), 1, 1};
    case ResourceKind::Pitch2D:
      return {static_cast<int>(view_.width), static_cast<int>(view_.height), 1};
    default: {
      const CudaArray& a = level(l);
      return {static_cast<int>(a.width), static_cast<int>(a.height), static_cast<int>(a.depth)};
    }
  }
}

int ResourceTexelSource::levels() const {
  return view_.kind == ResourceKind::MipmappedArray ? static_cast<int>(view_.mipmapped->levels.size()) : 1;
}

int ResourceTexelSource::slices() const {
  if (view_.kind == ResourceKind::Array || view_.kind == ResourceKind::MipmappedArray)
    return static_cast<int>(level(0).layers);
  return 1;
}

std::array<uint32_t, 4> ResourceTexelSource::texel(int x, int y, int z, int slice, int l) const {
  const ElementFormat& f = view_.elementFormat();
  uint64_t address = 0;
  uint64_t cacheAddress = 0;
  switch (view_.kind) {
    case ResourceKind::Linear: address = cacheAddress = view_.devPtr + uint64_t(x) * f.bytes(); break;
    case ResourceKind::Pitch2D:
      address = cacheAddress = view_.devPtr + uint64_t(y) * view_.pitchInBytes + uint64_t(x) * f.bytes();
      break;
    default: {
      const CudaArray& a = level(l);
      address = a.texelAddress(uint64_t(slice), uint64_t(x), uint64_t(y), uint64_t(z));
      cacheAddress = cacheTexelAddress(a, uint64_t(slice), uint64_t(x), uint64_t(y), uint64_t(z));
      break;
    }
  }
  std::array<uint8_t, 16> bytes{};
  store_.read(address, bytes.data(), f.bytes());
  reads_.push_back({address, f.bytes(), cacheAddress});
  return unpackElement(bytes.data(), f);
}

}  // namespace ptxsim::sim::texture
