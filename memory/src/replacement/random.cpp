#include "ptxsim/memory/address_hash.h"
#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

// A line draws its rank when allocated and keeps it: the victim is any
// line of the set, each as likely (ARM's caches' policy; a baseline for
// the others). The draw hashes the clock and the line, so runs repeat.
const ReplacementPolicy kRandom{
    .name = "random",
    .description =
        "random: a line drawn at random, hits or not (repeatable: drawn from the clock and the line)",
    .inserted =
        [](const RankContext& context) {
          // Never 0, which marks a line just allocated.
          return mix64(context.tick * 0x9e3779b97f4a7c15ull ^ context.line) | 1;
        },
    .reused = [](const RankContext&, uint64_t rank) { return rank; },
};

}  // namespace ptxsim::memory
