#pragma once

// Where a CUDA array's texel sits in the GPU's own (block-linear) layout,
// for the timing model's caches only. The functional texels stay row-major
// (texture_objects.h): no program can observe the real layout, but the
// L1's sectors and lines can, since a 32-byte sector of a block-linear
// array covers 16 bytes x 2 rows and a 128-byte line 32 bytes x 4 rows.
//
// The layout (Tegra X1 TRM "Block Linear" and Mesa's nvc0_miptree.c):
//  - a GOB is 64 bytes x 8 rows (512 bytes); within it the byte offset's
//    bits 0-3 are x bits 0-3 (x in bytes), bit 4 is y bit 0, bit 5 is x
//    bit 4, bits 6-7 are y bits 1-2 and bit 8 is x bit 5;
//  - a block is one GOB wide, blockHeightGobs GOBs tall and blockDepth
//    slices deep, its GOBs stacked by row, then by slice;
//  - blocks follow each other along x, then y, then z; a row of blocks is
//    the width rounded up to whole GOBs.
// The block's height and depth are the smallest powers of two that hold the
// array's, at most 16 GOBs (2D) or 4 GOBs x 32 slices (3D; 16 slices with
// 4-GOB-tall blocks), as Mesa's
// nvc0_tex_choose_tile_dims chooses them for the same hardware.

#include <cstdint>

#include "ptxsim/sim/texture_objects.h"

namespace ptxsim::sim::texture {

struct BlockLinearShape {
  uint64_t widthGobs = 1;        // GOBs across a row (the row's bytes rounded up to 64)
  uint64_t blockHeightGobs = 1;  // 1, 2, 4, 8 or 16
  uint64_t blockDepth = 1;       // slices a block holds: 1 to 32
  uint64_t blocksTall = 1;       // blocks down a slice
  uint64_t layerBytes = 0;       // one layer (or face) with its padding
};

// The shape of one layer of `rowBytes` x `height` x `depth` (3D when `is3d`).
BlockLinearShape blockLinearShape(uint64_t rowBytes, uint64_t height, uint64_t depth, bool is3d);

// The byte offset of byte `xBytes` of row `y` of slice `z` within a layer.
uint64_t blockLinearOffset(const BlockLinearShape& shape, uint64_t xBytes, uint64_t y, uint64_t z);

// The address the caches see for element (x, y, z) of `layer` of `array`:
// the array's base plus its block-linear offset for 2D and 3D arrays
// (layered and cubemap ones too), the functional address for 1D arrays,
// whose layout is not measured. Padding can take an address past the
// array's allocation; it then shares cache lines with whatever the
// addresses hold, a timing-only effect.
uint64_t cacheTexelAddress(const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y, uint64_t z);

}  // namespace ptxsim::sim::texture
