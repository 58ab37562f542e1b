#pragma once

// ptxas's pairing of two 32-bit shared-memory accesses: a load (or store)
// at [r + o] next to one at [r + o +/- 4] becomes one 64-bit LDS.64 (STS.64)
// where the lower address is 8-byte aligned. So a bitonic sort's
// stride-one step (`ld.shared.u32 [%r6+4]; ld.shared.u32 [%r6]` with %r6 =
// tile + 8 x tid, then the two stores back) is one access a warp: 2
// wavefronts with no conflict, where two 32-bit ones at a stride of 8 bytes
// take 2 each, one of them a conflict. The H100 counts the pairs' conflicts
// so (tests/timing/kernels: bitonic_sort's shared-load conflicts 53 248,
// ptxsim's 71 680 counting the halves apart, 53 760 with the pairs;
// stores 47 266, 65 518 and 49 138).
//
// The timing model pairs them when the addresses are 8-byte aligned at run
// time, for every lane that executes them; ptxas needs to prove it from
// the code (here it can: tile + 8 x tid), so a pair aligned only by the
// data is an approximation.

#include <cstdint>
#include <optional>

#include "../exec/prepared.h"

namespace ptxsim::sim::timing {

// When `second`, the instruction after `first` in `fn`, makes a 64-bit
// access of `first`'s kind with it (both 32-bit, unguarded, plain, to the
// CTA's shared memory, from the same base 4 bytes apart, `second` reading
// nothing `first` writes): what to add to `first`'s addresses to get the
// pair's lower one (0 or -4). Else nothing.
std::optional<int64_t> sharedPairOffset(const exec::PreparedFunction& fn,
                                        const exec::PreparedInstruction& first,
                                        const exec::PreparedInstruction& second);

}  // namespace ptxsim::sim::timing
