#pragma once

// Shared by the end-to-end kernel tests (e2e_*_test.cpp): the project's CUDA
// kernels in tests/cuda/e2e run on a simulated device with one host thread,
// with four, and with four and the finest warp interleaving; the runs must
// agree byte for byte in their outputs and exactly in every statistics
// counter.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/stats_counters.h"
#include "../support/cuda_programs.h"
#include "ptxsim/runtime/device.h"

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

using test::counters;

struct RunOutcome {
  std::vector<uint64_t> threadInstructions;
  Bytes outputs;
  std::vector<std::string> kernels;
  std::vector<std::vector<uint64_t>> stats;
  std::string printf;
};

// Runs `body` (which loads the program, launches, checks the results
// against its host reference and returns the raw bytes of every output) on
// a fresh device with 1 host thread, again with 4, and again with 4 where
// warps take turns after every instruction (warpQuantum 1) instead of every
// 64; then compares the runs, which must agree in everything. Device printf
// goes to a stream that the outcome keeps.
// Whether a warp's threads run as whole warps in this device's setting
// (the stack, or ITS converging eagerly), so warp-level counts and the
// order of printf lines within a warp are the lockstep ones.
inline bool runsInLockstep(Device& device) {
  const sim::LaunchOptions& o = device.launchOptions();
  return sim::resolveSimtMode(o.simt, device.config().smVersion, 90) == sim::SimtMode::Stack ||
         o.itsSchedule == sim::ItsSchedule::Converge;
}

// Device printf lines, sorted: what every schedule must print, in some order.
inline std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

inline std::vector<RunOutcome> runInThreeSettings(const std::function<Bytes(Device&)>& body) {
  struct Setting {
    unsigned threads;
    uint32_t warpQuantum;
    sim::SimtMode simt = sim::SimtMode::Default;
    sim::ItsSchedule schedule = sim::ItsSchedule::Converge;
  };
  // The first three must agree in everything; the other SIMT modes and
  // schedules in outputs, printf and thread-level counts (warp-level counts
  // change with how threads are grouped), since the kernels synchronise
  // their warps as CUDA requires.
  const Setting settings[] = {{1, 64},
                              {4, 64},
                              {4, 1},
                              {1, 64, sim::SimtMode::Stack},
                              {1, 64, sim::SimtMode::Its, sim::ItsSchedule::RoundRobin},
                              {1, 64, sim::SimtMode::Its, sim::ItsSchedule::Random},
                              {1, 64, sim::SimtMode::Its, sim::ItsSchedule::Adversarial}};
  std::vector<RunOutcome> outcomes;
  for (Setting setting : settings) {
    SCOPED_TRACE("host threads: " + std::to_string(setting.threads) +
                 ", warp quantum: " + std::to_string(setting.warpQuantum) + ", simt " +
                 std::string(sim::nameOf(setting.simt)) + ", schedule " + std::string(sim::nameOf(setting.schedule)));
    std::ostringstream printfStream;
    Device device(sim::GpuConfig{}, DeviceOptions{setting.threads, &printfStream});
    device.launchOptions().warpQuantum = setting.warpQuantum;
    device.launchOptions().simt = setting.simt;
    device.launchOptions().itsSchedule = setting.schedule;
    device.launchOptions().seed = 7;
    RunOutcome outcome;
    outcome.outputs = body(device);
    device.synchronize();
    outcome.printf = printfStream.str();
    for (const sim::KernelStats& s : device.launchStats()) {
      outcome.kernels.push_back(s.kernel);
      outcome.stats.push_back(counters(s));
      outcome.threadInstructions.push_back(s.threadInstructions);
      // The simulator uses at most one host thread per CTA.
      EXPECT_EQ(s.hostThreads, std::min<uint64_t>(setting.threads, s.grid.count())) << s.kernel;
      EXPECT_GT(s.threadInstructions, 0u) << s.kernel;
    }
    outcomes.push_back(std::move(outcome));
  }
  const RunOutcome& one = outcomes[0];
  EXPECT_FALSE(one.kernels.empty());
  for (size_t k = 1; k < outcomes.size(); ++k) {
    const RunOutcome& other = outcomes[k];
    SCOPED_TRACE("run 0 vs run " + std::to_string(k));
    EXPECT_EQ(one.outputs, other.outputs) << "outputs differ";
    EXPECT_EQ(one.kernels, other.kernels);
    if (k < 3) EXPECT_EQ(one.stats, other.stats) << "statistics differ";
    // Adversarial runs threads alone: an indirect call whose lanes call
    // different functions then issues once per thread, not once per function
    // with the other lanes counted again.
    if (k + 1 < outcomes.size()) {
      EXPECT_EQ(one.threadInstructions, other.threadInstructions) << "thread instruction counts differ";
    }
    if (k <= 3) {
      EXPECT_EQ(one.printf, other.printf);
    } else {
      EXPECT_EQ(sortedLines(one.printf), sortedLines(other.printf));
    }
  }
  return outcomes;
}

}  // namespace ptxsim::e2e
