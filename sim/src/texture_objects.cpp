#include "ptxsim/sim/texture_objects.h"

#include <algorithm>
#include <mutex>

namespace ptxsim::sim {

bool ElementFormat::valid() const {
  if (channels != 1 && channels != 2 && channels != 4) return false;
  if (kind == ChannelKind::Float) return bitsPerChannel == 16 || bitsPerChannel == 32;
  return bitsPerChannel == 8 || bitsPerChannel == 16 || bitsPerChannel == 32;
}

std::array<uint64_t, 3> CudaArray::extent() const {
  std::array<uint64_t, 3> e{width, dimensions >= 2 ? height : 0, dimensions >= 3 ? depth : 0};
  if (flags.layered || flags.cubemap) e[2] = layers;
  return e;
}

const ElementFormat& ResourceView::elementFormat() const {
  switch (kind) {
    case ResourceKind::Array:
      return array->format;
    case ResourceKind::MipmappedArray:
      return mipmapped->levels.front()->format;
    default:
      return format;
  }
}

std::pair<uint64_t, uint64_t> ResourceView::deviceRange() const {
  switch (kind) {
    case ResourceKind::Array:
      return {array->base, array->bytes()};
    case ResourceKind::MipmappedArray: {
      const CudaArray& last = *mipmapped->levels.back();
      return {mipmapped->base, last.base + last.bytes() - mipmapped->base};
    }
    case ResourceKind::Linear:
      return {devPtr, sizeInBytes};
    case ResourceKind::Pitch2D:
      return {devPtr, height == 0 ? 0 : (height - 1) * pitchInBytes + width * format.bytes()};
  }
  return {0, 0};
}

namespace {

// The level-0 array of a shape, or an error. Geometry only: CUDA's size
// limits are the shim's business.
bool levelZero(const ArrayShape& s, CudaArray& a, std::string& error) {
  if (!s.format.valid()) return error = "invalid element format", false;
  if (s.width == 0) return error = "width is 0", false;
  if (s.levels == 0) return error = "0 mipmap levels", false;
  a.format = s.format;
  a.flags = s.flags;
  a.width = s.width;
  if (s.flags.cubemap) {
    if (s.width != s.height) return error = "a cubemap needs width == height", false;
    if (s.depth == 0 || s.depth % 6 != 0 || (!s.flags.layered && s.depth != 6)) {
      return error = "a cubemap needs depth 6 (a multiple of 6 when layered)", false;
    }
    a.dimensions = 2;
    a.height = s.height;
    a.layers = s.depth;
    return true;
  }
  if (s.flags.layered) {
    if (s.depth == 0) return error = "a layered array needs depth (its layer count) > 0", false;
    a.dimensions = s.height == 0 ? 1 : 2;
    a.height = std::max<uint64_t>(s.height, 1);
    a.layers = s.depth;
    return true;
  }
  if (s.height == 0 && s.depth != 0) return error = "depth without height", false;
  a.dimensions = s.depth != 0 ? 3 : s.height != 0 ? 2 : 1;
  a.height = std::max<uint64_t>(s.height, 1);
  a.depth = std::max<uint64_t>(s.depth, 1);
  return true;
}

}  // namespace

uint64_t TextureRegistry::createArray(const ArrayShape& shape, std::string& error) {
  CudaArray zero;
  if (!levelZero(shape, zero, error)) return 0;
  std::vector<CudaArray> levels;
  uint64_t bytes = 0;
  for (uint32_t l = 0; l < shape.levels; ++l) {
    CudaArray a = zero;
    a.level = l;
    a.width = std::max<uint64_t>(zero.width >> l, 1);
    if (zero.dimensions >= 2) a.height = std::max<uint64_t>(zero.height >> l, 1);
    if (zero.dimensions >= 3) a.depth = std::max<uint64_t>(zero.depth >> l, 1);
    a.base = bytes;  // offset for now
    bytes += (a.bytes() + 255) / 256 * 256;  // each level starts on a granule
    levels.push_back(a);
  }
  std::unique_lock lock(mutex_);
  const memory::Allocation& alloc =
      allocations_.allocate(bytes, 512, memory::AllocationKind::Array, shape.levels > 1 ? "mipmapped array" : "array");
  for (CudaArray& a : levels) a.base += alloc.base;
  if (shape.levels == 1) {
    uint64_t handle = next_++;
    arrays_[handle] = std::make_shared<const CudaArray>(levels[0]);
    return handle;
  }
  auto mip = std::make_shared<MipmappedArray>();
  mip->base = alloc.base;
  for (const CudaArray& a : levels) {
    uint64_t h = next_++;
    auto level = std::make_shared<const CudaArray>(a);
    arrays_[h] = level;
    mip->levelHandles.push_back(h);
    mip->levels.push_back(level);
  }
  uint64_t handle = next_++;
  mipmapped_[handle] = std::move(mip);
  return handle;
}

bool TextureRegistry::destroyArray(uint64_t handle) {
  std::unique_lock lock(mutex_);
  auto it = arrays_.find(handle);
  if (it == arrays_.end()) return false;
  for (auto& [h, m] : mipmapped_) {
    for (uint64_t level : m->levelHandles) {
      if (level == handle) return false;  // freed with its mipmapped array
    }
  }
  if (auto gone = allocations_.release(it->second->base)) store_.release(gone->base, gone->size);
  arrays_.erase(it);
  return true;
}

bool TextureRegistry::destroyMipmappedArray(uint64_t handle) {
  std::unique_lock lock(mutex_);
  auto it = mipmapped_.find(handle);
  if (it == mipmapped_.end()) return false;
  for (uint64_t level : it->second->levelHandles) arrays_.erase(level);
  if (auto gone = allocations_.release(it->second->base)) store_.release(gone->base, gone->size);
  mipmapped_.erase(it);
  return true;
}

uint64_t TextureRegistry::createTexture(TextureObject texture) {
  std::unique_lock lock(mutex_);
  uint64_t handle = next_++;
  textures_[handle] = std::make_unique<const TextureObject>(std::move(texture));
  return handle;
}

uint64_t TextureRegistry::createSurface(SurfaceObject surface) {
  std::unique_lock lock(mutex_);
  uint64_t handle = next_++;
  surfaces_[handle] = std::make_unique<const SurfaceObject>(std::move(surface));
  return handle;
}

bool TextureRegistry::destroyTexture(uint64_t handle) {
  std::unique_lock lock(mutex_);
  return textures_.erase(handle) != 0;
}

bool TextureRegistry::destroySurface(uint64_t handle) {
  std::unique_lock lock(mutex_);
  return surfaces_.erase(handle) != 0;
}

std::shared_ptr<const CudaArray> TextureRegistry::array(uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = arrays_.find(handle);
  return it == arrays_.end() ? nullptr : it->second;
}

std::shared_ptr<const MipmappedArray> TextureRegistry::mipmappedArray(uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = mipmapped_.find(handle);
  return it == mipmapped_.end() ? nullptr : it->second;
}

const TextureObject* TextureRegistry::texture(uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = textures_.find(handle);
  return it == textures_.end() ? nullptr : it->second.get();
}

const SurfaceObject* TextureRegistry::surface(uint64_t handle) const {
  std::shared_lock lock(mutex_);
  auto it = surfaces_.find(handle);
  return it == surfaces_.end() ? nullptr : it->second.get();
}

std::vector<std::pair<uint64_t, uint64_t>> TextureRegistry::boundRanges() const {
  std::shared_lock lock(mutex_);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [h, t] : textures_) out.push_back(t->resource.deviceRange());
  for (const auto& [h, s] : surfaces_) out.push_back(s->resource.deviceRange());
  std::sort(out.begin(), out.end());
  return out;
}

void readTexel(const memory::PageStore& store, const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y,
               uint64_t z, void* out) {
  store.read(array.texelAddress(layer, x, y, z), out, array.format.bytes());
}

void writeTexel(memory::PageStore& store, const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y, uint64_t z,
                const void* in) {
  store.write(array.texelAddress(layer, x, y, z), in, array.format.bytes());
}

}  // namespace ptxsim::sim
