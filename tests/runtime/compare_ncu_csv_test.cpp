// Reading Nsight Compute's CSV and the statistics' JSON Lines for
// `ptxsim compare`.

#include <gtest/gtest.h>

#include <sstream>

#include "ptxsim/runtime/compare/derived_metrics.h"
#include "ptxsim/runtime/compare/metric_units.h"
#include "ptxsim/runtime/compare/ncu_csv.h"
#include "ptxsim/runtime/compare/stats_jsonl.h"

namespace ptxsim::runtime::compare {
namespace {

// ncu --csv's own columns in its order, with its "==PROF==" lines and the
// program's output first.
const char* const kNcuCsv =
    "==PROF== Connected to process 4242 (/tmp/app)\n"
    "vectorAdd: 1048576 elements, 0 mismatches\n"
    "==PROF== Profiling \"vectorAdd\" - 0: 0%....50%....100% - 3 passes\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"vectorAdd(const float *, const float *, float *, int)\",\"1\",\"7\","
    "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"dram__bytes_read.sum\","
    "\"Mbyte\",\"8.39\"\n"
    "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"vectorAdd(const float *, const float *, float *, int)\",\"1\",\"7\","
    "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpc__cycles_elapsed.max\","
    "\"cycle\",\"1,234,567\"\n"
    "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"vectorAdd(const float *, const float *, float *, int)\",\"1\",\"7\","
    "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\","
    "\"usecond\",\"12.5\"\n"
    "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"scale<float>(float *, int)\",\"1\",\"7\","
    "\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"l1tex__t_sector_hit_rate.pct\","
    "\"%\",\"87.25\"\n"
    "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"scale<float>(float *, int)\",\"1\",\"7\","
    "\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"dram__bytes_write.sum\","
    "\"Kbyte\",\"4.10\"\n"
    "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"scale<float>(float *, int)\",\"1\",\"7\","
    "\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"sm__cycles_active.avg\","
    "\"cycle\",\"n/a\"\n";

TEST(NcuCsv, SkipsThePreambleAndNormalisesUnitsAndSeparators) {
  std::istringstream in(kNcuCsv);
  std::vector<LaunchMetrics> launches = parseNcuCsv(in, "h100.csv");
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "vectorAdd(const float *, const float *, float *, int)");
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("dram__bytes_read.sum"), 8390000.0);  // Mbyte: 10^6 bytes
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpc__cycles_elapsed.max"), 1234567.0);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpu__time_duration.sum"), 12500.0);  // nanoseconds
  EXPECT_EQ(launches[1].kernel, "scale<float>(float *, int)");  // the quoted commas stay in the field
  EXPECT_DOUBLE_EQ(launches[1].metrics.at("l1tex__t_sector_hit_rate.pct"), 87.25);
  EXPECT_DOUBLE_EQ(launches[1].metrics.at("dram__bytes_write.sum"), 4100.0);
  EXPECT_EQ(launches[1].metrics.count("sm__cycles_active.avg"), 0u);  // n/a: not collected
}

TEST(NcuCsv, FindsColumnsByTheirHeaderNames) {
  std::istringstream in(
      "\"Metric Value\",\"Metric Unit\",\"Metric Name\",\"Kernel Name\",\"ID\"\n"
      "\"2.5\",\"Gbyte\",\"dram__bytes_read.sum\",\"k\",\"0\"\n"
      "\"3\",\"msecond\",\"gpu__time_duration.sum\",\"k\",\"0\"\n");
  std::vector<LaunchMetrics> launches = parseNcuCsv(in, "reordered.csv");
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("dram__bytes_read.sum"), 2.5e9);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpu__time_duration.sum"), 3e6);
}

// Two programs' CSVs one after the other: each process counts its launches
// from ID 0, and the second header is not data.
TEST(NcuCsv, ConcatenatedRunsAreLaunchesOfTheirOwnProcesses) {
  std::istringstream in(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"11\",\"copy\",\"gpc__cycles_elapsed.max\",\"cycle\",\"7,809\"\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"12\",\"stencil\",\"gpc__cycles_elapsed.max\",\"cycle\",\"6,631\"\n"
      "\"0\",\"12\",\"stencil\",\"gpu__time_duration.sum\",\"ns\",\"3,392\"\n");
  std::vector<LaunchMetrics> launches = parseNcuCsv(in, "all.csv");
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "copy");
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpc__cycles_elapsed.max"), 7809.0);
  EXPECT_EQ(launches[1].kernel, "stencil");
  EXPECT_DOUBLE_EQ(launches[1].metrics.at("gpu__time_duration.sum"), 3392.0);
}

TEST(NcuCsv, SplitsQuotedFieldsWithCommasAndDoubledQuotes) {
  EXPECT_EQ(splitCsvLine("\"a, b\",c,\"say \"\"hi\"\"\",", "x.csv", 1),
            (std::vector<std::string>{"a, b", "c", "say \"hi\"", ""}));
  EXPECT_THROW(splitCsvLine("\"open, field", "x.csv", 3), CompareError);
}

TEST(NcuCsv, BadInputNamesTheFileAndLine) {
  auto errorOf = [](const std::string& text) {
    std::istringstream in(text);
    try {
      parseNcuCsv(in, "bad.csv");
    } catch (const CompareError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const std::string header = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  EXPECT_EQ(errorOf(header + "\"0\",\"k\",\"m\",\"cycle\",\"12x\"\n"),
            "bad.csv:2: metric m: value '12x' is not a number");
  EXPECT_EQ(errorOf(header + "\"0\",\"k\",\"m\",\"furlong\",\"12\"\n"), "bad.csv:2: metric m: unknown unit 'furlong'");
  EXPECT_EQ(errorOf(header + "\n\"0\",\"k\",\"m\",\"cycle\"\n"),
            "bad.csv:3: expected 5 fields as in the header, found 4");
  EXPECT_EQ(errorOf("\"ID\",\"Metric Name\"\n"),
            "bad.csv:1: the header lacks one of the columns \"ID\", \"Kernel Name\", \"Metric Name\", \"Metric "
            "Unit\", \"Metric Value\" (record with ncu --csv --print-units base)");
  EXPECT_EQ(errorOf("==PROF== nothing profiled\n"),
            "bad.csv: no header row (\"ID\",...,\"Metric Value\"): not a CSV of ncu --csv");
  EXPECT_THROW(readNcuCsv("/nonexistent/h100.csv"), CompareError);
}

TEST(MetricUnits, ScaleToTheStatisticsBaseUnits) {
  EXPECT_EQ(baseUnitFactor("byte"), 1.0);
  EXPECT_EQ(baseUnitFactor("Kbyte"), 1e3);
  EXPECT_EQ(baseUnitFactor("Gbyte"), 1e9);
  EXPECT_EQ(baseUnitFactor("Kibyte"), 1024.0);
  EXPECT_EQ(baseUnitFactor("nsecond"), 1.0);
  EXPECT_EQ(baseUnitFactor("msecond"), 1e6);
  EXPECT_EQ(baseUnitFactor("ns"), 1.0);  // ncu 2025 with --print-units base
  EXPECT_EQ(baseUnitFactor("us"), 1e3);
  EXPECT_EQ(baseUnitFactor("inst/warp"), 1.0);
  EXPECT_EQ(baseUnitFactor("second"), 1e9);
  EXPECT_EQ(baseUnitFactor("%"), 1.0);
  EXPECT_EQ(baseUnitFactor(""), 1.0);
  EXPECT_EQ(baseUnitFactor("Minst"), 1e6);
  EXPECT_EQ(baseUnitFactor("Gbyte/second"), 1e9);  // a rate stays per second
  EXPECT_EQ(baseUnitFactor("byte/usecond"), 1e6);
  EXPECT_EQ(baseUnitFactor("inst/cycle"), 1.0);
  EXPECT_EQ(baseUnitFactor("furlong"), std::nullopt);
  EXPECT_EQ(baseUnitFactor("Kfurlong"), std::nullopt);
}

TEST(DerivedHitRates, EachHitAndMissCountPairGetsItsRate) {
  std::vector<LaunchMetrics> launches{
      {"k", {{"lts__t_sectors_srcunit_tex_lookup_hit.sum", 30}, {"lts__t_sectors_srcunit_tex_lookup_miss.sum", 90},
             {"l1tex__t_sectors_lookup_hit.sum", 5}, {"lts__t_sectors.sum", 7}}},
      {"k", {{"lts__t_sectors_srcunit_tex_lookup_hit.sum", 0}, {"lts__t_sectors_srcunit_tex_lookup_miss.sum", 0}}}};
  addDerivedHitRates(launches);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("lts__t_sectors_srcunit_tex_lookup_hit_rate.pct"), 25.0);
  // No miss count: no rate; no lookups: no rate (rather than a made-up 0).
  EXPECT_EQ(launches[0].metrics.count("l1tex__t_sectors_lookup_hit_rate.pct"), 0u);
  EXPECT_EQ(launches[0].metrics.size(), 5u);
  EXPECT_EQ(launches[1].metrics.count("lts__t_sectors_srcunit_tex_lookup_hit_rate.pct"), 0u);
}

TEST(DerivedDramBytes, ReadsAndWritesAddUpUnlessRecorded) {
  std::vector<LaunchMetrics> launches{
      {"k", {{"dram__bytes_read.sum", 16780288}, {"dram__bytes_write.sum", 140544}}},
      {"k", {{"dram__bytes_read.sum", 100}, {"dram__bytes_write.sum", 20}, {"dram__bytes.sum", 130}}},
      {"k", {{"dram__bytes_read.sum", 100}}}};
  addDerivedDramBytes(launches);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("dram__bytes.sum"), 16920832.0);
  EXPECT_DOUBLE_EQ(launches[1].metrics.at("dram__bytes.sum"), 130.0);  // ncu's own figure stays
  EXPECT_EQ(launches[2].metrics.count("dram__bytes.sum"), 0u);          // half of it is no total
}

TEST(StatsJsonl, ReadsNumericTopLevelValuesOnly) {
  std::istringstream in(
      "{\"kernel\":\"_Z9vectorAddPKfS0_Pfi\",\"grid\":[4096,1,1],\"gpc__cycles_elapsed.max\":10234,"
      "\"l1tex__t_sector_hit_rate.pct\":12.5,\"ptxsim__simt_mode\":\"its\",\"ptxsim__timing\":{\"clock\":1755}}\n"
      "\n"
      "{\"kernel\":\"_Z9vectorAddPKfS0_Pfi\",\"gpc__cycles_elapsed.max\":9000}\n");
  std::vector<LaunchMetrics> launches = parseStatsJsonl(in, "s.jsonl");
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "_Z9vectorAddPKfS0_Pfi");
  EXPECT_EQ(launches[0].metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("gpc__cycles_elapsed.max"), 10234.0);
  EXPECT_DOUBLE_EQ(launches[0].metrics.at("l1tex__t_sector_hit_rate.pct"), 12.5);
  EXPECT_DOUBLE_EQ(launches[1].metrics.at("gpc__cycles_elapsed.max"), 9000.0);
}

TEST(StatsJsonl, RecordsThatAreNotLaunchesAreSkipped) {
  std::istringstream in(
      "{\"ptxsim__record\":\"config\",\"ptxsim__config\":\"00000000000000ab\",\"ptxsim__timing\":{\"clock\":"
      "1}}\n"
      "{\"kernel\":\"k\",\"gpc__cycles_elapsed.max\":9000,\"ptxsim__config\":\"00000000000000ab\"}\n");
  std::vector<LaunchMetrics> launches = parseStatsJsonl(in, "s.jsonl");
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].kernel, "k");
  EXPECT_EQ(launches[0].metrics.size(), 1u);
}

TEST(StatsJsonl, BadInputNamesTheFileAndLine) {
  auto errorOf = [](const std::string& text) {
    std::istringstream in(text);
    try {
      parseStatsJsonl(in, "s.jsonl");
    } catch (const CompareError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(errorOf("{\"kernel\":\"k\"}\n{\"kernel\":\"k\",\n").rfind("s.jsonl:2: malformed JSON", 0), 0u);
  EXPECT_EQ(errorOf("[1,2]\n"), "s.jsonl:1: not a JSON object (expected one record per line)");
  EXPECT_EQ(errorOf("{\"cycles\":3}\n"), "s.jsonl:1: the record has no \"kernel\" name");
  EXPECT_THROW(readStatsJsonl("/nonexistent/s.jsonl"), CompareError);
}

}  // namespace
}  // namespace ptxsim::runtime::compare
