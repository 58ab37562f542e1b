// The SIMT execution models (issue 5, item 7) on the project's own CUDA
// sources in tests/cuda/simt: the intra-warp spin lock completes under
// independent thread scheduling and is a deadlock under the pre-Volta
// stack; the warp-synchronous reduction without __syncwarp passes in
// lockstep, breaks under the adversarial schedule and is flagged by
// --check=warp-sync, while the synchronised versions pass everywhere with no
// report; nested divergence, exit, recursion, indirect branches and calls,
// and collectives over partial masks agree with a host replay in every mode;
// a seeded random schedule is reproducible.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/stats_counters.h"
#include "../support/cuda_programs.h"
#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

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

const Mode kStack{SimtMode::Stack};
const Mode kConverge{SimtMode::Its, ItsSchedule::Converge};
const Mode kRoundRobin{SimtMode::Its, ItsSchedule::RoundRobin};
const Mode kRandom1{SimtMode::Its, ItsSchedule::Random, 1};
const Mode kRandom2{SimtMode::Its, ItsSchedule::Random, 2};
const Mode kAdversarial{SimtMode::Its, ItsSchedule::Adversarial};

const std::vector<Mode> kItsModes = {kConverge, kRoundRobin, kRandom1, kRandom2, kAdversarial};
const std::vector<Mode> kAllModes = {kStack, kConverge, kRoundRobin, kRandom1, kRandom2, kAdversarial};

// A safety net: a kernel the simulator fails to stop becomes a Timeout
// error (and a failed test) instead of a hung test run.
constexpr uint64_t kMaxWarpInstructions = uint64_t{1} << 27;

std::unique_ptr<Device> makeDevice(const Mode& mode, unsigned hostThreads = 1, bool checkWarpSync = false) {
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
std::string expectedModeStat(const Mode& mode) {
  if (mode.simt == SimtMode::Stack) return "stack";
  return "its/" + std::string(sim::nameOf(mode.schedule));
}

using test::counters;

// The PTX text the tests load, line by line (index 0 is PTX line 1).
std::vector<std::string> ptxLines(const std::string& program) {
  std::ifstream in(test::cudaPtxPath(program));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The 1-based line range of `kernel`'s body in the PTX.
std::pair<int, int> kernelBody(const std::vector<std::string>& lines, const std::string& kernel) {
  int first = 0;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (first == 0 && lines[i].find(".entry " + kernel + "(") != std::string::npos) first = i + 1;
    if (first != 0 && lines[i] == "}") return {first, i + 1};
  }
  return {first, static_cast<int>(lines.size())};
}

// The PTX lines of `kernel` that contain `text`.
std::set<int> linesMatching(const std::string& program, const std::string& kernel, const std::string& text) {
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
std::set<int> spinLoopLines(const std::string& program, const std::string& kernel,
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
int nextInstructionLine(const std::string& program, int line) {
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

std::vector<ReportedGroup> reportedGroups(const std::string& message) {
  std::vector<ReportedGroup> groups;
  std::regex re(R"(warp (\d+) lanes 0x([0-9a-f]+) at PC \d+ \(PTX line (\d+)[^)]*\) in \w+: ([^\n]*))");
  for (std::sregex_iterator it(message.begin(), message.end(), re), end; it != end; ++it) {
    groups.push_back({static_cast<uint32_t>(std::stoul((*it)[1])),
                      static_cast<uint32_t>(std::stoul((*it)[2], nullptr, 16)), std::stoi((*it)[3]),
                      (*it)[4]});
  }
  return groups;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A deadlock must be found quickly, not by running into the instruction
// limit.
constexpr double kDeadlockSeconds = 60;

// ---------------------------------------------------------------------------
// 1. The intra-warp spin lock (spin_lock.cu)

struct LockRun {
  sim::LaunchResult result;
  int counter = 0;
  std::vector<int> order;
  double seconds = 0;
};

LockRun runLockedIncrement(const Mode& mode, unsigned blocks, unsigned threadsPerBlock,
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

// Every thread took the lock exactly once: the tickets 0..n-1 went to the
// thread indices of every block, each as often as there are blocks.
void expectLockCompleted(const LockRun& run, unsigned blocks, unsigned threadsPerBlock) {
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.counter, static_cast<int>(blocks * threadsPerBlock));
  std::vector<int> seen(threadsPerBlock, 0);
  for (int t : run.order) {
    ASSERT_GE(t, 0);
    ASSERT_LT(t, static_cast<int>(threadsPerBlock));
    ++seen[t];
  }
  for (unsigned t = 0; t < threadsPerBlock; ++t)
    EXPECT_EQ(seen[t], static_cast<int>(blocks)) << "thread " << t;
}

struct LockShape {
  unsigned blocks;
  unsigned threadsPerBlock;
};
const LockShape kLockShapes[] = {{1, 32}, {1, 64}, {4, 32}};

TEST(SimtSpinLock, CompletesUnderEveryItsSchedule) {
  for (const Mode& mode : kItsModes) {
    for (LockShape shape : kLockShapes) {
      SCOPED_TRACE(mode.name() + ", " + std::to_string(shape.blocks) + " blocks of " +
                   std::to_string(shape.threadsPerBlock));
      LockRun run = runLockedIncrement(mode, shape.blocks, shape.threadsPerBlock);
      expectLockCompleted(run, shape.blocks, shape.threadsPerBlock);
      EXPECT_EQ(run.result.stats.simtMode, expectedModeStat(mode));
    }
  }
}

// Stalls the host thread running block 0 once, while one of its threads
// holds the lock (at the fence before the release), as an operating system
// may deschedule it: the blocks spinning on other host threads meanwhile
// wait for a thread that will run again, which is no deadlock.
class StallWhileHoldingTheLock : public sim::StepObserver {
 public:
  explicit StallWhileHoldingTheLock(int fenceLine) : fenceLine_(fenceLine) {}
  void onStep(const sim::StepReport& report) override {
    if (report.cta != 0) {
      if (stalling_) ++othersDuringStall_;
      return;
    }
    if (static_cast<int>(report.instruction->where.line) != fenceLine_ || stalled_.exchange(true)) return;
    stalling_ = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stalling_ = false;
  }
  // Warp instructions other blocks ran while block 0 held the lock, stalled.
  uint64_t othersDuringStall() const { return othersDuringStall_; }

 private:
  int fenceLine_;
  std::atomic<bool> stalled_{false};
  std::atomic<bool> stalling_{false};
  std::atomic<uint64_t> othersDuringStall_{0};
};

TEST(SimtSpinLock, CompletesWhileALockHoldersHostThreadIsStalled) {
  const std::set<int> fence = linesMatching("simt/spin_lock", "locked_increment", "membar");
  ASSERT_EQ(fence.size(), 1u);
  for (const Mode& mode : kItsModes) {
    SCOPED_TRACE(mode.name());
    StallWhileHoldingTheLock stall(*fence.begin());
    LockRun run = runLockedIncrement(mode, 4, 64, 4, &stall);
    expectLockCompleted(run, 4, 64);
    EXPECT_GT(stall.othersDuringStall(), 0u)
        << "no other block ran during the stall: the test proves nothing";
  }
}

TEST(SimtSpinLock, IsADeadlockUnderTheStack) {
  const std::set<int> loop = spinLoopLines("simt/spin_lock", "locked_increment", "atom.global.cas");
  ASSERT_FALSE(loop.empty()) << "no atom.cas loop found in the PTX";
  const int loopExit = nextInstructionLine("simt/spin_lock", *loop.rbegin());
  for (LockShape shape : kLockShapes) {
    SCOPED_TRACE(std::to_string(shape.blocks) + " blocks of " + std::to_string(shape.threadsPerBlock));
    LockRun run = runLockedIncrement(kStack, shape.blocks, shape.threadsPerBlock);
    const std::string& message = run.result.error.message;
    ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::Deadlock) << message;
    EXPECT_LT(run.seconds, kDeadlockSeconds);
    EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
    EXPECT_NE(message.find("locked_increment"), std::string::npos) << message;
    EXPECT_NE(message.find("block (0,0,0)"), std::string::npos) << message;
    EXPECT_NE(message.find("simt stack"), std::string::npos) << message;
    EXPECT_EQ(run.result.stats.simtMode, "stack");
    // Block 0's threads: one took the lock and waits at the loop's exit to
    // reconverge; every other thread spins in the loop.
    uint32_t spinning = 0, waiting = 0;
    for (const ReportedGroup& g : reportedGroups(message)) {
      if (loop.count(g.line) != 0) {
        spinning += static_cast<uint32_t>(std::popcount(g.lanes));
      } else {
        waiting += static_cast<uint32_t>(std::popcount(g.lanes));
        EXPECT_EQ(g.line, loopExit) << message;
        EXPECT_NE(g.state.find("reconverge"), std::string::npos) << message;
      }
    }
    EXPECT_EQ(spinning, shape.threadsPerBlock - 1) << message;
    EXPECT_EQ(waiting, 1u) << message;
    EXPECT_EQ(run.counter, 0);  // the holder waits before its increment
  }
}

// A thread spinning on a flag that nothing sets: a deadlock in every mode.
TEST(SimtSpinLock, LostWakeUpIsADeadlockInEveryMode) {
  const std::set<int> loop = spinLoopLines("simt/spin_lock", "wait_for_flag", "ld.volatile.global");
  ASSERT_FALSE(loop.empty()) << "no flag loop found in the PTX";
  for (const Mode& mode : kAllModes) {
    SCOPED_TRACE(mode.name());
    auto device = makeDevice(mode);
    auto module = test::loadCudaProgram(*device, "simt/spin_lock");
    uint64_t flag = device->upload(std::vector<int>{0});
    uint64_t out = device->upload(std::vector<int>(32, -1));
    auto start = std::chrono::steady_clock::now();
    sim::LaunchResult result =
        device->launch(*module, "wait_for_flag", {1}, {32}, 0, KernelArgs().add(flag).add(out));
    const std::string& message = result.error.message;
    ASSERT_EQ(result.error.kind, sim::LaunchErrorKind::Deadlock) << message;
    EXPECT_LT(secondsSince(start), kDeadlockSeconds);
    EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
    EXPECT_NE(message.find("wait_for_flag"), std::string::npos) << message;
    EXPECT_NE(message.find("block (0,0,0)"), std::string::npos) << message;
    // Lane 0 is the one spinning.
    bool lane0Spins = false;
    for (const ReportedGroup& g : reportedGroups(message)) lane0Spins |= (g.lanes & 1u) && loop.count(g.line);
    EXPECT_TRUE(lane0Spins) << message;
    // Under ITS the other lanes do not wait for lane 0: they finish. Under
    // the stack they wait for it to reconverge.
    std::vector<int> written = device->read<int>(out, 32);
    EXPECT_EQ(written[0], -1);
    for (int t = 1; t < 32; ++t) EXPECT_EQ(written[t], mode.simt == SimtMode::Its ? t : -1) << t;
  }
}

// ---------------------------------------------------------------------------
// 2. Warp-synchronous reductions (warp_reduce.cu): 64 ints per block of 32
// threads into out[blockIdx.x]

constexpr unsigned kReduceBlocks = 6;

std::vector<int> reduceInput() {
  std::mt19937 rng(20240917);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int> in(kReduceBlocks * 64);
  for (int& x : in) x = dist(rng);
  return in;
}

std::vector<int> hostBlockSums(const std::vector<int>& in) {
  std::vector<int> sums(kReduceBlocks, 0);
  for (size_t i = 0; i < in.size(); ++i) sums[i / 64] += in[i];
  return sums;
}

struct ReduceRun {
  sim::LaunchResult result;
  std::vector<int> out;
};

ReduceRun runReduce(const Mode& mode, const std::string& kernel, bool checkWarpSync = false,
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

const char* const kReduceKernels[] = {"legacy", "synced", "shuffled"};

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

// ---------------------------------------------------------------------------
// 3. Divergence (divergence.cu) against host replays

constexpr int kUnwritten = -0x5a5a5a5a;

// Host replay of nested(): one thread at a time, as the CUDA source reads.
int collatzSteps(int x) {
  int steps = 0;
  while (x != 1) {
    if (steps > 200) break;
    if (x % 2 == 0) {
      x /= 2;
    } else {
      x = 3 * x + 1;
    }
    ++steps;
  }
  return steps;
}

int depthSum(int n) { return n <= 0 ? 0 : n + depthSum(n - 1 - (n % 3 == 0 ? 1 : 0)); }

int switchValue(int t) {
  switch (t % 9) {
    case 0: return t + 100;
    case 1: return t * 3;
    case 2: return t - 50;
    case 3: return t ^ 0x55;
    case 4: return t << 2;
    case 5: return t * t;
    case 6: return 7 - t;
    case 7: return t | 0x100;
    default: return -t;
  }
}

int indirectCall(int t) {
  int x = t + 1;
  switch (t % 3) {
    case 0: return 2 * x;
    case 1: return x * x;
    default: return -x;
  }
}

struct NestedResult {
  std::vector<int> out;     // 8 per thread
  std::vector<int> exited;  // exitedMarker
  bool operator==(const NestedResult&) const = default;
};

NestedResult replayNested(unsigned threads) {
  NestedResult r{std::vector<int>(threads * 8, kUnwritten), std::vector<int>(threads, 0)};
  for (int t = 0; t < static_cast<int>(threads); ++t) {
    int* o = &r.out[t * 8];
    if (t % 7 == 6) {  // exits
      r.exited[t] = 1;
      continue;
    }
    o[0] = collatzSteps(t + 1);
    if (t % 5 == 4) continue;  // returns early
    o[1] = depthSum(t % 11);
    o[2] = switchValue(t);
    o[3] = indirectCall(t);
  }
  return r;
}

struct DivergenceRun {
  sim::LaunchResult result;
  NestedResult nested;
  std::vector<int> partial;  // partial_masks: 4 per thread
};

constexpr unsigned kDivergenceThreads = 64;  // two warps

DivergenceRun runNested(const Mode& mode, unsigned hostThreads = 1) {
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

DivergenceRun runPartialMasks(const Mode& mode, unsigned hostThreads = 1) {
  auto device = makeDevice(mode, hostThreads);
  auto module = test::loadCudaProgram(*device, "simt/divergence");
  uint64_t out = device->upload(std::vector<int>(kDivergenceThreads * 4, kUnwritten));
  DivergenceRun run;
  run.result = device->launch(*module, "partial_masks", {1}, {kDivergenceThreads}, 0, KernelArgs().add(out));
  run.partial = device->read<int>(out, kDivergenceThreads * 4);
  return run;
}

TEST(SimtDivergence, NestedMatchesTheHostReplayInEveryMode) {
  const NestedResult expected = replayNested(kDivergenceThreads);
  for (const Mode& mode : kAllModes) {
    SCOPED_TRACE(mode.name());
    DivergenceRun run = runNested(mode);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    EXPECT_EQ(run.nested.exited, expected.exited);
    for (unsigned i = 0; i < expected.out.size(); ++i) {
      EXPECT_EQ(run.nested.out[i], expected.out[i]) << "thread " << i / 8 << " o[" << i % 8 << "]";
    }
  }
}

// The collectives of partial_masks() over the lanes of each member mask, as
// the ISA defines them. `lane` is the lane in the warp, `t` the thread
// index; lanes of a warp are t = base + lane.
//
// The third branch uses __activemask(), which is whatever group of threads
// the schedule runs together: in lockstep it is every lane of the branch.
// Other schedules may run the branch in smaller groups; there the replay
// checks what holds for any group (checkUnsynchronisedBranch).
bool inElseBranch(int t) { return t % 2 == 1 && t >= 16; }

std::vector<int> replayPartialMasks(unsigned threads) {
  std::vector<int> out(threads * 4, kUnwritten);
  for (unsigned base = 0; base < threads; base += 32) {
    auto T = [&](int lane) { return static_cast<int>(base) + lane; };
    uint32_t elseLanes = 0;
    for (int lane = 0; lane < 32; ++lane) elseLanes |= inElseBranch(T(lane)) ? 1u << lane : 0u;
    for (int lane = 0; lane < 32; ++lane) {
      int t = T(lane);
      int* o = &out[t * 4];
      if (t % 2 == 0) {
        // shfl.idx from lane (t+2)%32 (an even lane, in the mask); ballot,
        // any and all over the even lanes.
        o[0] = T((t + 2) % 32) * 10;
        uint32_t ballot = 0;
        bool any = false, all = true;
        for (int l = 0; l < 32; l += 2) {
          ballot |= T(l) % 4 == 0 ? 1u << l : 0u;
          any |= T(l) == 30;
          all &= T(l) < 32;
        }
        o[1] = static_cast<int>(ballot);
        o[2] = (any ? 1 : 0) + 2 * (all ? 1 : 0);
      } else if (t < 16) {
        // Odd lanes below 16 (warp 0 only): xor-shuffle, ballot, redux.add
        // over the mask 0xaaaa.
        o[0] = T(lane ^ 2);
        uint32_t ballot = 0;
        int sum = 0;
        for (int l = 1; l < 16; l += 2) {
          ballot |= T(l) > 8 ? 1u << l : 0u;
          sum += T(l);
        }
        o[1] = static_cast<int>(ballot);
        o[2] = sum;
      } else {
        // Lockstep: the active mask is the whole branch; shfl.down by 2
        // keeps the own value past lane 31; match.any groups by t/8.
        o[0] = std::popcount(elseLanes);
        o[1] = lane + 2 < 32 ? T(lane + 2) : t;
        uint32_t match = 0;
        for (int l = 0; l < 32; ++l) match |= (elseLanes >> l & 1u) && T(l) / 8 == t / 8 ? 1u << l : 0u;
        o[2] = static_cast<int>(match);
      }
    }
    // After __syncwarp: ballot over the full warp of o[0] > 100.
    uint32_t ballot = 0;
    for (int lane = 0; lane < 32; ++lane) ballot |= out[T(lane) * 4] > 100 ? 1u << lane : 0u;
    for (int lane = 0; lane < 32; ++lane) out[T(lane) * 4 + 3] = static_cast<int>(ballot);
  }
  return out;
}

// For a schedule that may run the third branch in groups smaller than the
// branch: each lane's group A (unknown) contains the lane and lies in the
// branch; popc(A) = o[0]; match.any gives A's lanes with the same t/8, so
// it contains the lane, agrees among the lanes it names, and is no larger
// than A; shfl.down gives lane+2's value when lane+2 is in A (known when
// match names it) and the own value past lane 31.
void checkUnsynchronisedBranch(const std::vector<int>& out, unsigned threads) {
  for (unsigned base = 0; base < threads; base += 32) {
    uint32_t elseLanes = 0;
    for (int lane = 0; lane < 32; ++lane)
      elseLanes |= inElseBranch(static_cast<int>(base) + lane) ? 1u << lane : 0u;
    for (int lane = 0; lane < 32; ++lane) {
      int t = static_cast<int>(base) + lane;
      if (!inElseBranch(t)) continue;
      SCOPED_TRACE("thread " + std::to_string(t));
      const int* o = &out[t * 4];
      uint32_t match = static_cast<uint32_t>(o[2]);
      EXPECT_TRUE(match >> lane & 1u);
      EXPECT_EQ(match & ~elseLanes, 0u);
      for (int l = 0; l < 32; ++l) {
        if (!(match >> l & 1u)) continue;
        EXPECT_EQ((static_cast<int>(base) + l) / 8, t / 8);
        EXPECT_EQ(out[(base + l) * 4 + 2], o[2]) << "lane " << l;
      }
      EXPECT_GE(o[0], std::popcount(match));
      EXPECT_LE(o[0], std::popcount(elseLanes));
      if (lane + 2 >= 32) EXPECT_EQ(o[1], t);
      if (lane + 2 < 32 && (match >> (lane + 2) & 1u)) EXPECT_EQ(o[1], t + 2);
    }
  }
}

TEST(SimtDivergence, PartialMasksMatchTheHostReplayInEveryMode) {
  const std::vector<int> expected = replayPartialMasks(kDivergenceThreads);
  for (const Mode& mode : kAllModes) {
    SCOPED_TRACE(mode.name());
    DivergenceRun run = runPartialMasks(mode);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    for (unsigned i = 0; i < expected.size(); ++i) {
      int t = static_cast<int>(i / 4);
      // The third branch's first three values depend on the grouping
      // outside lockstep; checked separately below.
      if (!mode.lockstep() && inElseBranch(t) && i % 4 != 3) continue;
      EXPECT_EQ(run.partial[i], expected[i]) << "thread " << t << " o[" << i % 4 << "]";
    }
    if (!mode.lockstep()) checkUnsynchronisedBranch(run.partial, kDivergenceThreads);
  }
}

TEST(SimtDivergence, OneAndFourHostThreadsAgree) {
  for (const Mode& mode : kAllModes) {
    SCOPED_TRACE(mode.name());
    DivergenceRun one = runNested(mode, 1), four = runNested(mode, 4);
    ASSERT_FALSE(one.result.error) << one.result.error.message;
    ASSERT_FALSE(four.result.error) << four.result.error.message;
    EXPECT_TRUE(one.nested == four.nested);
    EXPECT_EQ(counters(one.result.stats), counters(four.result.stats));
    DivergenceRun onePartial = runPartialMasks(mode, 1), fourPartial = runPartialMasks(mode, 4);
    ASSERT_FALSE(fourPartial.result.error) << fourPartial.result.error.message;
    EXPECT_EQ(onePartial.partial, fourPartial.partial);
    EXPECT_EQ(counters(onePartial.result.stats), counters(fourPartial.result.stats));
    ReduceRun reduceOne = runReduce(mode, "legacy", true, 1), reduceFour = runReduce(mode, "legacy", true, 4);
    EXPECT_EQ(reduceOne.out, reduceFour.out);
    EXPECT_EQ(reduceOne.result.warnings, reduceFour.result.warnings);
    EXPECT_EQ(counters(reduceOne.result.stats), counters(reduceFour.result.stats));
  }
}

// ---------------------------------------------------------------------------
// 4. Determinism of the random schedule

TEST(SimtDeterminism, RandomScheduleWithOneSeedRepeatsExactly) {
  for (uint64_t seed : {1, 2}) {
    Mode mode{SimtMode::Its, ItsSchedule::Random, seed};
    SCOPED_TRACE(mode.name());
    DivergenceRun a = runNested(mode), b = runNested(mode);
    EXPECT_TRUE(a.nested == b.nested);
    EXPECT_EQ(counters(a.result.stats), counters(b.result.stats));
    DivergenceRun pa = runPartialMasks(mode), pb = runPartialMasks(mode);
    EXPECT_EQ(pa.partial, pb.partial);
    EXPECT_EQ(counters(pa.result.stats), counters(pb.result.stats));
    for (const char* kernel : kReduceKernels) {
      ReduceRun ra = runReduce(mode, kernel, true), rb = runReduce(mode, kernel, true);
      EXPECT_EQ(ra.out, rb.out) << kernel;
      EXPECT_EQ(ra.result.warnings, rb.result.warnings) << kernel;
      EXPECT_EQ(counters(ra.result.stats), counters(rb.result.stats)) << kernel;
    }
    LockRun la = runLockedIncrement(mode, 1, 64), lb = runLockedIncrement(mode, 1, 64);
    EXPECT_EQ(la.order, lb.order);  // the same threads took the lock in the same order
    EXPECT_EQ(counters(la.result.stats), counters(lb.result.stats));
  }
}

TEST(SimtDeterminism, SeedsChangeTheScheduleButNotCorrectResults) {
  DivergenceRun a = runNested(kRandom1), b = runNested(kRandom2);
  EXPECT_TRUE(a.nested == b.nested);
  for (const char* kernel : {"synced", "shuffled"}) {
    EXPECT_EQ(runReduce(kRandom1, kernel).out, runReduce(kRandom2, kernel).out) << kernel;
  }
  LockRun la = runLockedIncrement(kRandom1, 1, 64), lb = runLockedIncrement(kRandom2, 1, 64);
  EXPECT_EQ(la.counter, lb.counter);
  // The schedule itself depends on the seed: some counter or the lock's
  // order differs between the seeds for the spin lock, where the number of
  // spins depends on who runs when.
  EXPECT_TRUE(la.order != lb.order || counters(la.result.stats) != counters(lb.result.stats));
}

}  // namespace
}  // namespace ptxsim
