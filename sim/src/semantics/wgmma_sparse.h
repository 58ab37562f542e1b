#pragma once

// Where wgmma.mma_async.sp's compressed A elements sit along K, as the H100
// reads its metadata (fitted to tests/cuda/programs/wgmma_sparse.expected:
// probes whose B columns hold powers of two, so that each result is the bit
// mask of the K positions a row kept).
//
// A row keeps half of K. For 16- and 8-bit elements each group of four
// positions keeps two, stored side by side, and a 4-bit metadata field
// names their positions (two 2-bit indices, the lower first). tf32 goes
// through the same path as 16-bit halves: a field covers a pair of
// positions, four halves, and places the stored element's low half at its
// first index and its high half at its second. 0b0100 and 0b1110, the codes
// PTX allows, keep the first or the second element whole; PTX leaves the
// others undefined, and the H100 then builds elements of misplaced halves
// (zero where no half lands), which the model reproduces.
//
// A warp's 16 rows take their fields from the metadata registers of lanes
// 4 (row mod 8) + ...: for 16- and 32-bit elements, the lane adds the
// field's group / 4 and twice the sparsity selector, and rows 8..15 use
// the register's upper 16 bits; for 8-bit elements a row's 16 fields fill
// two lanes (+2 for the upper eight fields), rows 8..15 those one lane
// higher, and the selector is 0.

#include <cstdint>

namespace ptxsim::sim::semantics::wgmma {

// The K position of row `row`'s (0..15 of the warp) stored element
// `index` (0 .. k/2 - 1) of a 16- or 8-bit type (`elementBits`). `meta`
// holds the warp's 32 metadata registers.
unsigned sparsePosition(const uint64_t* meta, unsigned row, unsigned index, unsigned elementBits, unsigned selector);

// For tf32: the position, counted in 16-bit halves along K, of half `half`
// (0 low, 1 high) of row `row`'s stored element `index`.
unsigned sparseHalfPosition(const uint64_t* meta, unsigned row, unsigned index, unsigned half, unsigned selector);

}  // namespace ptxsim::sim::semantics::wgmma
