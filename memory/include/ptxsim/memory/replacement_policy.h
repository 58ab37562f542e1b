#pragma once

// A cache's replacement policy. Every line of a set carries a rank; the
// policy sets it when the line is allocated and when a lookup finds it
// again, and the cache evicts the line of lowest rank that it may (not one
// whose fetch is still in flight). Ranks grow with a clock the cache
// advances on every lookup (one per L1, one per L2 slice), so LRU is "the
// clock", FIFO "the clock at allocation", and a policy that favours some
// lines ranks them ahead of the clock. Ranks stay plain integers so that
// the caches' victim search stays a scan for a minimum (it runs on every
// miss). One small file per policy; replacement/registry.cpp names them.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ptxsim::memory {

// What a policy knows when it ranks a line.
struct RankContext {
  uint64_t tick = 0;  // the cache's clock, advanced once for this lookup
  uint64_t line = 0;  // the line's address
};

struct ReplacementPolicy {
  std::string_view name;
  std::string_view description;
  // The rank of a line just allocated.
  uint64_t (*inserted)(const RankContext& context);
  // The rank of a line a lookup found again, given its rank before.
  uint64_t (*reused)(const RankContext& context, uint64_t rank);
};

// Every policy (replacement/registry.cpp).
std::span<const ReplacementPolicy* const> replacementPolicies();

// The policy called `name`; null when there is none.
const ReplacementPolicy* findReplacementPolicy(std::string_view name);

// "lru, fifo, ...": for error messages and parameter listings.
std::string replacementPolicyNames();

// Each policy (one file each).
extern const ReplacementPolicy kLeastRecentlyUsed;
extern const ReplacementPolicy kFirstInFirstOut;
extern const ReplacementPolicy kRandom;

}  // namespace ptxsim::memory
