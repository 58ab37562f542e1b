#include "issue_policy.h"

#include <array>

namespace ptxsim::sim::timing {

std::span<const IssuePolicyInfo> issuePolicies() {
  // To add a policy: a file with its class and factory, and a line here.
  static constexpr std::array kPolicies = {
      IssuePolicyInfo{"lrr", "loose round-robin: the next ready warp after the last one issued",
                      &makeLooseRoundRobin},
      IssuePolicyInfo{"gto", "greedy then oldest: the last warp issued while it is ready, else the oldest ready",
                      &makeGreedyThenOldest},
      IssuePolicyInfo{"oldest-first", "the oldest ready warp every cycle", &makeOldestFirst},
      IssuePolicyInfo{"two-level",
                      "round-robin over a small active set; warps waiting on memory leave it for a pending set",
                      &makeTwoLevel},
  };
  return kPolicies;
}

std::unique_ptr<IssuePolicy> makeIssuePolicy(std::string_view name) {
  for (const IssuePolicyInfo& info : issuePolicies()) {
    if (info.name == name) return info.make();
  }
  return nullptr;
}

std::string issuePolicyNames() {
  std::string names;
  for (const IssuePolicyInfo& info : issuePolicies()) names += (names.empty() ? "" : ", ") + std::string(info.name);
  return names;
}

}  // namespace ptxsim::sim::timing
