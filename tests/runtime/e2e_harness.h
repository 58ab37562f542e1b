#pragma once

// Shared by the end-to-end kernel tests (e2e_*_test.cpp): the project's CUDA
// kernels in tests/cuda/e2e run on a simulated device with one host thread
// and with four, and both runs must agree byte for byte in their outputs
// and exactly in every statistics counter.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"
#include "../support/cuda_programs.h"

namespace ptxsim::e2e {

using Bytes = std::vector<uint8_t>;

template <typename T>
void appendBytes(Bytes& out, const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const uint8_t*>(values.data());
  out.insert(out.end(), p, p + values.size() * sizeof(T));
}

// Launches and turns a launch error into an exception, which GoogleTest
// reports with its message (kernel, block, thread, PTX line).
inline sim::LaunchResult launchOrThrow(Device& device, sim::LoadedModule& module, const char* kernel,
                                       sim::Dim3 grid, sim::Dim3 block, uint32_t dynamicSharedBytes,
                                       const KernelArgs& args) {
  sim::LaunchResult result = device.launch(module, kernel, grid, block, dynamicSharedBytes, args);
  if (result.error) throw std::runtime_error(std::string(kernel) + ": " + result.error.message);
  return result;
}

// Every counter of a launch's statistics (not the wall time or thread
// count, which legitimately differ between runs).
inline std::vector<uint64_t> counters(const sim::KernelStats& s) {
  return {s.grid.x,
          s.grid.y,
          s.grid.z,
          s.block.x,
          s.block.y,
          s.block.z,
          s.dynamicSharedBytes,
          s.staticSharedBytes,
          s.registersPerThread,
          s.warpInstructions,
          s.threadInstructions,
          s.threadInstructionsPredOn,
          s.globalLoadInstructions,
          s.globalStoreInstructions,
          s.sharedLoadInstructions,
          s.sharedStoreInstructions,
          s.atomicInstructions,
          s.branchInstructions,
          s.divergentBranches,
          s.barriers};
}

struct RunOutcome {
  Bytes outputs;
  std::vector<std::string> kernels;
  std::vector<std::vector<uint64_t>> stats;
  std::string printf;
};

// Runs `body` (which loads the program, launches, checks the results
// against its host reference and returns the raw bytes of every output) on
// a fresh device with 1 host thread and again with 4, then compares the two
// runs. Device printf goes to a stream that the outcome keeps.
inline std::vector<RunOutcome> runOnOneAndFourThreads(const std::function<Bytes(Device&)>& body) {
  std::vector<RunOutcome> outcomes;
  for (unsigned threads : {1u, 4u}) {
    SCOPED_TRACE("host threads: " + std::to_string(threads));
    std::ostringstream printfStream;
    Device device(sim::GpuConfig{}, DeviceOptions{threads, &printfStream});
    RunOutcome outcome;
    outcome.outputs = body(device);
    device.synchronize();
    outcome.printf = printfStream.str();
    for (const sim::KernelStats& s : device.launchStats()) {
      outcome.kernels.push_back(s.kernel);
      outcome.stats.push_back(counters(s));
      // The simulator uses at most one host thread per CTA.
      EXPECT_EQ(s.hostThreads, std::min<uint64_t>(threads, s.grid.count())) << s.kernel;
      EXPECT_GT(s.threadInstructions, 0u) << s.kernel;
    }
    outcomes.push_back(std::move(outcome));
  }
  const RunOutcome &one = outcomes[0], &four = outcomes[1];
  EXPECT_FALSE(one.kernels.empty());
  EXPECT_EQ(one.outputs, four.outputs) << "outputs differ between 1 and 4 host threads";
  EXPECT_EQ(one.kernels, four.kernels);
  EXPECT_EQ(one.stats, four.stats) << "statistics differ between 1 and 4 host threads";
  EXPECT_EQ(one.printf, four.printf);
  return outcomes;
}

}  // namespace ptxsim::e2e
