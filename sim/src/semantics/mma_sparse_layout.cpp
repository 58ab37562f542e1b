#include "mma_sparse_layout.h"

#include <algorithm>

namespace ptxsim::sim::semantics::mma {

namespace {

constexpr unsigned kRows = 16;

// Stored elements a 4-bit field covers: two of 16- and 8-bit types, two
// pairs of 4-bit ones, one tf32.
unsigned storedPerField(unsigned elementBits) {
  if (elementBits == 4) return 4;
  return elementBits == 32 ? 1 : 2;
}

// Stored elements of one 32-bit A register.
unsigned storedPerRegister(unsigned elementBits) { return 32 / elementBits; }

// The field covering stored element j of row `row`: found through the A
// register and lane that hold the element (matrix_fragment.h aCell, M =
// 16: register r holds row g + 8 (r % 2), columns (r / 2) 4E + t E + e).
uint32_t fieldOf(const SparseForm& f, const uint64_t* meta, unsigned row, unsigned j) {
  const unsigned e = storedPerRegister(f.elementBits), perField = storedPerField(f.elementBits);
  const unsigned block = j / (4 * e), t = (j % (4 * e)) / e, element = j % e;
  const unsigned reg = 2 * block + row / 8;
  const unsigned stream = (reg * 4 + t) * (e / perField) + element / perField;
  const unsigned first = f.selector * sparseMetadataLanes(f.k, f.elementBits);
  const unsigned lane = 4 * (row % 8) + first + stream / 8;
  return static_cast<uint32_t>(meta[lane] >> (4 * (stream % 8))) & 0xf;
}

unsigned indexOf(uint32_t field, unsigned slot) { return (field >> (2 * slot)) & 3; }

}  // namespace

unsigned sparseMetadataLanes(unsigned k, unsigned elementBits) {
  // Fields a row: K/4 for 16- and 8-bit types, K/2 for tf32, K/8 for 4-bit
  // ones; two rows of them, 4 bits each, fill fields / 4 words, one a lane.
  unsigned fields = elementBits == 32 ? k / 2 : elementBits == 4 ? k / 8 : k / 4;
  return fields / 4;
}

void expandSparseA(const SparseForm& f, const uint64_t* meta, const uint32_t* stored, uint32_t* dense) {
  const unsigned width = f.k / 2;
  std::fill(dense, dense + kRows * f.k, 0u);
  for (unsigned row = 0; row < kRows; ++row) {
    const uint32_t* in = &stored[row * width];
    uint32_t* out = &dense[row * f.k];
    for (unsigned j = 0; j < width; ++j) {
      uint32_t field = fieldOf(f, meta, row, j);
      if (f.elementBits == 32) {
        // tf32: each 16-bit half placed by its own index, 4 halves a chunk.
        for (unsigned half = 0; half < 2; ++half) {
          unsigned position = 4 * j + indexOf(field, half);
          out[position / 2] |= ((in[j] >> (16 * half)) & 0xffffu) << (16 * (position % 2));
        }
      } else if (f.elementBits == 4) {
        // Pairs: index (j % 4) / 2 names the pair, j % 2 the element in it.
        out[8 * (j / 4) + 2 * indexOf(field, (j % 4) / 2) + j % 2] = in[j];
      } else {
        out[4 * (j / 2) + indexOf(field, j % 2)] = in[j];
      }
    }
  }
}

}  // namespace ptxsim::sim::semantics::mma
