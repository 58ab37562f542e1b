#pragma once

// Shared-memory bank conflicts: how many wavefronts (passes through the
// banks) one warp's shared access takes. Lanes that read the same word
// share it (a broadcast costs nothing); lanes that touch different words
// of one bank take a pass each. Accesses wider than a bank are served a
// fraction of the warp at a time: 64-bit ones by half-warps, 128-bit ones
// by quarter-warps, so they take at least 2 and 4 wavefronts (the H100's
// figures: tests/timing/calibration/h100/shared_memory.out).

#include <array>
#include <cstdint>

namespace ptxsim::memory {

struct SharedBankGeometry {
  uint32_t banks = 32;
  uint32_t bankBytes = 4;
};

// `addresses` holds each lane's byte address (lanes outside `lanes` are
// ignored); each lane accesses `bytes` bytes (1 to 16). Zero for no lanes.
uint32_t sharedWavefronts(const std::array<uint64_t, 32>& addresses, uint32_t lanes, uint32_t bytes,
                          const SharedBankGeometry& geometry = {});

}  // namespace ptxsim::memory
