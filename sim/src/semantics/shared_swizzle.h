#pragma once

// The shared-memory swizzles of Hopper's tensor units (wgmma's matrix
// descriptors, the tensor memory accelerator's 32-, 64- and 128-byte
// modes): the 16-byte chunk of an address (bits 4..) is XORed with its row
// of 128 bytes (bits 7..), as many bits as a swizzle span has chunks
// beyond the first. `baseOffset` (wgmma's descriptor field) is subtracted
// from the row first: it names the row of the 1024-byte pattern a matrix
// starts at when its start is not at a pattern boundary.

#include <cstdint>

namespace ptxsim::sim::semantics {

inline uint32_t swizzleSharedAddress(uint32_t address, uint32_t swizzleBytes, uint32_t baseOffset = 0) {
  if (swizzleBytes < 32) return address;
  uint32_t chunkMask = swizzleBytes / 16 - 1;
  uint32_t row = (address >> 7) - baseOffset;
  return address ^ ((row & chunkMask) << 4);
}

}  // namespace ptxsim::sim::semantics
