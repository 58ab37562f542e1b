#pragma once

// Where wgmma finds its shared-memory operands: the 64-bit matrix
// descriptor (PTX ISA, "Matrix Descriptor Format") and the address of each
// element of a matrix it describes.
//
// A matrix is read as core matrices of 8 rows of 16 bytes. In the
// K-major layout a row runs along K; transposed (MN-major, .f16/.bf16
// only) it runs along M or N. Without swizzling a core matrix is 128
// contiguous bytes, and the descriptor's two byte offsets separate core
// matrices along the two dimensions. With a 32-, 64- or 128-byte swizzle,
// a row is that many bytes wide (8 rows make an atom of 256, 512 or 1024
// bytes) and the 16-byte chunks of each row are exchanged by XOR with the
// row's number within the atom, computed from the shared-memory address
// itself. Fitted to tests/cuda/programs/wgmma_forms.expected ("map" lines).

#include <cstdint>

namespace ptxsim::sim::semantics::wgmma {

struct Descriptor {
  uint32_t start = 0;            // byte address in shared memory
  uint32_t leadingOffset = 0;    // LBO, bytes
  uint32_t strideOffset = 0;     // SBO, bytes
  uint32_t baseOffset = 0;       // bits 49-51
  uint32_t swizzleBytes = 0;     // 0 (none), 32, 64 or 128
};

Descriptor decodeDescriptor(uint64_t bits);

// The byte address of the byte holding element (mn, k) of an operand whose
// elements are `elementBits` wide (1 for .b1: the bit is k mod 8 of it).
// `mnMajor`: the transposed layout.
uint32_t elementAddress(const Descriptor& d, bool mnMajor, unsigned mn, unsigned k, unsigned elementBits);

}  // namespace ptxsim::sim::semantics::wgmma
