// ptxas contracts PTX's unrounded mul and add/sub into fused multiply-adds;
// the simulator must compute what the GPU computes. Every kernel of
// tests/gpu_truth/fma_contraction/cases.ptx (one way of writing a multiply
// and an add, in f32, f64, f16, bf16 and their packed forms) runs here on
// the inputs the GPU read and must write the GPU's bits
// (cases.expected, recorded by record.sh beside it; cases.sass.txt shows
// what ptxas made of each kernel).

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

constexpr int kLanes = 32;
constexpr int kInputs = 8;
constexpr int kOutputs = 4;

std::string casesPath(const std::string& file) {
  return std::string(PTXSIM_SOURCE_DIR) + "/tests/gpu_truth/fma_contraction/" + file;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// One kernel's recording: per lane, its inputs and the GPU's outputs.
struct Recording {
  std::vector<uint64_t> inputs;                // kLanes * kInputs
  std::vector<std::vector<uint64_t>> outputs;  // per lane
};

int elementBytes(const std::string& type) {
  if (type == "f64") return 8;
  if (type == "f16" || type == "bf16") return 2;
  return 4;
}

TEST(FmaContraction, WholeKernelsMatchTheGpuBitForBit) {
  std::string ptx = readFile(casesPath("cases.ptx"));
  std::string expected = readFile(casesPath("cases.expected"));
  ASSERT_FALSE(ptx.empty());
  ASSERT_FALSE(expected.empty()) << "record cases.expected on a GPU: tests/gpu_truth/fma_contraction/record.sh";

  std::map<std::string, std::string> typeOf;
  std::vector<std::string> order;
  std::istringstream header(ptx);
  for (std::string line; std::getline(header, line);) {
    char name[128], type[16];
    int outputs = 0;
    if (std::sscanf(line.c_str(), "// kernel %127s %15s %d", name, type, &outputs) == 3) {
      typeOf[name] = type;
      order.push_back(name);
    }
  }
  std::map<std::string, Recording> recordings;
  std::istringstream lines(expected);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, word;
    int lane = 0;
    words >> name >> lane >> word;
    ASSERT_EQ(word, "in") << line;
    Recording& r = recordings[name];
    r.inputs.resize(kLanes * kInputs);
    r.outputs.resize(kLanes);
    for (int i = 0; i < kInputs; ++i) {
      words >> word;
      r.inputs[lane * kInputs + i] = std::stoull(word, nullptr, 16);
    }
    words >> word;
    ASSERT_EQ(word, "out") << line;
    while (words >> word) r.outputs[lane].push_back(std::stoull(word, nullptr, 16));
  }
  ASSERT_EQ(recordings.size(), order.size()) << "cases.expected does not cover every kernel of cases.ptx";

  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(ptx, "cases.ptx");
  uint64_t in = device.malloc(kLanes * kInputs * 8);
  uint64_t out = device.malloc(kLanes * kOutputs * 8);
  int mismatchedKernels = 0;
  for (const std::string& name : order) {
    const Recording& r = recordings[name];
    int bytes = elementBytes(typeOf[name]);
    std::vector<uint8_t> buffer(kLanes * kInputs * bytes);
    for (size_t i = 0; i < r.inputs.size(); ++i) std::memcpy(&buffer[i * bytes], &r.inputs[i], bytes);
    device.write(in, buffer);
    device.memset(out, 0, kLanes * kOutputs * 8);
    sim::LaunchResult result = device.launch(*module, name, {1}, {kLanes}, 0, KernelArgs().add(in).add(out));
    ASSERT_FALSE(result.error) << name << ": " << result.error.message;
    std::vector<uint8_t> written = device.read<uint8_t>(out, kLanes * kOutputs * bytes);
    int wrongLanes = 0;
    std::string first;
    for (int lane = 0; lane < kLanes; ++lane) {
      for (size_t o = 0; o < r.outputs[lane].size(); ++o) {
        uint64_t got = 0;
        std::memcpy(&got, &written[(lane * kOutputs + o) * bytes], bytes);
        if (got == r.outputs[lane][o]) continue;
        if (wrongLanes++ == 0) {
          std::ostringstream s;
          s << "lane " << lane << " output " << o << ": simulator " << std::hex << got << ", GPU "
            << r.outputs[lane][o];
          first = s.str();
        }
      }
    }
    if (wrongLanes > 0) ++mismatchedKernels;
    EXPECT_EQ(wrongLanes, 0) << name << ": " << wrongLanes << " outputs differ from the GPU's; first: " << first;
  }
  EXPECT_EQ(mismatchedKernels, 0);
}

}  // namespace
}  // namespace ptxsim
