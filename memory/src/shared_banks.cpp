#include "ptxsim/memory/shared_banks.h"

#include <algorithm>
#include <vector>

namespace ptxsim::memory {

uint32_t sharedWavefronts(const std::array<uint64_t, 32>& addresses, uint32_t lanes, uint32_t bytes,
                          const SharedBankGeometry& geometry) {
  if (lanes == 0) return 0;
  const uint32_t lineBytes = geometry.banks * geometry.bankBytes;  // what one wavefront serves
  // Lanes served together: as many as fill one wavefront with their bytes.
  const uint32_t perGroup = std::max<uint32_t>(1, std::min<uint32_t>(32, lineBytes / std::max<uint32_t>(bytes, 1)));
  uint32_t total = 0;
  std::vector<uint64_t> words;  // distinct bank words of the group
  std::vector<uint32_t> perBank(geometry.banks);
  for (uint32_t first = 0; first < 32; first += perGroup) {
    words.clear();
    for (uint32_t lane = first; lane < first + perGroup && lane < 32; ++lane) {
      if (((lanes >> lane) & 1) == 0) continue;
      uint64_t begin = addresses[lane] / geometry.bankBytes;
      uint64_t end = (addresses[lane] + std::max<uint32_t>(bytes, 1) - 1) / geometry.bankBytes;
      for (uint64_t w = begin; w <= end; ++w) words.push_back(w);
    }
    if (words.empty()) continue;
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::fill(perBank.begin(), perBank.end(), 0);
    uint32_t passes = 0;
    for (uint64_t w : words) passes = std::max(passes, ++perBank[w % geometry.banks]);
    total += passes;
  }
  return total;
}

}  // namespace ptxsim::memory
