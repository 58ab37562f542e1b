// Texture sampling as the texture unit computes it: addressing, point/linear filtering with the
// hardware's 8-bit fractional weights, read modes (element type, normalized float, sRGB), layered,
// cubemap, mipmapped (explicit LOD and gradients) fetches and the tld4 gather.  Pure functions over an
// abstract texel source, so the arithmetic is tested alone and the PTX handlers only adapt operands.
//
// The rules below were measured on an H100 where the programming guide is silent (see
// tests/sim/texture_sampling_test.cpp for the recorded values):
//  - normalized coordinates are truncated to 22 fractional bits before scaling by the size;
//  - a linear weight is frac(x - 0.5) rounded half-up to 8 fractional bits (so 1.0 is reachable);
//  - float texels are flushed to zero, the weighted sum is exact and rounded to nearest, ties away;
//  - 8/16-bit normalized formats are filtered in the integer domain of a 16-bit normalized value and
//    rounded half-up; sRGB goes through the hardware's 16-bit table (filtered with 4-bit weights);
//    half-float results are rounded to half;
//  - mipmap level fractions are truncated to 8 bits; point mip selection rounds half-up;
//  - cube faces are chosen with ties going to z, then y.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxsim::sim::texture {

enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class FilterMode : uint8_t { Point, Linear };
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };
enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

// The element format of the resource: every channel has the same kind and width (CUDA arrays of
// 1, 2 or 4 channels of 8/16/32 bits).
struct ChannelFormat {
  ChannelKind kind = ChannelKind::Float;
  int bits = 32;
  int channels = 1;
};

// Mirrors cudaTextureDesc (texture_types.h) in the fields sampling reads.
struct SamplerDesc {
  std::array<AddressMode, 3> address{AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  FilterMode filter = FilterMode::Point;
  ReadMode read = ReadMode::ElementType;
  bool srgb = false;
  std::array<float, 4> border{0.f, 0.f, 0.f, 0.f};
  bool normalizedCoords = false;
  FilterMode mipFilter = FilterMode::Point;
  float mipBias = 0.f;
  float minMipClamp = 0.f;
  float maxMipClamp = 0.f;
};

enum class Geometry : uint8_t { Dim1, Dim2, Dim3, Cube };

struct Extent {
  int width = 1, height = 1, depth = 1;
};

// Where texels come from: the raw channel bits (zero-extended) of one texel at integer, in-range
// coordinates.  `slice` is the layer of a layered texture, or face + 6 * layer of a cubemap.
class TexelSource {
 public:
  virtual ~TexelSource() = default;
  virtual ChannelFormat format() const = 0;
  virtual Extent extent(int level) const = 0;  // of one layer / face
  virtual int levels() const = 0;
  virtual int slices() const = 0;  // layers (1 when not layered); cubemaps: 6 * layers
  virtual std::array<uint32_t, 4> texel(int x, int y, int z, int slice, int level) const = 0;
};

// What a fetch returns: four 32-bit lanes, float bits or integers as the read mode says.
struct Sample {
  std::array<uint32_t, 4> bits{0, 0, 0, 1};
  bool isFloat = true;
};

// The level of detail of one fetch.
struct Lod {
  enum class Kind : uint8_t { Base, Level, Gradient } kind = Kind::Base;
  float level = 0.f;
  std::array<float, 3> dPdx{0.f, 0.f, 0.f};
  std::array<float, 3> dPdy{0.f, 0.f, 0.f};
};

struct Request {
  Geometry geometry = Geometry::Dim2;
  bool layered = false;
  int layer = 0;
  std::array<float, 3> coord{0.f, 0.f, 0.f};  // x y z, or the cube direction
  Lod lod;
};

// Returns the sample, or the reason the fetch cannot be computed faithfully.
struct Result {
  Sample sample;
  std::optional<std::string> unsupported;
};

Result sample(const TexelSource& src, const SamplerDesc& desc, const Request& req);

// tld4: component `component` of the four texels of the bilinear footprint, in the ISA's order
// (i,j+1) (i+1,j+1) (i+1,j) (i,j), converted as the read mode says.
Result gather(const TexelSource& src, const SamplerDesc& desc, const Request& req, int component);

// Building blocks, exposed for the unit tests.
float convertChannel(uint32_t raw, const ChannelFormat& fmt, ReadMode mode, bool srgb, int channel);
uint32_t srgbTableBits(uint8_t v);
int linearWeight256(double fraction);  // frac in [0,1) -> round-half-up(frac * 256), 0..256
double quantizeNormalized(float x);    // normalized coordinate truncated to 22 fractional bits
float roundSumTiesAway(const uint64_t* weights, const float* values, int n, int weightShift);

}  // namespace ptxsim::sim::texture
