// Which texels a fetch reads and with what integer weights: addressing of one axis, the point
// footprint, and the linear footprint with the texture unit's 1/256 weights.  Internal to the
// sampler (sampling.cpp), which turns a footprint into a value.
//
// The linear weights, measured on an H100 with one-hot textures (tests/sim/data/
// texture_weights_probe.cu; every 3D and trilinear weight it recorded is reproduced):
//  - each axis has a weight w = round-half-up(frac * 256) of its upper texel; w = 256 counts as
//    weight 0 of the next texel;
//  - a third axis (z of a 3D texture, or the next mipmap level) splits 256 into slices
//    S0 = 256 - w and S1 = w, which are exact;
//  - inside a slice of weight S: x1 = round-half-up(S * wx / 256) and x0 = S - x1; then
//    w(x1, y1) = round-half-up(x1 * wy / 256) and w(x0, y1) = round-half-down(x0 * wy / 256), the
//    y0 corners taking the rest.  For S = 256 this is the 2D rule w11 = round(wx * wy / 256);
//  - under clamp addressing the coordinate is clamped to the texel centres [0.5, size - 0.5]
//    before the weights are taken (this shows only through the rounding of the slices);
//  - a 1D texture is filtered as a 2D texture of height 1 at y = 0, so with border addressing its
//    texels blend half and half with the border.
#pragma once

#include <array>
#include <cstdint>

#include "sampling.h"

namespace ptxsim::sim::texture {

// Addressing of one dimension.
struct Axis {
  int size = 1;
  AddressMode mode = AddressMode::Clamp;
  bool normalized = false;
};

// The coordinate in texel units after the coordinate-level part of the address mode.
double texelCoordinate(float x, const Axis& a);

// The texel index after the index-level part of the address mode, or -1 for the border.
int64_t addressIndex(int64_t i, const Axis& a);

// One texel of a footprint with its integer weight (units of 2^-weightShift), or the border.
struct Corner {
  uint64_t weight = 0;
  bool border = false;
  std::array<uint32_t, 4> raw{};
};

struct Footprint {
  std::array<Corner, 8> corners{};
  int count = 0;
  int weightShift = 8;
};

// Where a footprint's texels are: the axes of one level (two for 1D textures, filtered as 2D),
// the slice (layer or cube face) and the level.
struct Site {
  int dims = 2;
  std::array<Axis, 3> axes;
  int slice = 0;
  int level = 0;
};

Footprint pointFootprint(const TexelSource& src, const Site& site, const std::array<double, 3>& u);

// One level of a linear fetch: where it reads and its texel-space coordinates.
struct LinearLevel {
  Site site;
  std::array<double, 3> u{0, 0, 0};
};

// srgbWeights: sRGB channels are filtered with axis weights rounded to multiples of 1/16 (measured).
// `upper`, when given, is the next mipmap level, weighing `mipWeight` / 256 (trilinear filtering).
Footprint linearFootprint(const TexelSource& src, const LinearLevel& level, bool srgbWeights,
                          const LinearLevel* upper = nullptr, int mipWeight = 0);

// The four texels of the bilinear footprint in the order (i,j) (i+1,j) (i,j+1) (i+1,j+1), read
// whatever their weight (tld4).
Footprint gatherFootprint(const TexelSource& src, const LinearLevel& level);

}  // namespace ptxsim::sim::texture
