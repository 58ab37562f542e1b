#include "ptxsim/memory/texture_lookups.h"

#include <algorithm>

namespace ptxsim::memory {

namespace {

// Whether any of addresses[first, end) (`bytes` each) touches sector `sector`.
bool touches(std::span<const uint64_t> addresses, size_t first, size_t end, uint32_t bytes,
             uint32_t sectorBytes, uint64_t sector) {
  for (size_t i = first; i < end; ++i) {
    if (addresses[i] / sectorBytes <= sector && sector <= (addresses[i] + bytes - 1) / sectorBytes)
      return true;
  }
  return false;
}

}  // namespace

uint64_t quadSectorLookups(std::span<const uint64_t> addresses, std::span<const uint8_t> lanes,
                           uint32_t bytes, uint32_t sectorBytes) {
  bytes = std::max<uint32_t>(bytes, 1);
  const size_t n = std::min(addresses.size(), lanes.size());
  uint64_t lookups = 0;
  size_t quadStart = 0;  // the first texel of the current quad
  for (size_t i = 0; i < n; ++i) {
    if (lanes[i] / 4 != lanes[quadStart] / 4) quadStart = i;
    // Each sector the texel touches that no earlier texel of its quad did.
    for (uint64_t s = addresses[i] / sectorBytes; s <= (addresses[i] + bytes - 1) / sectorBytes; ++s) {
      if (!touches(addresses, quadStart, i, bytes, sectorBytes, s)) ++lookups;
    }
  }
  return lookups;
}

}  // namespace ptxsim::memory
