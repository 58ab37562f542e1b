#include "wgmma_sparse.h"

namespace ptxsim::sim::semantics::wgmma {

namespace {

// The metadata field of `group` (of four positions; for tf32, of four
// halves) in row `row`.
uint32_t field(const uint64_t* meta, unsigned row, unsigned group, unsigned elementBits, unsigned selector) {
  const unsigned rowLane = 4 * (row % 8), upper = row / 8;
  unsigned lane = 0, position = 0;
  if (elementBits == 8) {
    lane = rowLane + 2 * (group / 8) + upper;
    position = group % 8;
  } else {
    lane = rowLane + group / 4 + 2 * selector;
    position = 4 * upper + group % 4;
  }
  return static_cast<uint32_t>(meta[lane] >> (4 * position)) & 0xf;
}

// The 2-bit index `slot` (0 or 1) of a field.
unsigned indexOf(uint32_t code, unsigned slot) { return (code >> (2 * slot)) & 3; }

}  // namespace

unsigned sparsePosition(const uint64_t* meta, unsigned row, unsigned index, unsigned elementBits, unsigned selector) {
  const unsigned group = index / 2;
  return 4 * group + indexOf(field(meta, row, group, elementBits, selector), index % 2);
}

unsigned sparseHalfPosition(const uint64_t* meta, unsigned row, unsigned index, unsigned half, unsigned selector) {
  return 4 * index + indexOf(field(meta, row, index, 16, selector), half);
}

}  // namespace ptxsim::sim::semantics::wgmma
