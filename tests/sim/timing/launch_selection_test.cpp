// Which launches run on the timing model: Nsight Compute's rules for the
// launches it profiles.
#include <gtest/gtest.h>

#include <vector>

#include "../../../sim/src/timing/launch_selection.h"

namespace ptxsim::sim::timing {
namespace {

TEST(LaunchSelection, KernelNamesMatchMangledDemangledOrBare) {
  const char* mangled = "_Z9vectorAddPKfS0_Pfi";
  EXPECT_TRUE(kernelNameMatches(mangled, ""));
  EXPECT_TRUE(kernelNameMatches(mangled, mangled));
  EXPECT_TRUE(kernelNameMatches(mangled, "vectorAdd(float const*, float const*, float*, int)"));  // as c++filt spells it
  EXPECT_TRUE(kernelNameMatches(mangled, "vectorAdd"));
  EXPECT_FALSE(kernelNameMatches(mangled, "vector"));
  EXPECT_TRUE(kernelNameMatches("plain_c_kernel", "plain_c_kernel"));
  EXPECT_FALSE(kernelNameMatches("plain_c_kernel", "other"));
}

TEST(LaunchSelection, SkipAndCountApplyToMatchingLaunchesOnly) {
  LaunchFilter filter{"a", 1, 2};
  uint64_t matched = 0;
  std::vector<bool> chosen;
  for (const char* kernel : {"a", "b", "a", "b", "a", "a", "a"}) chosen.push_back(selectsForTiming(kernel, filter, matched));
  // The first "a" is skipped, the next two timed, the rest not; no "b" ever.
  EXPECT_EQ(chosen, (std::vector<bool>{false, false, true, false, true, false, false}));
  EXPECT_EQ(matched, 5u);
  LaunchFilter all;
  uint64_t none = 0;
  EXPECT_TRUE(selectsForTiming("b", all, none));
}

}  // namespace
}  // namespace ptxsim::sim::timing
