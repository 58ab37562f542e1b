#include "wgmma_layout.h"

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

namespace {

// The swizzle: address bits 4.. (the 16-byte chunk within a row) XORed
// with bits 7.. (the row within the atom), as many bits as the row has
// chunks beyond the first. The descriptor's base offset is subtracted from
// the row first: it names the row of the pattern the start address is at
// when that is not at a pattern boundary (measured: "map sw128 start+512
// base1" reads row 0 with the chunks of row 3).
uint32_t swizzled(uint32_t address, uint32_t swizzleBytes, uint32_t baseOffset) {
  uint32_t chunkMask = swizzleBytes / 16 - 1;
  uint32_t row = (address >> 7) - baseOffset;
  return address ^ ((row & chunkMask) << 4);
}

}  // namespace

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
  return swizzled(d.start + offset + (across % 8) * rowBytes + alongByte % rowBytes, d.swizzleBytes,
                  d.baseOffset);
}

}  // namespace ptxsim::sim::semantics::wgmma
