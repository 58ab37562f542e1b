#include "ptxsim/memory/coalescer.h"

#include <algorithm>
#include <bit>

namespace ptxsim::memory {

namespace {

// Adds the sectors of [address, address + bytes) to `out`'s lines.
void touch(CoalescedAccess& out, uint64_t address, uint32_t bytes, uint32_t lineBytes, uint32_t sectorBytes) {
  uint64_t first = address / sectorBytes;
  uint64_t last = (address + std::max<uint32_t>(bytes, 1) - 1) / sectorBytes;
  for (uint64_t sector = first; sector <= last; ++sector) {
    uint64_t line = sector * sectorBytes / lineBytes * lineBytes;
    uint32_t bit = 1u << ((sector * sectorBytes - line) / sectorBytes);
    auto it = std::find_if(out.lines.begin(), out.lines.end(), [&](const CoalescedLine& l) { return l.address == line; });
    if (it == out.lines.end()) {
      out.lines.push_back({line, bit});
    } else {
      it->sectorMask |= bit;
    }
  }
}

void countSectors(CoalescedAccess& out) {
  for (const CoalescedLine& l : out.lines) out.sectors += static_cast<uint32_t>(std::popcount(l.sectorMask));
}

}  // namespace

CoalescedAccess coalesce(const std::array<uint64_t, 32>& addresses, uint32_t lanes, uint32_t bytes,
                         uint32_t lineBytes, uint32_t sectorBytes) {
  CoalescedAccess out;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (((lanes >> lane) & 1) != 0) touch(out, addresses[lane], bytes, lineBytes, sectorBytes);
  }
  countSectors(out);
  return out;
}

CoalescedAccess coalesce(std::span<const uint64_t> addresses, uint32_t bytes, uint32_t lineBytes,
                         uint32_t sectorBytes) {
  CoalescedAccess out;
  for (uint64_t address : addresses) touch(out, address, bytes, lineBytes, sectorBytes);
  countSectors(out);
  return out;
}

}  // namespace ptxsim::memory
