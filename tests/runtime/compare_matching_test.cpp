// `ptxsim compare` pairs launches by kernel name and order, whichever way
// each side spells the name.

#include <gtest/gtest.h>

#include "ptxsim/runtime/compare/kernel_names.h"
#include "ptxsim/runtime/compare/launch_matching.h"

namespace ptxsim::runtime::compare {
namespace {

TEST(KernelNames, DemangleAndStripToTheFunctionName) {
  EXPECT_EQ(demangledName("_Z9vectorAddPKfS0_Pfi"), "vectorAdd(float const*, float const*, float*, int)");
  EXPECT_EQ(demangledName("vectorAdd"), "vectorAdd");
  EXPECT_EQ(kernelBaseName("_Z9vectorAddPKfS0_Pfi"), "vectorAdd");
  EXPECT_EQ(kernelBaseName("vectorAdd(const float *, const float *, float *, int)"), "vectorAdd");
  EXPECT_EQ(kernelBaseName("vectorAdd"), "vectorAdd");
  // A template in a namespace: the C++ ABI's demangler writes the return type.
  EXPECT_EQ(demangledName("_ZN2ns5scaleIfEEvPT_i"), "void ns::scale<float>(float*, int)");
  EXPECT_EQ(kernelBaseName("_ZN2ns5scaleIfEEvPT_i"), "scale");
  EXPECT_EQ(kernelBaseName("void ns::scale<float>(float *, int)"), "scale");
  EXPECT_EQ(kernelBaseName("scale<float>"), "scale");
  EXPECT_EQ(kernelBaseName("void reduce<(int)256, std::less<int> >(int*)"), "reduce");
}

LaunchMetrics launch(const std::string& kernel, double cycles) { return {kernel, {{"cycles", cycles}}}; }

TEST(LaunchMatching, PairsTheNthLaunchOfAKernelWithTheNth) {
  // Hardware names demangled as ncu spells them, or alone; the simulator's mangled.
  std::vector<LaunchMetrics> hardware = {launch("vectorAdd(const float *, const float *, float *, int)", 1),
                                         launch("scale", 2), launch("vectorAdd", 3)};
  std::vector<LaunchMetrics> simulated = {launch("_ZN2ns5scaleIfEEvPT_i", 20), launch("_Z9vectorAddPKfS0_Pfi", 10),
                                          launch("_Z9vectorAddPKfS0_Pfi", 30)};
  LaunchMatching matching = matchLaunches(hardware, simulated);
  ASSERT_EQ(matching.matched.size(), 3u);
  EXPECT_TRUE(matching.unmatched.empty());
  EXPECT_EQ(matching.matched[0].hardware, &hardware[0]);
  EXPECT_EQ(matching.matched[0].simulated, &simulated[1]);
  EXPECT_EQ(matching.matched[0].label, "vectorAdd(float const*, float const*, float*, int) #0");
  EXPECT_EQ(matching.matched[1].simulated, &simulated[0]);
  EXPECT_EQ(matching.matched[1].label, "void ns::scale<float>(float*, int) #0");
  EXPECT_EQ(matching.matched[2].hardware, &hardware[2]);
  EXPECT_EQ(matching.matched[2].simulated, &simulated[2]);
  EXPECT_EQ(matching.matched[2].label, "vectorAdd(float const*, float const*, float*, int) #1");
}

TEST(LaunchMatching, IdenticalNamesPairBeforeBaseNames) {
  // Two overloads of one function: their exact names tell them apart.
  std::vector<LaunchMetrics> hardware = {launch("_Z1fPf", 1), launch("_Z1fPi", 2)};
  std::vector<LaunchMetrics> simulated = {launch("_Z1fPi", 20), launch("_Z1fPf", 10)};
  LaunchMatching matching = matchLaunches(hardware, simulated);
  ASSERT_EQ(matching.matched.size(), 2u);
  EXPECT_EQ(matching.matched[0].simulated, &simulated[1]);
  EXPECT_EQ(matching.matched[1].simulated, &simulated[0]);
}

TEST(LaunchMatching, ListsLaunchesOnOneSideOnly) {
  std::vector<LaunchMetrics> hardware = {launch("vectorAdd", 1), launch("vectorAdd", 2), launch("other", 3)};
  std::vector<LaunchMetrics> simulated = {launch("_Z9vectorAddPKfS0_Pfi", 10), launch("_Z5alonev", 4)};
  LaunchMatching matching = matchLaunches(hardware, simulated);
  ASSERT_EQ(matching.matched.size(), 1u);
  EXPECT_EQ(matching.matched[0].hardware, &hardware[0]);
  ASSERT_EQ(matching.unmatched.size(), 3u);
  EXPECT_EQ(matching.unmatched[0].label, "vectorAdd #1");
  EXPECT_TRUE(matching.unmatched[0].hardwareSide);
  EXPECT_EQ(matching.unmatched[1].label, "other #0");
  EXPECT_EQ(matching.unmatched[2].label, "alone() #0");
  EXPECT_FALSE(matching.unmatched[2].hardwareSide);
}

}  // namespace
}  // namespace ptxsim::runtime::compare
