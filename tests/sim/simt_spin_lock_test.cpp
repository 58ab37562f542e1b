// The intra-warp spin lock (tests/cuda/simt/spin_lock.cu): it completes under
// every independent-thread schedule, also with several warps and blocks and
// while a lock holder's host thread stalls, and is a deadlock under the
// pre-Volta stack; a lost wake-up is a deadlock in every mode.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "simt_support.h"

namespace ptxsim {
namespace {

using namespace simt_test;

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

}  // namespace
}  // namespace ptxsim
