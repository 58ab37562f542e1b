// The --stats file (ptxsim/runtime/stats_file.h): timed launches name their
// timing parameters by id, and the parameters are written once, before the
// first launch that names them, again only when they change; `ptxsim
// compare`'s reader takes the launches and skips the parameters' records.

#include "ptxsim/runtime/stats_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ptxsim/runtime/compare/stats_jsonl.h"
#include "ptxsim/runtime/device.h"

namespace ptxsim::runtime {
namespace {

std::vector<nlohmann::json> recordsOf(const std::string& path) {
  std::vector<nlohmann::json> records;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  return records;
}

class StatsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("ptxsim_stats_file_test_" + std::to_string(::getpid()) + ".jsonl"))
                .string();
    module_ = device_.loadModuleFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx");
    a_ = device_.upload(std::vector<float>(256, 1.0f));
    b_ = device_.upload(std::vector<float>(256, 2.0f));
    c_ = device_.malloc(256 * sizeof(float));
  }
  void TearDown() override { std::filesystem::remove(path_); }

  sim::KernelStats launch() {
    sim::LaunchResult r = device_.launch(*module_, "_Z9vectorAddPKfS0_Pfi", {2}, {128}, 0,
                                         KernelArgs().add(a_).add(b_).add(c_).add(256));
    EXPECT_FALSE(r.error) << r.error.message;
    return r.stats;
  }

  std::string path_;
  Device device_{sim::GpuConfig{}, DeviceOptions{1}};
  std::shared_ptr<sim::LoadedModule> module_;
  uint64_t a_ = 0, b_ = 0, c_ = 0;
};

TEST_F(StatsFileTest, TwoTimedLaunchesWriteTheParametersOnceFirst) {
  device_.launchOptions().timing = true;
  {
    StatsFile stats(path_);
    stats.write(launch());
    stats.write(launch());
  }
  std::vector<nlohmann::json> records = recordsOf(path_);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["ptxsim__record"], "config");
  EXPECT_EQ(records[0]["ptxsim__timing"]["sm.sub_partitions"], 4);
  const std::string id = records[0]["ptxsim__config"];
  EXPECT_EQ(id.size(), 16u);
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_FALSE(records[i].contains("ptxsim__record"));
    EXPECT_FALSE(records[i].contains("ptxsim__timing"));
    EXPECT_EQ(records[i]["ptxsim__config"], id);
    EXPECT_EQ(records[i]["kernel"], "_Z9vectorAddPKfS0_Pfi");
  }
  // compare reads the two launches, with their metrics, and nothing else.
  std::vector<compare::LaunchMetrics> launches = compare::readStatsJsonl(path_);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[1].kernel, "_Z9vectorAddPKfS0_Pfi");
  EXPECT_GT(launches[1].metrics.at("gpc__cycles_elapsed.max"), 0.0);
}

TEST_F(StatsFileTest, ChangedParametersAreWrittenAgainUnderANewId) {
  device_.launchOptions().timing = true;
  {
    StatsFile stats(path_);
    stats.write(launch());
    device_.gpu().mutableConfig().timing.gridCycles += 100;
    stats.write(launch());
    stats.write(launch());
  }
  std::vector<nlohmann::json> records = recordsOf(path_);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[2]["ptxsim__record"], "config");
  EXPECT_NE(records[2]["ptxsim__config"], records[0]["ptxsim__config"]);
  EXPECT_EQ(records[1]["ptxsim__config"], records[0]["ptxsim__config"]);
  EXPECT_EQ(records[3]["ptxsim__config"], records[2]["ptxsim__config"]);
  EXPECT_EQ(records[4]["ptxsim__config"], records[2]["ptxsim__config"]);
  EXPECT_EQ(records[2]["ptxsim__timing"]["launch.grid_cycles"].get<uint64_t>(),
            records[0]["ptxsim__timing"]["launch.grid_cycles"].get<uint64_t>() + 100);
}

TEST_F(StatsFileTest, FunctionalLaunchesWriteNoParameters) {
  {
    StatsFile stats(path_);
    stats.write(launch());
  }
  std::vector<nlohmann::json> records = recordsOf(path_);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].contains("ptxsim__config"));
  EXPECT_EQ(compare::readStatsJsonl(path_).size(), 1u);
}

}  // namespace
}  // namespace ptxsim::runtime
