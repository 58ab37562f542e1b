#include "ptxsim/memory/coalescer.h"

#include <algorithm>
#include <bit>

namespace ptxsim::memory {

CoalescedAccess coalesce(const std::array<uint64_t, 32>& addresses, uint32_t lanes, uint32_t bytes,
                         uint32_t lineBytes, uint32_t sectorBytes) {
  CoalescedAccess out;
  auto touch = [&](uint64_t sector) {
    uint64_t line = sector * sectorBytes / lineBytes * lineBytes;
    uint32_t bit = 1u << ((sector * sectorBytes - line) / sectorBytes);
    auto it = std::find_if(out.lines.begin(), out.lines.end(), [&](const CoalescedLine& l) { return l.address == line; });
    if (it == out.lines.end()) {
      out.lines.push_back({line, bit});
    } else {
      it->sectorMask |= bit;
    }
  };
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (((lanes >> lane) & 1) == 0) continue;
    uint64_t first = addresses[lane] / sectorBytes;
    uint64_t last = (addresses[lane] + std::max<uint32_t>(bytes, 1) - 1) / sectorBytes;
    for (uint64_t s = first; s <= last; ++s) touch(s);
  }
  for (const CoalescedLine& l : out.lines) out.sectors += static_cast<uint32_t>(std::popcount(l.sectorMask));
  return out;
}

}  // namespace ptxsim::memory
