// The instruction-semantics programs of tests/cuda/semantics, run on the
// simulator and compared bit for bit with the output recorded on a real
// GPU (NAME.expected beside NAME.cu, written by tests/gpu_truth/record.sh).

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "../support/cuda_programs.h"

namespace ptxsim {
namespace {

std::vector<std::string> semanticsPrograms() {
  std::vector<std::string> names;
  std::filesystem::path dir = std::filesystem::path(PTXSIM_SOURCE_DIR) / "tests/cuda/semantics";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".cu") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class GpuTruth : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTruth, MatchesRealGpuBitForBit) {
  const std::string name = GetParam();
  const std::string recording = "semantics/" + name + ".expected";
  std::string problem = test::recordingProblem(
      recording, "record it on an H100 with RECORD=semantics tests/gpu_truth/record.sh");
  if (!problem.empty()) GTEST_FAIL() << problem;
  std::string expected = test::readCudaFile(recording);
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = test::loadCudaProgram(device, "semantics/" + name);
  uint32_t count = device.read<uint32_t>(device.symbolAddress(*module, "case_count"), 1)[0];
  uint64_t out = device.malloc(uint64_t{count} * 8);
  device.memset(out, 0, uint64_t{count} * 8);
  sim::LaunchResult result = device.launch(*module, "cases", {1}, {32}, 0, KernelArgs().add(out));
  ASSERT_FALSE(result.error) << result.error.message;
  std::vector<uint64_t> values = device.read<uint64_t>(out, count);
  std::istringstream lines(expected);
  std::string line;
  unsigned checked = 0;
  while (std::getline(lines, line)) {
    unsigned index = 0;
    unsigned long long want = 0;
    if (std::sscanf(line.c_str(), "case %u: 0x%llx", &index, &want) != 2) continue;
    ASSERT_LT(index, count) << line;
    EXPECT_EQ(values[index], want) << name << " case " << index << ": simulator 0x" << std::hex << values[index]
                                   << ", GPU 0x" << want;
    ++checked;
  }
  EXPECT_EQ(checked, count) << "the expected file does not cover every case";
}

INSTANTIATE_TEST_SUITE_P(Semantics, GpuTruth, ::testing::ValuesIn(semanticsPrograms()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ptxsim
