#pragma once

// How many sector lookups the texture unit makes for one fetch. It looks
// sectors up per quad of 4 consecutive lanes (lanes 0-3, 4-7, ...): each
// quad once for every distinct sector its lanes' texels touch, so a warp
// reading a row of 32 aligned floats makes 8 lookups (one a quad) where its
// distinct sectors are 4. On the H100 this reproduces l1tex__t_sectors of
// tex2D fetches (tests/timing/kernels/h100/irregular.caches.ncu.csv: 13.3
// lookups a request for a 3x3 box filter) while the misses stay the warp's
// distinct missing sectors.

#include <cstdint>
#include <span>

namespace ptxsim::memory {

// `addresses` holds the texels, `bytes` each (which may straddle sectors),
// and `lanes` the lane of each, in order of lane (not decreasing).
uint64_t quadSectorLookups(std::span<const uint64_t> addresses, std::span<const uint8_t> lanes,
                           uint32_t bytes, uint32_t sectorBytes = 32);

}  // namespace ptxsim::memory
