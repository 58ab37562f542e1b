// Cooperative launches (tests/cuda/cooperative/grid_sync.cu): every block
// of the grid is resident at once, grid.sync() and the grid group's queries
// work, a grid larger than the device holds is refused, a grid.sync() that
// some block never reaches is a deadlock with its location, and results and
// statistics do not depend on the host thread count.

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "ptxsim/sim/occupancy.h"
#include "simt_support.h"

namespace ptxsim {
namespace {

const char* const kProgram = "cooperative/grid_sync";

// A small device keeps the largest co-resident grids cheap to run.
constexpr uint32_t kSmCount = 8;

std::unique_ptr<Device> makeDevice(unsigned hostThreads = 1, bool checkWarpSync = false) {
  sim::GpuConfig config;
  config.smCount = kSmCount;
  auto device = std::make_unique<Device>(config, DeviceOptions{hostThreads});
  device->launchOptions().maxWarpInstructions = simt_test::kMaxWarpInstructions;
  device->launchOptions().checkWarpSync = checkWarpSync;
  return device;
}

std::vector<int> randomInts(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int> v(n);
  for (int& x : v) x = dist(rng);
  return v;
}

// ---------------------------------------------------------------------------
// The grid group's queries

std::vector<uint64_t> gridQueries(bool cooperative, unsigned blocks, unsigned threadsPerBlock,
                                  sim::LaunchResult& result) {
  auto device = makeDevice();
  auto module = test::loadCudaProgram(*device, kProgram);
  const unsigned threads = blocks * threadsPerBlock;
  uint64_t out = device->upload(std::vector<uint64_t>(6 * threads, ~uint64_t{0}));
  result = device->launch(*module, "grid_queries", {blocks}, {threadsPerBlock}, 0, KernelArgs().add(out),
                          cooperative);
  return device->read<uint64_t>(out, 6 * threads);
}

TEST(CooperativeLaunch, GridGroupQueriesDescribeTheGrid) {
  for (bool cooperative : {true, false}) {
    SCOPED_TRACE(cooperative ? "cooperative launch" : "normal launch");
    sim::LaunchResult r;
    std::vector<uint64_t> out = gridQueries(cooperative, 3, 64, r);
    ASSERT_FALSE(r.error) << r.error.message;
    for (uint64_t t = 0; t < 192; ++t) {
      SCOPED_TRACE("thread " + std::to_string(t));
      // Every launch has a grid workspace, which is what is_valid() tests
      // (the H100 answers 1 under <<<>>> too: cooperative_groups.expected).
      EXPECT_EQ(out[6 * t + 0], 1u);
      EXPECT_EQ(out[6 * t + 1], 192u);
      EXPECT_EQ(out[6 * t + 2], t);
      EXPECT_EQ(out[6 * t + 3], t / 64);
      EXPECT_EQ(out[6 * t + 4], 3u);
      EXPECT_EQ(out[6 * t + 5], 192u);
    }
  }
}

// ---------------------------------------------------------------------------
// grid.sync()

struct RotateRun {
  sim::LaunchResult result;
  std::vector<int> in;
  std::vector<int> out;
};

// Registers per thread as a cubin would give them; 0 keeps the estimate
// from PTX.
RotateRun runRotate(bool cooperative, unsigned blocks, unsigned threadsPerBlock, uint32_t dynamicShared = 0,
                    unsigned hostThreads = 1, bool checkWarpSync = false, uint32_t machineRegisters = 0) {
  auto device = makeDevice(hostThreads, checkWarpSync);
  auto module = test::loadCudaProgram(*device, kProgram);
  if (machineRegisters != 0) module->setMachineRegisters({{"rotate_between_blocks", machineRegisters}});
  const unsigned n = blocks * threadsPerBlock;
  RotateRun run;
  run.in = randomInts(n, 7);
  uint64_t in = device->upload(run.in);
  uint64_t scratch = device->upload(std::vector<int>(n, -1));
  uint64_t out = device->upload(std::vector<int>(n, -1));
  run.result = device->launch(*module, "rotate_between_blocks", {blocks}, {threadsPerBlock}, dynamicShared,
                              KernelArgs().add(in).add(scratch).add(out), cooperative);
  run.out = device->read<int>(out, n);
  return run;
}

void expectRotated(const RotateRun& run, unsigned threadsPerBlock) {
  const size_t n = run.in.size();
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(run.out[i], run.in[(i + threadsPerBlock) % n] * 3 + 1) << "thread " << i;
  }
}

TEST(CooperativeLaunch, GridSyncOrdersStoresOfEveryBlockBeforeLoads) {
  for (unsigned hostThreads : {1u, 4u}) {
    SCOPED_TRACE(std::to_string(hostThreads) + " host threads");
    RotateRun run = runRotate(true, 6, 128, 0, hostThreads);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    expectRotated(run, 128);
    // A cooperative grid runs on one host thread whatever is asked for.
    EXPECT_EQ(run.result.stats.hostThreads, 1u);
  }
}

// An ordinary launch of a grid that fits on the device is resident at once
// on a GPU, so grid.sync() works there as in a cooperative launch, the
// same whatever the host threads.
TEST(CooperativeLaunch, GridSyncInAnOrdinaryLaunchThatFitsWorks) {
  for (unsigned hostThreads : {1u, 4u}) {
    SCOPED_TRACE(std::to_string(hostThreads) + " host threads");
    RotateRun run = runRotate(false, 6, 128, 0, hostThreads, false, 32);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    expectRotated(run, 128);
    EXPECT_EQ(run.result.stats.hostThreads, 1u);
  }
}

// One that does not fit cannot have every block at the barrier: a deadlock,
// not a hang.
TEST(CooperativeLaunch, GridSyncInAnOrdinaryLaunchTooLargeToFitIsADeadlock) {
  RotateRun run = runRotate(false, 132 * 16 + 1, 128, 0, 2, false, 32);
  ASSERT_TRUE(run.result.error);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::Deadlock) << run.result.error.message;
}

TEST(CooperativeLaunch, WarpSyncCheckerSeesNoHazardInInterleavedBlocks) {
  RotateRun run = runRotate(true, 6, 128, 0, 1, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  expectRotated(run, 128);
  EXPECT_TRUE(run.result.warnings.empty()) << run.result.warnings.front();
}

struct ReduceRun {
  sim::LaunchResult result;
  std::vector<long long> totals;
};

constexpr int kRounds = 3;

ReduceRun runGridReduce(const std::vector<int>& in, unsigned blocks, unsigned threadsPerBlock,
                        unsigned hostThreads) {
  auto device = makeDevice(hostThreads);
  auto module = test::loadCudaProgram(*device, kProgram);
  uint64_t input = device->upload(in);
  uint64_t partial = device->upload(std::vector<long long>(blocks, 0));
  uint64_t totals = device->upload(std::vector<long long>(kRounds, 0));
  ReduceRun run;
  run.result = device->launch(*module, "grid_reduce", {blocks}, {threadsPerBlock}, 0,
                              KernelArgs().add(input).add(partial).add(totals).add(kRounds), true);
  run.totals = device->read<long long>(totals, kRounds);
  return run;
}

TEST(CooperativeLaunch, RepeatedGridSyncsReduceAndResultsDoNotDependOnHostThreads) {
  const unsigned blocks = 8, threadsPerBlock = 256;
  std::vector<int> in = randomInts(blocks * threadsPerBlock, 11);
  long long sum = std::accumulate(in.begin(), in.end(), 0LL);
  ReduceRun one = runGridReduce(in, blocks, threadsPerBlock, 1);
  ReduceRun three = runGridReduce(in, blocks, threadsPerBlock, 3);
  ASSERT_FALSE(one.result.error) << one.result.error.message;
  ASSERT_FALSE(three.result.error) << three.result.error.message;
  for (int r = 0; r < kRounds; ++r) EXPECT_EQ(one.totals[r], sum * (r + 1)) << "round " << r;
  EXPECT_EQ(one.totals, three.totals);
  EXPECT_EQ(test::counters(one.result.stats), test::counters(three.result.stats));
  // Six grid barriers: each block's first thread arrives with one atomic.
  EXPECT_EQ(one.result.stats.atomicInstructions, 2u * kRounds * blocks);
}

// ---------------------------------------------------------------------------
// Co-residency

struct FlagRun {
  sim::LaunchResult result;
  int seen = 0;
};

FlagRun runWaitForLastBlock(bool cooperative) {
  auto device = makeDevice();
  auto module = test::loadCudaProgram(*device, kProgram);
  uint64_t flag = device->upload(std::vector<int>{0});
  uint64_t seen = device->upload(std::vector<int>{0});
  FlagRun run;
  run.result = device->launch(*module, "wait_for_last_block", {8}, {32}, 0, KernelArgs().add(flag).add(seen),
                              cooperative);
  run.seen = device->read<int>(seen, 1)[0];
  return run;
}

TEST(CooperativeLaunch, EveryBlockIsResidentAtOnce) {
  FlagRun cooperative = runWaitForLastBlock(true);
  ASSERT_FALSE(cooperative.result.error) << cooperative.result.error.message;
  EXPECT_EQ(cooperative.seen, 42);
  // Launched normally, the grid also fits on the GPU at once, so its
  // blocks progress together there too (tests/cuda/programs/cta_waits.cu
  // on the H100): block 0 waits until the last block starts beside it.
  FlagRun normal = runWaitForLastBlock(false);
  ASSERT_FALSE(normal.result.error) << normal.result.error.message;
  EXPECT_EQ(normal.seen, 42);
}

// The largest grid the device holds runs; one block more is refused.
TEST(CooperativeLaunch, GridLargerThanTheDeviceHoldsIsRefused) {
  constexpr uint32_t kRegisters = 16;
  struct Shape {
    unsigned threadsPerBlock;
    uint32_t dynamicShared;
    const char* limit;
  };
  for (Shape shape : {Shape{1024, 0, "threads"}, Shape{64, 100 * 1024, "shared memory"}}) {
    SCOPED_TRACE(std::string("limited by ") + shape.limit);
    auto device = makeDevice();
    auto module = test::loadCudaProgram(*device, kProgram);
    module->setMachineRegisters({{"rotate_between_blocks", kRegisters}});
    sim::Gpu::KernelResources resources;
    sim::LaunchError error = device->gpu().kernelResources(*module, "rotate_between_blocks", resources);
    ASSERT_FALSE(error) << error.message;
    int perSm = sim::maxActiveBlocksPerSm(device->config(), resources,
                                          static_cast<int>(shape.threadsPerBlock), shape.dynamicShared);
    // Hand-derived: 2048 threads per SM hold two blocks of 1024 (whose
    // 16-register threads would allow four); 228 KiB of shared memory per
    // SM hold two blocks of 100 KiB (+1 KiB each).
    EXPECT_EQ(perSm, 2);
    unsigned largest = static_cast<unsigned>(perSm) * kSmCount;
    RotateRun fits =
        runRotate(true, largest, shape.threadsPerBlock, shape.dynamicShared, 1, false, kRegisters);
    ASSERT_FALSE(fits.result.error) << fits.result.error.message;
    expectRotated(fits, shape.threadsPerBlock);
    RotateRun tooLarge =
        runRotate(true, largest + 1, shape.threadsPerBlock, shape.dynamicShared, 1, false, kRegisters);
    ASSERT_EQ(tooLarge.result.error.kind, sim::LaunchErrorKind::CooperativeTooLarge)
        << tooLarge.result.error.message;
    EXPECT_NE(tooLarge.result.error.message.find(std::to_string(largest + 1) + " blocks, but at most " +
                                                 std::to_string(largest)),
              std::string::npos)
        << tooLarge.result.error.message;
    EXPECT_EQ(tooLarge.result.stats.warpInstructions, 0u);  // refused before it ran
    // A normal launch of the same grid is not limited.
    EXPECT_FALSE(
        runRotate(false, largest + 1, shape.threadsPerBlock, shape.dynamicShared).result.error.kind ==
        sim::LaunchErrorKind::CooperativeTooLarge);
  }
}

// ---------------------------------------------------------------------------
// Deadlock: a grid.sync() one block never reaches

sim::LaunchResult runSkipGridSync(unsigned hostThreads, std::vector<int>& out) {
  auto device = makeDevice(hostThreads);
  auto module = test::loadCudaProgram(*device, kProgram);
  const unsigned blocks = 4, threadsPerBlock = 64;
  uint64_t buffer = device->upload(std::vector<int>(blocks * threadsPerBlock, 0));
  sim::LaunchResult r = device->launch(*module, "skip_grid_sync", {blocks}, {threadsPerBlock}, 0,
                                       KernelArgs().add(buffer), true);
  out = device->read<int>(buffer, blocks * threadsPerBlock);
  return r;
}

TEST(CooperativeLaunch, GridSyncSomeBlockNeverReachesIsADeadlockWithItsLocation) {
  std::vector<int> out;
  auto start = std::chrono::steady_clock::now();
  sim::LaunchResult r = runSkipGridSync(1, out);
  EXPECT_LT(simt_test::secondsSince(start), simt_test::kDeadlockSeconds);
  ASSERT_EQ(r.error.kind, sim::LaunchErrorKind::Deadlock) << r.error.message;
  const std::string& message = r.error.message;
  EXPECT_NE(message.find("cooperative grid"), std::string::npos) << message;
  EXPECT_NE(message.find("3 of 4 blocks wait, 1 exited"), std::string::npos) << message;
  EXPECT_NE(message.find("kernel skip_grid_sync, block (0,0,0)"), std::string::npos) << message;
  // Block 0's first thread spins in grid.sync()'s polling loop; its other
  // threads wait at the CTA barrier after it.
  std::set<int> spin = simt_test::spinLoopLines(kProgram, "skip_grid_sync", "ld.acquire.gpu");
  ASSERT_FALSE(spin.empty());
  std::vector<simt_test::ReportedGroup> groups = simt_test::reportedGroups(message);
  ASSERT_FALSE(groups.empty()) << message;
  bool spinning = false;
  for (const auto& g : groups)
    spinning = spinning || (g.warp == 0 && (g.lanes & 1) != 0 && spin.count(g.line) != 0);
  EXPECT_TRUE(spinning) << message;
  // Blocks 0..2 stored before the barrier, none after it; the last block
  // returned at once.
  for (unsigned t = 0; t < out.size(); ++t) EXPECT_EQ(out[t], t < 192 ? 1 : 0) << "thread " << t;
  // The same report whatever the host thread count.
  std::vector<int> outFour;
  sim::LaunchResult four = runSkipGridSync(4, outFour);
  EXPECT_EQ(four.error.message, message);
  EXPECT_EQ(outFour, out);
}

}  // namespace
}  // namespace ptxsim
