#pragma once

// What the SIMT tests (tests/sim/simt_*_test.cpp) share: the SIMT modes
// and schedules they run under, a device set up for one, the PTX line
// look-ups that locate report lines without hard-coding them, and one
// runner per kernel of tests/cuda/simt.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../support/cuda_programs.h"
#include "../support/stats_counters.h"
#include "ptxsim/runtime/device.h"

namespace ptxsim::simt_test {

using sim::ItsSchedule;
using sim::SimtMode;

// ---------------------------------------------------------------------------
// Modes and launching

struct Mode {
  SimtMode simt = SimtMode::Stack;
  ItsSchedule schedule = ItsSchedule::Converge;
  uint64_t seed = 0;

  std::string name() const {
    if (simt == SimtMode::Stack) return "stack";
    std::string text = "its/" + std::string(sim::nameOf(schedule));
    if (schedule == ItsSchedule::Random) text += " seed " + std::to_string(seed);
    return text;
  }
  // The warp runs as whole warps between divergences, so __activemask and
  // unsynchronised warp-synchronous code see lockstep execution.
  bool lockstep() const { return simt == SimtMode::Stack || schedule == ItsSchedule::Converge; }
};

inline const Mode kStack{SimtMode::Stack};
inline const Mode kConverge{SimtMode::Its, ItsSchedule::Converge};
inline const Mode kRoundRobin{SimtMode::Its, ItsSchedule::RoundRobin};
inline const Mode kRandom1{SimtMode::Its, ItsSchedule::Random, 1};
inline const Mode kRandom2{SimtMode::Its, ItsSchedule::Random, 2};
inline const Mode kAdversarial{SimtMode::Its, ItsSchedule::Adversarial};

inline const std::vector<Mode> kItsModes = {kConverge, kRoundRobin, kRandom1, kRandom2, kAdversarial};
inline const std::vector<Mode> kAllModes = {kStack, kConverge, kRoundRobin, kRandom1, kRandom2, kAdversarial};

// A safety net: a kernel the simulator fails to stop becomes a Timeout
// error (and a failed test) instead of a hung test run.
inline constexpr uint64_t kMaxWarpInstructions = uint64_t{1} << 27;

inline std::unique_ptr<Device> makeDevice(const Mode& mode, unsigned hostThreads = 1,
                                          bool checkWarpSync = false) {
  auto device = std::make_unique<Device>(sim::GpuConfig{}, DeviceOptions{hostThreads});
  sim::LaunchOptions& options = device->launchOptions();
  options.simt = mode.simt;
  options.itsSchedule = mode.schedule;
  options.seed = mode.seed;
  options.checkWarpSync = checkWarpSync;
  options.maxWarpInstructions = kMaxWarpInstructions;
  return device;
}

// The statistic naming the mode that ran ("stack", "its/random", ...).
inline std::string expectedModeStat(const Mode& mode) {
  if (mode.simt == SimtMode::Stack) return "stack";
  return "its/" + std::string(sim::nameOf(mode.schedule));
}

using test::counters;

// The PTX text the tests load, line by line (index 0 is PTX line 1).
inline std::vector<std::string> ptxLines(const std::string& program) {
  std::ifstream in(test::cudaPtxPath(program));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The 1-based line range of `kernel`'s body in the PTX.
inline std::pair<int, int> kernelBody(const std::vector<std::string>& lines, const std::string& kernel) {
  int first = 0;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (first == 0 && lines[i].find(".entry " + kernel + "(") != std::string::npos) first = i + 1;
    if (first != 0 && lines[i] == "}") return {first, i + 1};
  }
  return {first, static_cast<int>(lines.size())};
}

// The PTX lines of `kernel` that contain `text`.
inline std::set<int> linesMatching(const std::string& program, const std::string& kernel,
                                   const std::string& text) {
  std::vector<std::string> lines = ptxLines(program);
  auto [first, last] = kernelBody(lines, kernel);
  std::set<int> found;
  for (int l = first; l <= last; ++l) {
    if (lines[l - 1].find(text) != std::string::npos) found.insert(l);
  }
  return found;
}

// The PTX lines of the spin loop of `kernel` that contains the first line
// matching `marker`: from the label before it to the branch back to it.
inline std::set<int> spinLoopLines(const std::string& program, const std::string& kernel,
                                   const std::string& marker) {
  std::vector<std::string> lines = ptxLines(program);
  auto [first, last] = kernelBody(lines, kernel);
  int markerLine = 0;
  for (int l = first; l <= last && markerLine == 0; ++l) {
    if (lines[l - 1].find(marker) != std::string::npos) markerLine = l;
  }
  std::set<int> loop;
  if (markerLine == 0) return loop;
  int label = markerLine;
  while (label > first && lines[label - 1].find(':') == std::string::npos) --label;
  std::string name = lines[label - 1].substr(0, lines[label - 1].find(':'));
  name.erase(0, name.find_first_not_of(" \t"));
  for (int l = label + 1; l <= last; ++l) {
    loop.insert(l);
    if (lines[l - 1].find("bra") != std::string::npos && lines[l - 1].find(name) != std::string::npos) break;
  }
  return loop;
}

// The first line after `line` that holds an instruction (not blank, not a
// label).
inline int nextInstructionLine(const std::string& program, int line) {
  std::vector<std::string> lines = ptxLines(program);
  for (int l = line + 1; l <= static_cast<int>(lines.size()); ++l) {
    const std::string& text = lines[l - 1];
    if (text.find_first_not_of(" \t") != std::string::npos && text.find(':') == std::string::npos) return l;
  }
  return 0;
}

// The groups a deadlock report lists: "lanes 0x... at PC n (PTX line L".
struct ReportedGroup {
  uint32_t warp;
  uint32_t lanes;
  int line;
  std::string state;
};

inline std::vector<ReportedGroup> reportedGroups(const std::string& message) {
  std::vector<ReportedGroup> groups;
  std::regex re(R"(warp (\d+) lanes 0x([0-9a-f]+) at PC \d+ \(PTX line (\d+)[^)]*\) in \w+: ([^\n]*))");
  for (std::sregex_iterator it(message.begin(), message.end(), re), end; it != end; ++it) {
    groups.push_back({static_cast<uint32_t>(std::stoul((*it)[1])),
                      static_cast<uint32_t>(std::stoul((*it)[2], nullptr, 16)), std::stoi((*it)[3]),
                      (*it)[4]});
  }
  return groups;
}

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A deadlock must be found quickly, not by running into the instruction
// limit.
inline constexpr double kDeadlockSeconds = 60;

// ---------------------------------------------------------------------------
// 1. The intra-warp spin lock (spin_lock.cu)

struct LockRun {
  sim::LaunchResult result;
  int counter = 0;
  std::vector<int> order;
  double seconds = 0;
};

inline LockRun runLockedIncrement(const Mode& mode, unsigned blocks, unsigned threadsPerBlock,
                                  unsigned hostThreads = 1, sim::StepObserver* observer = nullptr) {
  auto device = makeDevice(mode, hostThreads);
  device->launchOptions().observer = observer;
  auto module = test::loadCudaProgram(*device, "simt/spin_lock");
  const unsigned threads = blocks * threadsPerBlock;
  uint64_t lock = device->upload(std::vector<int>{0});
  uint64_t counter = device->upload(std::vector<int>{0});
  uint64_t order = device->upload(std::vector<int>(threads, -1));
  auto start = std::chrono::steady_clock::now();
  LockRun run;
  run.result = device->launch(*module, "locked_increment", {blocks}, {threadsPerBlock}, 0,
                              KernelArgs().add(lock).add(counter).add(order));
  run.seconds = secondsSince(start);
  run.counter = device->read<int>(counter, 1)[0];
  run.order = device->read<int>(order, threads);
  return run;
}

// ---------------------------------------------------------------------------
// 2. Warp-synchronous reductions (warp_reduce.cu): 64 ints per block of 32
// threads into out[blockIdx.x]

inline constexpr unsigned kReduceBlocks = 6;

inline std::vector<int> reduceInput() {
  std::mt19937 rng(20240917);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int> in(kReduceBlocks * 64);
  for (int& x : in) x = dist(rng);
  return in;
}

inline std::vector<int> hostBlockSums(const std::vector<int>& in) {
  std::vector<int> sums(kReduceBlocks, 0);
  for (size_t i = 0; i < in.size(); ++i) sums[i / 64] += in[i];
  return sums;
}

struct ReduceRun {
  sim::LaunchResult result;
  std::vector<int> out;
};

inline ReduceRun runReduce(const Mode& mode, const std::string& kernel, bool checkWarpSync = false,
                           unsigned hostThreads = 1) {
  auto device = makeDevice(mode, hostThreads, checkWarpSync);
  auto module = test::loadCudaProgram(*device, "simt/warp_reduce");
  uint64_t in = device->upload(reduceInput());
  uint64_t out = device->upload(std::vector<int>(kReduceBlocks, 0));
  ReduceRun run;
  run.result = device->launch(*module, kernel, {kReduceBlocks}, {32}, 0, KernelArgs().add(in).add(out));
  run.out = device->read<int>(out, kReduceBlocks);
  return run;
}

inline const char* const kReduceKernels[] = {"legacy", "synced", "shuffled"};

// ---------------------------------------------------------------------------
// 3. Divergence (divergence.cu) against host replays

inline constexpr int kUnwritten = -0x5a5a5a5a;

struct NestedResult {
  std::vector<int> out;     // 8 per thread
  std::vector<int> exited;  // exitedMarker
  bool operator==(const NestedResult&) const = default;
};

struct DivergenceRun {
  sim::LaunchResult result;
  NestedResult nested;
  std::vector<int> partial;  // partial_masks: 4 per thread
};

inline constexpr unsigned kDivergenceThreads = 64;  // two warps

inline DivergenceRun runNested(const Mode& mode, unsigned hostThreads = 1) {
  auto device = makeDevice(mode, hostThreads);
  auto module = test::loadCudaProgram(*device, "simt/divergence");
  uint64_t out = device->upload(std::vector<int>(kDivergenceThreads * 8, kUnwritten));
  uint64_t exited = device->upload(std::vector<int>(kDivergenceThreads, 0));
  DivergenceRun run;
  run.result =
      device->launch(*module, "nested", {1}, {kDivergenceThreads}, 0, KernelArgs().add(out).add(exited));
  run.nested.out = device->read<int>(out, kDivergenceThreads * 8);
  run.nested.exited = device->read<int>(exited, kDivergenceThreads);
  return run;
}

inline DivergenceRun runPartialMasks(const Mode& mode, unsigned hostThreads = 1) {
  auto device = makeDevice(mode, hostThreads);
  auto module = test::loadCudaProgram(*device, "simt/divergence");
  uint64_t out = device->upload(std::vector<int>(kDivergenceThreads * 4, kUnwritten));
  DivergenceRun run;
  run.result = device->launch(*module, "partial_masks", {1}, {kDivergenceThreads}, 0, KernelArgs().add(out));
  run.partial = device->read<int>(out, kDivergenceThreads * 4);
  return run;
}

}  // namespace ptxsim::simt_test
