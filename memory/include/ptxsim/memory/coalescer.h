#pragma once

// Coalescing: the 32-byte sectors and 128-byte lines one warp's global
// access touches, which is what the L1 and everything behind it serve
// (Nsight Compute counts l1tex__t_sectors and requests the same way).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ptxsim::memory {

struct CoalescedLine {
  uint64_t address = 0;    // line-aligned
  uint32_t sectorMask = 0; // bit s: sector s of the line is touched
};

struct CoalescedAccess {
  std::vector<CoalescedLine> lines;  // in order of first touch by the lowest lane
  uint32_t sectors = 0;              // over all lines
};

// `addresses` holds each lane's byte address (lanes outside `lanes` are
// ignored); each lane accesses `bytes` bytes, which may straddle sectors.
CoalescedAccess coalesce(const std::array<uint64_t, 32>& addresses, uint32_t lanes, uint32_t bytes,
                         uint32_t lineBytes = 128, uint32_t sectorBytes = 32);

// The same for a list of accesses of `bytes` bytes each, in list order (a
// texture fetch's texels: up to 8 a lane).
CoalescedAccess coalesce(std::span<const uint64_t> addresses, uint32_t bytes, uint32_t lineBytes = 128,
                         uint32_t sectorBytes = 32);

}  // namespace ptxsim::memory
