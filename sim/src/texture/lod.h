// The level of detail the texture unit derives from gradients (tex.grad), as measured on an H100
// (tests/sim/data/texture_lod_probe.cu and its recorded output):
//  - log2 is a table of 256 entries indexed by the top 8 bits of the mantissa (truncated), in units
//    of 1/256 of a level, exact for every isotropic gradient probed (12 096 values, 8 octaves);
//  - the footprint length is max(L(dPdx), L(dPdy), 11/16 L(dPdx + dPdy), 11/16 L(dPdx - dPdy)), where
//    L(v) approximates |v| as its largest component plus 11/32 of the others (gradients in texels).
//    For 1D and 2D gradients this is within 2/256 of the H100's level of detail on every probed
//    gradient and equal to it on most (see texture_sampling_test.cpp for the figures); for 3D
//    gradients the H100 departs from it by up to 22/256 in a way not modelled;
//  - cubemap gradients (of the direction) are projected onto the face in a way not modelled either
//    (the probe's GC rows): the sampler refuses them.
#pragma once

#include <array>
#include <cstdint>

namespace ptxsim::sim::texture {

constexpr int32_t kLodMinusInfinity = INT32_MIN;

// log2(rho) in 1/256 units through the hardware's table; kLodMinusInfinity for rho <= 0.
int32_t tableLog2x256(double rho);

// The level of detail of gradients dPdx, dPdy (in texels, `dims` components used), in 1/256 units.
int32_t gradientLodx256(const std::array<double, 3>& dPdx, const std::array<double, 3>& dPdy, int dims);

}  // namespace ptxsim::sim::texture
