// `ptxsim compare --background`: an idle launch's memory counters taken
// out of every other launch, hand-worked.

#include <gtest/gtest.h>

#include "ptxsim/runtime/compare/background_launch.h"
#include "ptxsim/runtime/compare/derived_metrics.h"

namespace ptxsim::runtime::compare {
namespace {

TEST(CompareBackground, ParsesANameAndAnOptionalLaunchIndex) {
  BackgroundLaunch plain = parseBackgroundLaunch("idle");
  EXPECT_EQ(plain.name, "idle");
  EXPECT_EQ(plain.index, 0u);
  BackgroundLaunch second = parseBackgroundLaunch("idle(int*) #1");
  EXPECT_EQ(second.name, "idle(int*)");
  EXPECT_EQ(second.index, 1u);
  EXPECT_THROW(parseBackgroundLaunch("idle #"), CompareError);
  EXPECT_THROW(parseBackgroundLaunch("idle #x"), CompareError);
  EXPECT_THROW(parseBackgroundLaunch("#2"), CompareError);
}

TEST(CompareBackground, SubtractsTheIdleLaunchsMemoryCountersOnly) {
  // The idle launch is scale's second; its cycles, instructions and rate
  // stay out of the others'.
  std::vector<LaunchMetrics> launches{
      {"_Z5scalePfi", {{"lts__t_sectors_lookup_hit.sum", 50000}, {"gpc__cycles_elapsed.max", 9000}}},
      {"_Z4workPf",
       {{"lts__t_sectors_lookup_hit.sum", 44300},
        {"lts__t_sectors_lookup_miss.sum", 600},
        {"dram__bytes_read.sum", 6000},
        {"gpc__cycles_elapsed.max", 7000},
        {"smsp__inst_executed.sum", 800},
        {"lts__t_sector_hit_rate.pct", 98.0}}},
      {"scale(float *, int)",
       {{"lts__t_sectors_lookup_hit.sum", 44000},
        {"lts__t_sectors_lookup_miss.sum", 200},
        {"dram__bytes_read.sum", 2560},
        {"gpc__cycles_elapsed.max", 3000},
        {"smsp__inst_executed.sum", 10},
        {"lts__t_sector_hit_rate.pct", 99.5}}}};
  subtractBackground(launches, parseBackgroundLaunch("scale #1"), "hw.csv");
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "_Z5scalePfi");
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("lts__t_sectors_lookup_hit.sum"), 6000.0);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpc__cycles_elapsed.max"), 9000.0);
  const auto& work = launches[1].metrics;
  EXPECT_DOUBLE_EQ(work.at("lts__t_sectors_lookup_hit.sum"), 300.0);
  EXPECT_DOUBLE_EQ(work.at("lts__t_sectors_lookup_miss.sum"), 400.0);
  EXPECT_DOUBLE_EQ(work.at("dram__bytes_read.sum"), 3440.0);
  EXPECT_DOUBLE_EQ(work.at("gpc__cycles_elapsed.max"), 7000.0);
  EXPECT_DOUBLE_EQ(work.at("smsp__inst_executed.sum"), 800.0);
  EXPECT_DOUBLE_EQ(work.at("lts__t_sector_hit_rate.pct"), 98.0);
  // The rate of what the launch adds: 300 hits of 700 lookups; the idle
  // launch's rate alone would have been 99.5%.
  addDerivedHitRates(launches);
  EXPECT_NEAR(launches[1].metrics.at("lts__t_sectors_lookup_hit_rate.pct"), 100.0 * 300 / 700, 1e-9);
}

TEST(CompareBackground, ALaunchBelowTheIdleOnesCountsGetsNoRate) {
  std::vector<LaunchMetrics> launches{
      {"idle", {{"lts__t_sectors_lookup_hit.sum", 44000}, {"lts__t_sectors_lookup_miss.sum", 200}}},
      {"quiet", {{"lts__t_sectors_lookup_hit.sum", 43700}, {"lts__t_sectors_lookup_miss.sum", 90000}}}};
  subtractBackground(launches, parseBackgroundLaunch("idle"), "hw.csv");
  addDerivedHitRates(launches);
  EXPECT_EQ(launches[0].metrics.count("lts__t_sectors_lookup_hit_rate.pct"), 0u);
}

TEST(CompareBackground, AMissingLaunchNamesTheFileAndWhatItHas) {
  std::vector<LaunchMetrics> launches{{"idle", {}}, {"work", {}}};
  try {
    subtractBackground(launches, parseBackgroundLaunch("idle #1"), "hw.csv");
    FAIL() << "no second idle launch";
  } catch (const CompareError& error) {
    EXPECT_STREQ(error.what(), "--background: hw.csv has 1 launch(es) of idle, not launch #1");
  }
  EXPECT_EQ(launches.size(), 2u);
}

}  // namespace
}  // namespace ptxsim::runtime::compare
