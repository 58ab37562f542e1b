#include <array>

#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

std::span<const ReplacementPolicy* const> replacementPolicies() {
  // To add a policy: a file defining it, its declaration in
  // replacement_policy.h, and a line here.
  static constexpr std::array kPolicies = {&kLeastRecentlyUsed, &kFirstInFirstOut, &kRandom};
  return kPolicies;
}

const ReplacementPolicy* findReplacementPolicy(std::string_view name) {
  for (const ReplacementPolicy* policy : replacementPolicies())
    if (policy->name == name) return policy;
  return nullptr;
}

std::string replacementPolicyNames() {
  std::string names;
  for (const ReplacementPolicy* policy : replacementPolicies())
    names += (names.empty() ? "" : ", ") + std::string(policy->name);
  return names;
}

}  // namespace ptxsim::memory
