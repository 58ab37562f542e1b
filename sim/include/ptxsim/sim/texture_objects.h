#pragma once

// CUDA arrays, texture objects and surface objects: the data model the
// cudart shim builds and the tex/tld4/txq/istypep/suld/sust/sured/suq
// handlers read. It mirrors CUDA's descriptors (cudaChannelFormatDesc,
// cudaResourceDesc, cudaTextureDesc) without depending on CUDA's headers.
//
// Where texels live: a CUDA array's texels are ordinary simulated device
// memory, one allocation of kind memory::AllocationKind::Array per array
// (per mipmapped array, holding every level). Within a level the layout is
// row-major and tightly packed, element by element:
//   address(layer, x, y, z) = base + layer * layerBytes + z * sliceBytes + y * rowBytes + x * elementBytes
// where rowBytes = width * elementBytes, sliceBytes = rowBytes * height,
// layerBytes = sliceBytes * depth. A layer is a layer of a layered array or
// a face of a cubemap (face f of cubemap layer l is layer 6 * l + f). Levels
// of a mipmapped array follow each other, level 0 first. So host copies,
// memcheck-like reporting and the page store serve arrays unchanged; the
// real GPU's layout is opaque (block-linear) and no program can observe it,
// only its caches can: the timing model addresses its caches with it
// (sim/src/texture/block_linear.h).
//
// Handles: every array, mipmapped array, texture object and surface object
// gets a 64-bit handle from one counter, never reused and never 0, so a
// handle names at most one thing of one kind for the life of the Gpu.

#include <array>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/memory/page_store.h"

namespace ptxsim::sim {

// ---------------------------------------------------------------- formats

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

// One element: 1, 2 or 4 channels of the same width; 16-bit floats are IEEE
// halves. (CUDA also allows 3 channels in a descriptor but no array format
// has them.)
struct ElementFormat {
  uint8_t channels = 1;         // 1, 2 or 4
  uint8_t bitsPerChannel = 32;  // 8, 16 or 32
  ChannelKind kind = ChannelKind::Float;

  uint32_t channelBytes() const { return bitsPerChannel / 8u; }
  uint32_t bytes() const { return channels * channelBytes(); }
  // Float needs 16 or 32 bits; every kind needs 1, 2 or 4 channels.
  bool valid() const;
  bool operator==(const ElementFormat&) const = default;
};

// ----------------------------------------------------------------- arrays

struct ArrayFlags {
  bool layered = false;           // cudaArrayLayered
  bool cubemap = false;           // cudaArrayCubemap
  bool surfaceLoadStore = false;  // cudaArraySurfaceLoadStore: surface objects may bind it
  bool textureGather = false;     // cudaArrayTextureGather: tex2Dgather may read it
};

// What to allocate, in CUDA's terms (cudaExtent plus flags): height 0 for
// a 1D array, depth 0 for 1D/2D; for a layered array depth is the layer
// count (height 0 for 1D layered); for a cubemap width == height and depth is
// 6 (6 * layers when also layered).
struct ArrayShape {
  ElementFormat format;
  uint64_t width = 0;
  uint64_t height = 0;
  uint64_t depth = 0;
  ArrayFlags flags;
  uint32_t levels = 1;  // mipmap levels (a mipmapped array); 1 for a plain array
};

// One level of texels in device memory: a plain array, or one level of a
// mipmapped array (cudaGetMipmappedArrayLevel gives it its own handle).
struct CudaArray {
  ElementFormat format;
  ArrayFlags flags;
  uint32_t dimensions = 1;  // 1, 2 or 3 (of one layer or face)
  uint64_t width = 1;       // each at least 1
  uint64_t height = 1;
  uint64_t depth = 1;
  uint64_t layers = 1;  // layers * faces: 1 unless layered or cubemap
  uint64_t base = 0;    // device address of texel (0,0,0) of layer 0
  uint32_t level = 0;   // the mipmap level this is, 0 for a plain array

  uint64_t rowBytes() const { return width * format.bytes(); }
  uint64_t sliceBytes() const { return rowBytes() * height; }
  uint64_t layerBytes() const { return sliceBytes() * depth; }
  uint64_t bytes() const { return layerBytes() * layers; }
  // The device address of one element; the caller has bounds-checked.
  uint64_t texelAddress(uint64_t layer, uint64_t x, uint64_t y, uint64_t z) const {
    return base + layer * layerBytes() + z * sliceBytes() + y * rowBytes() + x * format.bytes();
  }
  bool inBounds(uint64_t layer, uint64_t x, uint64_t y, uint64_t z) const {
    return layer < layers && x < width && y < height && z < depth;
  }
  // The extent CUDA reports (cudaArrayGetInfo): 0 for unused dimensions,
  // the layer count (times 6 for cubemaps) in depth when layered/cubemap.
  std::array<uint64_t, 3> extent() const;
};

// A mipmapped array: its levels (level i is max(1, size >> i) in each
// dimension that exists; layers are not reduced), in one allocation.
struct MipmappedArray {
  std::vector<uint64_t> levelHandles;  // handles of the level arrays, level 0 first
  std::vector<std::shared_ptr<const CudaArray>> levels;
  uint64_t base = 0;  // the allocation
};

// ------------------------------------------------------ texture / surface

enum class ResourceKind : uint8_t { Array, MipmappedArray, Linear, Pitch2D };

// What a texture or surface object reads (cudaResourceDesc). The handle
// fields keep what the program gave, to give it back.
struct ResourceView {
  ResourceKind kind = ResourceKind::Array;
  uint64_t arrayHandle = 0;                           // Array / MipmappedArray
  std::shared_ptr<const CudaArray> array;             // Array
  std::shared_ptr<const MipmappedArray> mipmapped;    // MipmappedArray
  uint64_t devPtr = 0;                                // Linear / Pitch2D
  ElementFormat format;                               // Linear / Pitch2D
  uint64_t sizeInBytes = 0;                           // Linear
  uint64_t width = 0, height = 0, pitchInBytes = 0;   // Pitch2D (width/height in elements)

  // The element format whatever the kind.
  const ElementFormat& elementFormat() const;
  // The device range the resource reads, [first, first + bytes).
  std::pair<uint64_t, uint64_t> deviceRange() const;
};

enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class FilterMode : uint8_t { Point, Linear };
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };

// cudaTextureDesc.
struct TextureDesc {
  std::array<AddressMode, 3> addressMode{AddressMode::Wrap, AddressMode::Wrap, AddressMode::Wrap};
  FilterMode filterMode = FilterMode::Point;
  ReadMode readMode = ReadMode::ElementType;
  bool sRGB = false;
  std::array<float, 4> borderColor{};
  bool normalizedCoords = false;
  uint32_t maxAnisotropy = 0;
  FilterMode mipmapFilterMode = FilterMode::Point;
  float mipmapLevelBias = 0;
  float minMipmapLevelClamp = 0;
  float maxMipmapLevelClamp = 0;
  bool disableTrilinearOptimization = false;
  bool seamlessCubemap = false;
};

struct TextureObject {
  ResourceView resource;
  TextureDesc desc;
};

// A surface object binds an array made with the surfaceLoadStore flag.
struct SurfaceObject {
  ResourceView resource;  // kind Array
};

// --------------------------------------------------------------- registry

// Arrays and objects of one Gpu. Creation and destruction happen on the
// host between launches; look-ups may run concurrently from every host
// thread of a launch (a shared lock). A returned pointer stays valid until
// the object is destroyed.
class TextureRegistry {
 public:
  TextureRegistry(memory::AllocationTable& allocations, memory::PageStore& store)
      : allocations_(allocations), store_(store) {}

  // Allocates an array (shape.levels == 1) or a mipmapped array in device
  // memory, zero-filled. Returns its handle, or 0 with `error` set when the
  // shape is invalid (the caller maps that to CUDA's error code; this checks
  // geometry only, not CUDA's size limits).
  uint64_t createArray(const ArrayShape& shape, std::string& error);
  // Frees an array made by createArray with levels == 1 (not a level of a
  // mipmapped array); false if `handle` is none.
  bool destroyArray(uint64_t handle);
  bool destroyMipmappedArray(uint64_t handle);

  uint64_t createTexture(TextureObject texture);
  uint64_t createSurface(SurfaceObject surface);
  bool destroyTexture(uint64_t handle);
  bool destroySurface(uint64_t handle);

  // Null for unknown or destroyed handles (and for a handle of another kind).
  std::shared_ptr<const CudaArray> array(uint64_t handle) const;
  std::shared_ptr<const MipmappedArray> mipmappedArray(uint64_t handle) const;
  const TextureObject* texture(uint64_t handle) const;
  const SurfaceObject* surface(uint64_t handle) const;

  // The device ranges live textures and surfaces can read, [first, first +
  // bytes): what --check=warp-sync watches for writes during a launch.
  std::vector<std::pair<uint64_t, uint64_t>> boundRanges() const;

 private:
  memory::AllocationTable& allocations_;
  memory::PageStore& store_;
  mutable std::shared_mutex mutex_;
  uint64_t next_ = 1;
  std::unordered_map<uint64_t, std::shared_ptr<const CudaArray>> arrays_;
  std::unordered_map<uint64_t, std::shared_ptr<const MipmappedArray>> mipmapped_;
  std::unordered_map<uint64_t, std::unique_ptr<const TextureObject>> textures_;
  std::unordered_map<uint64_t, std::unique_ptr<const SurfaceObject>> surfaces_;
};

// Reads one element of `array` (layer/face, x, y, z in elements, in
// bounds) as raw bytes into out[0 .. format.bytes()).
void readTexel(const memory::PageStore& store, const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y,
               uint64_t z, void* out);
// Writes one element.
void writeTexel(memory::PageStore& store, const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y, uint64_t z,
                const void* in);

}  // namespace ptxsim::sim
