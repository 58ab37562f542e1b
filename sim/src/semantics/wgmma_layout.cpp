#include "wgmma_layout.h"

#include "shared_swizzle.h"

namespace ptxsim::sim::semantics::wgmma {

Descriptor decodeDescriptor(uint64_t bits) {
  Descriptor d;
  d.start = static_cast<uint32_t>(bits & 0x3fff) << 4;
  d.leadingOffset = static_cast<uint32_t>((bits >> 16) & 0x3fff) << 4;
  d.strideOffset = static_cast<uint32_t>((bits >> 32) & 0x3fff) << 4;
  d.baseOffset = static_cast<uint32_t>((bits >> 49) & 7);
  switch (bits >> 62) {
    case 1: d.swizzleBytes = 128; break;
    case 2: d.swizzleBytes = 64; break;
    case 3: d.swizzleBytes = 32; break;
    default: d.swizzleBytes = 0; break;
  }
  return d;
}

uint32_t elementAddress(const Descriptor& d, bool mnMajor, unsigned mn, unsigned k, unsigned elementBits) {
  // The position along each dimension in the units the layout counts.
  unsigned along = mnMajor ? mn : k;   // the contiguous dimension, in elements
  unsigned across = mnMajor ? k : mn;  // the other, in rows
  uint32_t alongByte = along * elementBits / 8;
  if (d.swizzleBytes == 0) {
    uint32_t coreAlong = alongByte / 16, coreAcross = across / 8;
    uint32_t offset = mnMajor ? coreAlong * d.strideOffset + coreAcross * d.leadingOffset
                              : coreAcross * d.strideOffset + coreAlong * d.leadingOffset;
    return d.start + offset + (across % 8) * 16 + alongByte % 16;
  }
  uint32_t rowBytes = d.swizzleBytes;
  uint32_t atomAlong = alongByte / rowBytes, atomAcross = across / 8;
  uint32_t offset = mnMajor ? atomAlong * d.leadingOffset + atomAcross * d.strideOffset
                            : atomAcross * d.strideOffset + atomAlong * d.leadingOffset;
  // The descriptor's base offset (measured: "map sw128 start+512 base1"
  // reads row 0 with the chunks of row 3) is the swizzle's.
  return swizzleSharedAddress(d.start + offset + (across % 8) * rowBytes + alongByte % rowBytes, d.swizzleBytes,
                              d.baseOffset);
}

}  // namespace ptxsim::sim::semantics::wgmma
