#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

// Every use ranks a line at the clock: the victim is the line unused
// longest.
const ReplacementPolicy kLeastRecentlyUsed{
    .name = "lru",
    .description = "least recently used: the line whose last lookup is oldest",
    .inserted = [](const RankContext& context) { return context.tick; },
    .reused = [](const RankContext& context, uint64_t) { return context.tick; },
};

}  // namespace ptxsim::memory
