#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

// A line draws its rank when allocated and keeps it: the victim is any
// line of the set, each as likely (ARM's caches' policy; a baseline for
// the others). The draw hashes the clock and the line (splitmix64's
// finaliser), so runs are repeatable.
const ReplacementPolicy kRandom{
    .name = "random",
    .description =
        "random: a line drawn at random, hits or not (repeatable: drawn from the clock and the line)",
    .inserted =
        [](const RankContext& context) {
          uint64_t x = context.tick * 0x9e3779b97f4a7c15ull ^ context.line;
          x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
          x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
          return (x ^ (x >> 31)) | 1;  // never 0, which marks a line just allocated
        },
    .reused = [](const RankContext&, uint64_t rank) { return rank; },
};

}  // namespace ptxsim::memory
