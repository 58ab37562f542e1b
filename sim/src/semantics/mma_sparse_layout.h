#pragma once

// Where mma.sp's stored A elements sit along K, read from the metadata
// operand (PTX ISA, "Sparse matrix storage" and the metadata figures of
// "Matrix fragments for multiply-accumulate operation with sparse matrix
// A").
//
// The warp holds A compressed: M x K/2 elements, laid out as a dense
// fragment of that width (matrix_fragment.h aCell). Each row is cut into
// chunks; a 4-bit metadata field per chunk holds two 2-bit indices, the
// lower first:
//  - 16- and 8-bit elements: a chunk is 4 positions keeping 2 elements,
//    the indices name their positions;
//  - 4-bit elements: a chunk is 8 positions keeping two pairs, the indices
//    name the pairs (position 2 index + 0 or 1);
//  - tf32: a chunk is 2 positions keeping 1 element, 4 halves of 16 bits;
//    the indices place the stored element's low and its high half (0b0100
//    and 0b1110, the codes PTX allows, keep the first or the second
//    element whole).
//
// A group of four lanes (rows g and g + 8) reads its fields as one stream
// of 4-bit fields, in the order of the A registers, then of the lanes
// within the group, then of the chunks within one register; the stream
// fills 32-bit words from bit 0, and word w is the metadata register of
// lane `first + w` of the group, `first` being the sparsity selector
// times the number of words. CUTLASS's comments on its sparse fp8
// emulation spell this order out for m16n8k32 .f16 and m16n8k64 .s8, and
// it is the order wgmma.mma_async.sp reads on the H100 (wgmma_sparse.h);
// the other forms follow the same rule (not yet recorded on a GPU:
// tests/gpu_truth/pending/mma_sparse_forms.cu).
//
// Metadata that PTX leaves undefined expands the same way: when both
// indices of a field name one position, the second stored element (pair)
// is the one kept there, as wgmma's model does; tf32 halves that land on
// one half are ORed together, halves no index names are zero.

#include <cstdint>

namespace ptxsim::sim::semantics::mma {

struct SparseForm {
  unsigned k;            // dense K
  unsigned elementBits;  // 4, 8, 16, or 32 for tf32
  unsigned selector;     // the sparsity selector operand
};

// How many lanes of a group of four hold the group's metadata (1, 2 or
// 4); the selector may be 0 .. 4 / that - 1.
unsigned sparseMetadataLanes(unsigned k, unsigned elementBits);

// Expands the 16 rows of a compressed A (`stored`, row r's element j at
// r K/2 + j, one element's bits a word) to dense rows (`dense`, r K + k,
// zero where no element lands). `meta` holds the warp's 32 metadata
// registers, one a lane.
void expandSparseA(const SparseForm& form, const uint64_t* meta, const uint32_t* stored, uint32_t* dense);

}  // namespace ptxsim::sim::semantics::mma
