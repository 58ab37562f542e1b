#include "ptxsim/memory/l1_carveout.h"

#include <stdexcept>
#include <string>

namespace ptxsim::memory {

uint32_t sharedCarveoutBytes(uint32_t sharedBytesPerSm, std::span<const uint32_t> carveoutsKiB) {
  uint64_t best = UINT64_MAX;
  for (uint32_t kib : carveoutsKiB) {
    const uint64_t bytes = uint64_t{kib} * 1024;
    if (bytes >= sharedBytesPerSm && bytes < best) best = bytes;
  }
  if (best == UINT64_MAX)
    throw std::invalid_argument("no shared-memory carveout holds " + std::to_string(sharedBytesPerSm) +
                                " bytes per SM");
  return static_cast<uint32_t>(best);
}

uint32_t l1CapacityBytes(uint32_t sharedBytesPerSm, uint32_t unifiedBytes,
                         std::span<const uint32_t> carveoutsKiB) {
  const uint32_t carveout = sharedCarveoutBytes(sharedBytesPerSm, carveoutsKiB);
  if (carveout > unifiedBytes)
    throw std::invalid_argument("shared-memory carveout of " + std::to_string(carveout) +
                                " bytes exceeds the unified L1/shared array of " +
                                std::to_string(unifiedBytes));
  return unifiedBytes - carveout;
}

}  // namespace ptxsim::memory
