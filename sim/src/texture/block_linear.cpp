#include "block_linear.h"

namespace ptxsim::sim::texture {

namespace {

constexpr uint64_t kGobBytes = 64;  // a GOB's width in bytes
constexpr uint64_t kGobRows = 8;
constexpr uint64_t kGobSize = kGobBytes * kGobRows;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The smallest power of two >= n, capped at `most` (a power of two).
uint64_t powerOfTwoAtLeast(uint64_t n, uint64_t most) {
  uint64_t p = 1;
  while (p < n && p < most) p *= 2;
  return p;
}

// Byte (x, y) of a GOB, x < 64, y < 8.
uint64_t gobOffset(uint64_t x, uint64_t y) {
  return (x & 0xf) | ((y & 1) << 4) | (((x >> 4) & 1) << 5) | (((y >> 1) & 3) << 6) | (((x >> 5) & 1) << 8);
}

}  // namespace

BlockLinearShape blockLinearShape(uint64_t rowBytes, uint64_t height, uint64_t depth, bool is3d) {
  BlockLinearShape s;
  s.widthGobs = ceilDiv(rowBytes, kGobBytes);
  const uint64_t heightGobs = ceilDiv(height, kGobRows);
  s.blockHeightGobs = powerOfTwoAtLeast(heightGobs, is3d ? 4 : 16);
  // Mesa gives 32-slice blocks only to blocks under 4 GOBs tall.
  s.blockDepth = is3d ? powerOfTwoAtLeast(depth, s.blockHeightGobs < 4 ? 32 : 16) : 1;
  s.blocksTall = ceilDiv(heightGobs, s.blockHeightGobs);
  const uint64_t blocksDeep = ceilDiv(depth, s.blockDepth);
  s.layerBytes = s.widthGobs * s.blocksTall * blocksDeep * s.blockHeightGobs * s.blockDepth * kGobSize;
  return s;
}

uint64_t blockLinearOffset(const BlockLinearShape& s, uint64_t xBytes, uint64_t y, uint64_t z) {
  const uint64_t gobRow = y / kGobRows;
  const uint64_t block =
      ((z / s.blockDepth) * s.blocksTall + gobRow / s.blockHeightGobs) * s.widthGobs + xBytes / kGobBytes;
  const uint64_t gobInBlock = (z % s.blockDepth) * s.blockHeightGobs + gobRow % s.blockHeightGobs;
  return (block * s.blockHeightGobs * s.blockDepth + gobInBlock) * kGobSize +
         gobOffset(xBytes % kGobBytes, y % kGobRows);
}

uint64_t cacheTexelAddress(const CudaArray& array, uint64_t layer, uint64_t x, uint64_t y, uint64_t z) {
  if (array.dimensions < 2) return array.texelAddress(layer, x, y, z);
  const BlockLinearShape s =
      blockLinearShape(array.rowBytes(), array.height, array.depth, array.dimensions == 3);
  return array.base + layer * s.layerBytes + blockLinearOffset(s, x * array.format.bytes(), y, z);
}

}  // namespace ptxsim::sim::texture
