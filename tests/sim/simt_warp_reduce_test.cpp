// Warp-synchronous reductions (tests/cuda/simt/warp_reduce.cu): the legacy
// reduction without __syncwarp is right in lockstep, wrong under the
// adversarial schedule and flagged by --check=warp-sync; the __syncwarp and
// shuffle versions are right under every schedule with no reports.

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "simt_support.h"

namespace ptxsim {
namespace {

using namespace simt_test;

TEST(SimtWarpReduce, AllThreeAreRightInLockstep) {
  const std::vector<int> expected = hostBlockSums(reduceInput());
  for (const Mode& mode : {kStack, kConverge}) {
    for (const char* kernel : kReduceKernels) {
      SCOPED_TRACE(mode.name() + ", " + kernel);
      ReduceRun run = runReduce(mode, kernel);
      ASSERT_FALSE(run.result.error) << run.result.error.message;
      EXPECT_EQ(run.out, expected);
      EXPECT_EQ(run.result.stats.simtMode, expectedModeStat(mode));
    }
  }
}

TEST(SimtWarpReduce, LegacyIsWrongUnderAdversarial) {
  const std::vector<int> expected = hostBlockSums(reduceInput());
  ReduceRun run = runReduce(kAdversarial, "legacy");
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_NE(run.out, expected);
  // Every block's sum is wrong: lane 0 runs the whole reduction alone before
  // the other lanes add their partial sums.
  for (unsigned b = 0; b < kReduceBlocks; ++b) EXPECT_NE(run.out[b], expected[b]) << "block " << b;
}

TEST(SimtWarpReduce, SynchronisedVersionsAreRightUnderEverySchedule) {
  const std::vector<int> expected = hostBlockSums(reduceInput());
  for (const Mode& mode : kAllModes) {
    for (const char* kernel : {"synced", "shuffled"}) {
      SCOPED_TRACE(mode.name() + ", " + kernel);
      ReduceRun run = runReduce(mode, kernel);
      ASSERT_FALSE(run.result.error) << run.result.error.message;
      EXPECT_EQ(run.out, expected);
    }
  }
}

// Each warning names the kernel and PTX lines, and those lines are the
// legacy reduction's shared-memory accesses.
void expectHazardsNameSharedAccesses(const std::vector<std::string>& warnings, const std::string& kernel) {
  const std::vector<std::string> lines = ptxLines("simt/warp_reduce");
  auto [first, last] = kernelBody(lines, kernel);
  std::regex lineRe(R"(PTX line (\d+))");
  for (const std::string& w : warnings) {
    EXPECT_NE(w.find("warp-sync hazard"), std::string::npos) << w;
    EXPECT_NE(w.find("kernel " + kernel), std::string::npos) << w;
    int named = 0;
    for (std::sregex_iterator it(w.begin(), w.end(), lineRe), end; it != end; ++it) {
      int line = std::stoi((*it)[1]);
      ++named;
      ASSERT_GE(line, first) << w;
      ASSERT_LE(line, last) << w;
      EXPECT_NE(lines[line - 1].find(".shared"), std::string::npos)
          << "line " << line << ": " << lines[line - 1];
    }
    EXPECT_GE(named, 1) << w;
  }
}

TEST(SimtWarpReduce, CheckFlagsLegacyWithoutChangingResults) {
  for (const Mode& mode : {kStack, kConverge, kAdversarial}) {
    SCOPED_TRACE(mode.name());
    ReduceRun unchecked = runReduce(mode, "legacy", false);
    ReduceRun checked = runReduce(mode, "legacy", true);
    ASSERT_FALSE(checked.result.error) << checked.result.error.message;
    EXPECT_TRUE(unchecked.result.warnings.empty());
    EXPECT_GE(checked.result.warnings.size(), 1u);
    EXPECT_EQ(checked.result.stats.warpSyncHazards, checked.result.warnings.size());
    EXPECT_EQ(checked.out, unchecked.out);
    sim::KernelStats withoutHazards = checked.result.stats;
    withoutHazards.warpSyncHazards = 0;
    EXPECT_EQ(counters(withoutHazards), counters(unchecked.result.stats));
    expectHazardsNameSharedAccesses(checked.result.warnings, "legacy");
  }
}

TEST(SimtWarpReduce, CheckReportsNothingForSynchronisedVersions) {
  const std::vector<int> expected = hostBlockSums(reduceInput());
  for (const Mode& mode : kAllModes) {
    for (const char* kernel : {"synced", "shuffled"}) {
      SCOPED_TRACE(mode.name() + ", " + kernel);
      ReduceRun run = runReduce(mode, kernel, true);
      ASSERT_FALSE(run.result.error) << run.result.error.message;
      EXPECT_TRUE(run.result.warnings.empty()) << run.result.warnings.front();
      EXPECT_EQ(run.result.stats.warpSyncHazards, 0u);
      EXPECT_EQ(run.out, expected);
    }
  }
}

}  // namespace
}  // namespace ptxsim
