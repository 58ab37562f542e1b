#pragma once

// Spreading addresses over parallel units (L2 slices, HBM channels, L2 sets)
// so that power-of-two strides do not all land on one unit, as plain
// `chunk % units` does whenever the stride is a multiple of the unit count's
// power-of-two factor.
//
// spreadIndex(chunk, units) = (chunk % units + xorFold(chunk / units)) % units,
// where xorFold XORs together the successive groups of ceil(log2(units))
// bits of its argument. Within one block of `units` consecutive chunks
// (same chunk / units) it is a rotation, so consecutive chunks always go to
// distinct units and the mapping stays one-to-one given the block: a unit's
// local address is (chunk / units, the offset), with no holes. Chunks a
// power-of-two stride apart differ in their block's bits, which the fold
// turns into different rotations.

#include <bit>
#include <cstdint>

namespace ptxsim::memory {

inline uint64_t xorFold(uint64_t value, uint32_t bits) {
  if (bits == 0) return 0;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t folded = 0;
  for (; value != 0; value >>= bits) folded ^= value & mask;
  return folded;
}

// splitmix64's finaliser: every bit of `value` moves every bit of the
// result, for draws that must repeat from run to run.
inline uint64_t mix64(uint64_t value) {
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

// `units` must be positive.
inline uint32_t spreadIndex(uint64_t chunk, uint32_t units) {
  const uint32_t bits = static_cast<uint32_t>(std::bit_width(units - 1u));
  return static_cast<uint32_t>((chunk % units + xorFold(chunk / units, bits)) % units);
}

}  // namespace ptxsim::memory
