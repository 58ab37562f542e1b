// `ptxsim compare`'s statistics and checks, against values worked out by
// hand.

#include <gtest/gtest.h>

#include <cmath>

#include "ptxsim/runtime/compare/compare_checks.h"
#include "ptxsim/runtime/compare/metric_comparison.h"

namespace ptxsim::runtime::compare {
namespace {

// hw 100, 200, 400, 0 against sim 110, 180, 400, 5: errors +10%, -10%, 0%
// and none (hw 0). MAPE (10 + 10 + 0) / 3; largest |error| 10%; largest
// difference 20. Pearson: means 175 and 173.75, covariance sum 85375,
// variance sums 87500 and 83768.75, r = 85375 / sqrt(87500 * 83768.75).
MetricComparison handWorked(const std::string& metric) {
  return summarise(metric, {{"k #0", 100, 110}, {"k #1", 200, 180}, {"k #2", 400, 400}, {"k #3", 0, 5}});
}

TEST(CompareStatistics, MatchHandWorkedValues) {
  MetricComparison c = handWorked("gpc__cycles_elapsed.max");
  ASSERT_TRUE(c.mapePct.has_value());
  EXPECT_NEAR(*c.mapePct, 20.0 / 3.0, 1e-12);
  EXPECT_EQ(c.zeroHardwarePoints, 1u);
  ASSERT_TRUE(c.maxAbsErrorPct.has_value());
  EXPECT_NEAR(*c.maxAbsErrorPct, 10.0, 1e-12);
  EXPECT_DOUBLE_EQ(c.maxAbsDifference, 20.0);
  ASSERT_TRUE(c.correlation.has_value());
  EXPECT_NEAR(*c.correlation, 0.9972078135110054, 1e-12);
  EXPECT_EQ(c.points.size(), 4u);
}

TEST(CompareStatistics, ErrorAndCorrelationEdges) {
  EXPECT_EQ(errorPct(0, 3), std::nullopt);
  EXPECT_DOUBLE_EQ(*errorPct(80, 100), 25.0);
  EXPECT_DOUBLE_EQ(*errorPct(100, 80), -20.0);
  // 1,2,3 against 2,4,7: covariance 5, variances 2 and 38/3.
  EXPECT_NEAR(*pearsonCorrelation({1, 2, 3}, {2, 4, 7}), 5.0 / std::sqrt(2.0 * 38.0 / 3.0), 1e-12);
  EXPECT_EQ(pearsonCorrelation({1}, {2}), std::nullopt);              // one point
  EXPECT_EQ(pearsonCorrelation({5, 5, 5}, {1, 2, 3}), std::nullopt);  // no variance
  EXPECT_TRUE(isPercentMetric("lts__t_sector_hit_rate.pct"));
  EXPECT_FALSE(isPercentMetric("sm__warps_active.avg.pct_of_peak_sustained_active"));
}

TEST(CompareStatistics, OneLaunchHasNoCorrelationAndAllZeroNoMape) {
  MetricComparison one = summarise("m", {{"k #0", 50, 60}});
  EXPECT_NEAR(*one.mapePct, 20.0, 1e-12);
  EXPECT_EQ(one.correlation, std::nullopt);
  MetricComparison zero = summarise("m", {{"k #0", 0, 1}, {"k #1", 0, 2}});
  EXPECT_EQ(zero.mapePct, std::nullopt);
  EXPECT_EQ(zero.maxAbsErrorPct, std::nullopt);
  EXPECT_EQ(zero.zeroHardwarePoints, 2u);
}

TEST(CompareChecks, ParseTheFourForms) {
  Check mape = parseCheck("gpc__cycles_elapsed.max:mape<=15");
  EXPECT_EQ(mape.metric, "gpc__cycles_elapsed.max");
  EXPECT_EQ(mape.kind, CheckKind::kMape);
  EXPECT_EQ(mape.threshold, 15.0);
  EXPECT_EQ(parseCheck("m:corr>=0.95").kind, CheckKind::kCorrelation);
  EXPECT_EQ(parseCheck("m:max_error<=40").kind, CheckKind::kMaxError);
  EXPECT_EQ(parseCheck("l1tex__t_sector_hit_rate.pct:max_points<=10").kind, CheckKind::kMaxPoints);
  EXPECT_THROW(parseCheck("m:mape<15"), CompareError);
  EXPECT_THROW(parseCheck("m:mape<=ten"), CompareError);
  EXPECT_THROW(parseCheck("m:mape<="), CompareError);
  EXPECT_THROW(parseCheck("mape<=15"), CompareError);
  EXPECT_THROW(parseCheck(":mape<=15"), CompareError);
  EXPECT_THROW(parseCheck("m:median<=15"), CompareError);
}

TEST(CompareChecks, GateOnTheStatistics) {
  std::vector<MetricComparison> comparisons = {handWorked("cycles"), handWorked("hits.pct")};
  auto failure = [&](const std::string& spec) { return failedCheck(parseCheck(spec), comparisons); };
  EXPECT_EQ(failure("cycles:mape<=6.67"), std::nullopt);
  EXPECT_EQ(failure("cycles:mape<=6.66"), "cycles:mape<=6.66: MAPE is 6.667% over 4 launch(es)");
  EXPECT_EQ(failure("cycles:corr>=0.997"), std::nullopt);
  EXPECT_EQ(failure("cycles:corr>=0.998"), "cycles:corr>=0.998: correlation is 0.9972 over 4 launch(es)");
  EXPECT_EQ(failure("cycles:max_error<=10"), std::nullopt);
  EXPECT_EQ(failure("cycles:max_error<=9.9"), "cycles:max_error<=9.9: largest |error| is 10% over 4 launch(es)");
  EXPECT_EQ(failure("hits.pct:max_points<=20"), std::nullopt);
  EXPECT_EQ(failure("hits.pct:max_points<=19"), "hits.pct:max_points<=19: largest difference is 20 over 4 launch(es)");
  EXPECT_EQ(failure("dram__bytes_read.sum:mape<=10"),
            "dram__bytes_read.sum:mape<=10: no matched launch has dram__bytes_read.sum in both files");
  std::vector<MetricComparison> single = {summarise("cycles", {{"k #0", 50, 60}})};
  EXPECT_EQ(failedCheck(parseCheck("cycles:corr>=0.9"), single),
            "cycles:corr>=0.9: correlation is n/a (needs 2 launches or more with varying values)");
}

}  // namespace
}  // namespace ptxsim::runtime::compare
