// Block-linear texel addresses (the caches' view of a CUDA array) against
// offsets derived by hand from the GOB bit layout (block_linear.h): within a
// GOB, offset bits 0-3 = x bits 0-3, bit 4 = y bit 0, bit 5 = x bit 4,
// bits 6-7 = y bits 1-2, bit 8 = x bit 5 (x in bytes); GOBs 512 bytes.
#include "../../sim/src/texture/block_linear.h"

#include <gtest/gtest.h>

namespace ptxsim::sim::texture {
namespace {

CudaArray floatArray(uint32_t dimensions, uint64_t width, uint64_t height, uint64_t depth,
                     uint64_t layers = 1) {
  CudaArray a;
  a.format = ElementFormat{1, 32, ChannelKind::Float};
  a.dimensions = dimensions;
  a.width = width;
  a.height = height;
  a.depth = depth;
  a.layers = layers;
  a.base = 0x10000;
  return a;
}

uint64_t offsetOf(const CudaArray& a, uint64_t x, uint64_t y, uint64_t z = 0, uint64_t layer = 0) {
  return cacheTexelAddress(a, layer, x, y, z) - a.base;
}

TEST(BlockLinear, BlockHeightIsTheSmallestPowerOfTwoOfGobsUpTo16) {
  EXPECT_EQ(blockLinearShape(256, 8, 1, false).blockHeightGobs, 1u);
  EXPECT_EQ(blockLinearShape(256, 9, 1, false).blockHeightGobs, 2u);
  EXPECT_EQ(blockLinearShape(256, 20, 1, false).blockHeightGobs, 4u);
  EXPECT_EQ(blockLinearShape(256, 64, 1, false).blockHeightGobs, 8u);
  EXPECT_EQ(blockLinearShape(256, 65, 1, false).blockHeightGobs, 16u);
  EXPECT_EQ(blockLinearShape(256, 4096, 1, false).blockHeightGobs, 16u);
  // 3D: at most 4 GOBs tall; 32 slices deep only below that.
  EXPECT_EQ(blockLinearShape(256, 4096, 64, true).blockHeightGobs, 4u);
  EXPECT_EQ(blockLinearShape(256, 4096, 64, true).blockDepth, 16u);
  EXPECT_EQ(blockLinearShape(256, 16, 64, true).blockDepth, 32u);
  EXPECT_EQ(blockLinearShape(256, 16, 3, true).blockDepth, 4u);
}

TEST(BlockLinear, WithinAGobSectorsAre16BytesByTwoRows) {
  CudaArray a = floatArray(2, 512, 512, 1);  // 32 GOBs wide, blocks of 16 GOBs, 4 blocks tall
  EXPECT_EQ(offsetOf(a, 0, 0), 0u);
  EXPECT_EQ(offsetOf(a, 1, 0), 4u);
  EXPECT_EQ(offsetOf(a, 0, 1), 16u);   // y bit 0 -> bit 4: same 32-byte sector
  EXPECT_EQ(offsetOf(a, 4, 0), 32u);   // x byte 16 -> bit 5: the next sector
  EXPECT_EQ(offsetOf(a, 8, 0), 256u);  // x byte 32 -> bit 8
  EXPECT_EQ(offsetOf(a, 0, 2), 64u);
  EXPECT_EQ(offsetOf(a, 0, 7), 208u);  // 192 + 16
  EXPECT_EQ(offsetOf(a, 15, 7), 511u - 3u);
}

TEST(BlockLinear, GobsStackIntoBlocksThatRunAlongTheRow) {
  CudaArray a = floatArray(2, 512, 512, 1);
  EXPECT_EQ(offsetOf(a, 0, 8), 512u);                   // the next GOB down, same block
  EXPECT_EQ(offsetOf(a, 16, 0), 16u * 512);             // the next block: 16 GOBs of 512 bytes on
  EXPECT_EQ(offsetOf(a, 17, 9), 16u * 512 + 512 + 20);  // x byte 68 -> 4, y 9 -> row 1 of GOB 1
  EXPECT_EQ(offsetOf(a, 0, 128), 32u * 16 * 512);       // the second row of 32 blocks
  EXPECT_EQ(blockLinearShape(a.rowBytes(), a.height, 1, false).layerBytes, 512u * 512 * 4);
}

TEST(BlockLinear, PaddedArraysRoundUpToWholeGobsAndBlocks) {
  // 400-byte rows: 7 GOBs; 10 rows: 2-GOB blocks, one block tall.
  CudaArray a = floatArray(2, 100, 10, 1);
  EXPECT_EQ(blockLinearShape(a.rowBytes(), a.height, 1, false).layerBytes, 7u * 2 * 512);
  EXPECT_EQ(offsetOf(a, 99, 9),
            (6u * 2 + 1) * 512 + 28);  // x byte 396: GOB 6, byte 12; row 9: GOB row 1, y 1
}

TEST(BlockLinear, SlicesStackWithinA3DBlock) {
  // 16x16x16 floats: one GOB wide, 2-GOB blocks 16 slices deep.
  CudaArray a = floatArray(3, 16, 16, 16);
  EXPECT_EQ(blockLinearShape(a.rowBytes(), a.height, a.depth, true).layerBytes, 16u * 16 * 16 * 4);
  EXPECT_EQ(offsetOf(a, 1, 9, 3), (3u * 2 + 1) * 512 + 20);
}

TEST(BlockLinear, LayersFollowEachOtherWholeAndOneDArraysStayLinear) {
  CudaArray layered = floatArray(2, 64, 64, 1, 3);  // 4 GOBs wide, 8-GOB blocks: 16 KiB a layer
  EXPECT_EQ(offsetOf(layered, 1, 1, 0, 2), 2u * 16384 + 20);
  CudaArray line = floatArray(1, 1000, 1, 1);
  EXPECT_EQ(offsetOf(line, 999, 0), 999u * 4);
}

}  // namespace
}  // namespace ptxsim::sim::texture
