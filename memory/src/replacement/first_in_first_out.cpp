#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

// A line keeps the rank of its allocation: hits do not renew it, so the
// victim is the line allocated first (GPGPU-Sim's other policy).
const ReplacementPolicy kFirstInFirstOut{
    .name = "fifo",
    .description = "first in, first out: the line allocated longest ago, whatever its hits",
    .inserted = [](const RankContext& context) { return context.tick; },
    .reused = [](const RankContext&, uint64_t rank) { return rank; },
};

}  // namespace ptxsim::memory
