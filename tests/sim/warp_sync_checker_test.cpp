// --check=warp-sync (LaunchOptions::checkWarpSync): intra-warp data races
// are reported once per pair of PTX lines, deterministically, without
// changing results; synchronised code gets no report.

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/ptx_kernel.h"
#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

const std::string kReducePtx = std::string(PTXSIM_SOURCE_DIR) + "/tests/sim/warp_sync/warp_reduce.ptx";

// The line pairs the reports name: (later access's PTX line, earlier's).
std::set<std::pair<int, int>> linePairs(const std::vector<std::string>& warnings) {
  std::set<std::pair<int, int>> pairs;
  std::regex re(R"(at PTX line (\d+).* at PTX line (\d+))");
  for (const std::string& w : warnings) {
    std::smatch m;
    EXPECT_TRUE(std::regex_search(w, m, re)) << w;
    if (!m.empty()) pairs.insert({std::stoi(m[1]), std::stoi(m[2])});
  }
  return pairs;
}

struct ReduceRun {
  sim::LaunchResult result;
  std::vector<int> out;
};

// One block of 32 threads per 32 inputs.
ReduceRun runReduce(const std::string& kernel, unsigned blocks, unsigned hostThreads, bool check,
                    sim::StepObserver* observer = nullptr) {
  Device device(sim::GpuConfig{}, DeviceOptions{hostThreads});
  device.launchOptions().checkWarpSync = check;
  device.launchOptions().observer = observer;
  auto module = device.loadModuleFile(kReducePtx);
  std::vector<int> in(blocks * 32);
  std::iota(in.begin(), in.end(), 1);
  uint64_t inAddress = device.upload(in);
  uint64_t outAddress = device.malloc(blocks * 4);
  device.memset(outAddress, 0, blocks * 4);
  ReduceRun run;
  run.result = device.launch(*module, kernel, {blocks}, {32}, 0, KernelArgs().add(inAddress).add(outAddress));
  run.out = device.read<int>(outAddress, blocks);
  return run;
}

TEST(WarpSyncChecker, LegacyWarpReductionReportsEachLinePairOnce) {
  ReduceRun run = runReduce("reduceRacy", 1, 1, true);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], 32 * 33 / 2);
  // Step k (lines 59/61, 64/66, ...): lane i reads s[i+k] while lane i+k
  // stores s[i+k] in the same step (write vs read), and the next step's
  // read of s[i+k/2] meets the store lane i+k/2 made in the previous step.
  std::set<std::pair<int, int>> expected = {{61, 59}, {64, 61}, {66, 64}, {69, 66}, {71, 69},
                                            {74, 71}, {76, 74}, {79, 76}, {81, 79}};
  EXPECT_EQ(linePairs(run.result.warnings), expected);
  ASSERT_EQ(run.result.warnings.size(), expected.size());
  EXPECT_EQ(run.result.stats.warpSyncHazards, expected.size());
  EXPECT_EQ(
      run.result.warnings[0],
      "ptxsim: warp-sync hazard in kernel reduceRacy: lanes 16 and 0 of warp 0 in block (0,0,0): write at "
      "PTX line 61 (warp_reduce.cu:13) and read at PTX line 59 (warp_reduce.cu:13) of shared address 0x40 "
      "with no __syncwarp between them");
  EXPECT_EQ(
      run.result.warnings[1],
      "ptxsim: warp-sync hazard in kernel reduceRacy: lanes 0 and 8 of warp 0 in block (0,0,0): read at "
      "PTX line 64 (warp_reduce.cu:14) and write at PTX line 61 (warp_reduce.cu:13) of shared address 0x20 "
      "with no __syncwarp between them");
}

TEST(WarpSyncChecker, SyncwarpAndShuffleReductionsReportNothing) {
  for (const char* kernel : {"reduceSync", "reduceShfl"}) {
    ReduceRun run = runReduce(kernel, 2, 1, true);
    ASSERT_FALSE(run.result.error) << run.result.error.message;
    EXPECT_EQ(run.out[0], 32 * 33 / 2) << kernel;
    EXPECT_EQ(run.out[1], 32 * 33 / 2 + 32 * 32) << kernel;
    EXPECT_TRUE(run.result.warnings.empty()) << kernel << ": " << run.result.warnings.front();
    EXPECT_EQ(run.result.stats.warpSyncHazards, 0u);
  }
}

TEST(WarpSyncChecker, ResultsAndStatisticsDoNotChange) {
  ReduceRun plain = runReduce("reduceRacy", 8, 1, false);
  ReduceRun checked = runReduce("reduceRacy", 8, 1, true);
  ASSERT_FALSE(plain.result.error);
  ASSERT_FALSE(checked.result.error);
  EXPECT_EQ(plain.out, checked.out);
  EXPECT_TRUE(plain.result.warnings.empty());
  EXPECT_EQ(plain.result.stats.warpSyncHazards, 0u);
  EXPECT_EQ(plain.result.stats.warpInstructions, checked.result.stats.warpInstructions);
  EXPECT_EQ(plain.result.stats.threadInstructions, checked.result.stats.threadInstructions);
  EXPECT_EQ(plain.result.stats.sharedStoreInstructions, checked.result.stats.sharedStoreInstructions);
  EXPECT_NE(checked.result.stats.toJson().find("\"ptxsim__warp_sync_hazards\":9"), std::string::npos);
}

TEST(WarpSyncChecker, SameReportsWithOneAndFourHostThreads) {
  ReduceRun one = runReduce("reduceRacy", 16, 1, true);
  for (int repeat = 0; repeat < 3; ++repeat) {
    ReduceRun four = runReduce("reduceRacy", 16, 4, true);
    ASSERT_FALSE(four.result.error);
    EXPECT_EQ(four.result.stats.hostThreads, 4u);
    EXPECT_EQ(one.result.warnings, four.result.warnings);
    EXPECT_EQ(one.out, four.out);
  }
  ASSERT_EQ(one.result.warnings.size(), 9u);
  for (const std::string& w : one.result.warnings)
    EXPECT_NE(w.find("in block (0,0,0)"), std::string::npos) << w;
}

// Counts steps from every host thread that runs a CTA (two here), so the
// count is atomic.
struct Recorder : sim::StepObserver {
  std::atomic<uint64_t> steps{0};
  void onStep(const sim::StepReport&) override { steps.fetch_add(1, std::memory_order_relaxed); }
};

TEST(WarpSyncChecker, ChainsWithTheCallersObserver) {
  Recorder recorder;
  ReduceRun run = runReduce("reduceRacy", 2, 2, true, &recorder);
  EXPECT_EQ(recorder.steps.load(), run.result.stats.warpInstructions);
  EXPECT_EQ(run.result.warnings.size(), 9u);
}

// A hand-written kernel (see ptx_kernel.h) on `threads` threads of one
// block, checked.
sim::LaunchResult runChecked(std::string_view declarations, std::string_view body, unsigned threads = 32,
                             std::vector<uint64_t>* out = nullptr) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  device.launchOptions().checkWarpSync = true;
  auto module = device.loadModule(test::ptxKernel(declarations, body), "check.ptx");
  uint64_t inAddress = device.malloc(1024);
  uint64_t outAddress = device.malloc(1024);
  device.memset(inAddress, 0, 1024);
  device.memset(outAddress, 0, 1024);
  sim::LaunchResult r =
      device.launch(*module, "k", {1}, {threads}, 0, KernelArgs().add(inAddress).add(outAddress));
  EXPECT_FALSE(r.error) << r.error.message;
  if (out != nullptr) *out = device.read<uint64_t>(outAddress, 128);
  EXPECT_EQ(r.stats.warpSyncHazards, r.warnings.size());
  return r;
}

// The PTX line of the first line of `ptx` containing `text`.
int lineOf(std::string_view declarations, std::string_view body, std::string_view text) {
  std::istringstream lines(test::ptxKernel(declarations, body));
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (line.find(text) != std::string::npos) return n;
  }
  return 0;
}

TEST(WarpSyncChecker, AtomicsFromAllLanesToOneAddressAreNotARace) {
  std::vector<uint64_t> out;
  sim::LaunchResult r = runChecked(".reg .u32 %old; .shared .u32 count;",
                                   "atom.global.add.u32 %old, [%out], 1;\n"
                                   "atom.shared.add.u32 %old, [count], 1;\n"
                                   "red.global.add.u32 [%out+8], 1;\n"
                                   "atom.global.exch.b32 %old, [%out+16], %tx;",
                                   32, &out);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  EXPECT_EQ(out[0], 32u);
  EXPECT_EQ(out[1], 32u);
}

TEST(WarpSyncChecker, AtomicAgainstAPlainAccessOfAnotherLaneIsARace) {
  std::string decl = ".reg .u32 %old, %v; .reg .pred %p;";
  std::string body =
      "atom.global.add.u32 %old, [%out], 1;\n"
      "setp.eq.u32 %p, %tx, 5;\n"
      "@%p ld.global.u32 %v, [%out];";
  sim::LaunchResult r = runChecked(decl, body);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("lanes 5 and 0 of warp 0"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("read at PTX line " + std::to_string(lineOf(decl, body, "@%p ld")) +
                               " and atomic at PTX line " + std::to_string(lineOf(decl, body, "atom"))),
            std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("of global address 0x"), std::string::npos);
}

TEST(WarpSyncChecker, EveryLaneWritingItsOwnElementIsNotARace) {
  sim::LaunchResult r = runChecked(".reg .u64 %a; .reg .u32 %v, %s; .shared .b8 bytes[32];",
                                   "add.u64 %a, %out, %tx8;\n"
                                   "st.global.u64 [%a], %tx8;\n"
                                   "ld.global.u32 %v, [%a];\n"
                                   "mov.u32 %s, bytes;\n"
                                   "add.u32 %s, %s, %tx;\n"
                                   "st.shared.u8 [%s], %tx;\n"  // neighbouring bytes of one word
                                   "ld.shared.u8 %v, [%s];");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
}

TEST(WarpSyncChecker, TwoLanesStoringToOneAddressInOneInstructionIsOneReport) {
  std::string decl = ".reg .u32 %k, %s; .shared .u32 pair[2];";
  std::string body =
      "and.b32 %k, %tx, 1;\n"
      "mov.u32 %s, pair;\n"
      "mad.lo.u32 %s, %k, 4, %s;\n"
      "st.shared.u32 [%s], %tx;";
  sim::LaunchResult r = runChecked(decl, body);
  ASSERT_EQ(r.warnings.size(), 1u);
  std::string line = std::to_string(lineOf(decl, body, "st.shared"));
  EXPECT_NE(r.warnings[0].find("lanes 2 and 0 of warp 0 in block (0,0,0): write at PTX line " + line +
                               " and write at PTX line " + line + " of shared address 0x0 "),
            std::string::npos)
      << r.warnings[0];
}

// Lanes store their element, then `between`, then read their neighbour's.
sim::LaunchResult neighbourRead(std::string_view between) {
  std::string body =
      "mov.u32 %s, elems;\n"
      "mad.lo.u32 %a, %tx, 4, %s;\n"
      "st.shared.u32 [%a], %tx;\n" +
      std::string(between) +
      "\nadd.u32 %n, %tx, 1;\n"
      "and.b32 %n, %n, 31;\n"
      "mad.lo.u32 %a, %n, 4, %s;\n"
      "ld.shared.u32 %v, [%a];";
  return runChecked(".reg .u32 %s, %a, %n, %v, %m; .reg .pred %q; .shared .u32 elems[32];", body);
}

TEST(WarpSyncChecker, BarriersAndCollectivesOrderTheLanes) {
  for (const char* sync :
       {"bar.sync 0;", "barrier.sync 0;", "bar.warp.sync -1;", "shfl.sync.idx.b32 %m, %tx, 0, 31, -1;",
        "setp.ne.u32 %q, %tx, 99; vote.sync.ballot.b32 %m, %q, -1;", "match.any.sync.b32 %m, %tx, -1;",
        "redux.sync.add.u32 %m, %tx, -1;", "elect.sync %m|%q, -1;"}) {
    sim::LaunchResult r = neighbourRead(sync);
    EXPECT_TRUE(r.warnings.empty()) << sync << ": " << r.warnings.front();
  }
}

TEST(WarpSyncChecker, FencesAndActivemaskDoNotOrderTheLanes) {
  for (const char* notSync : {"", "membar.cta;", "fence.acq_rel.cta;", "activemask.b32 %m;"}) {
    sim::LaunchResult r = neighbourRead(notSync);
    ASSERT_EQ(r.warnings.size(), 1u) << notSync;
    EXPECT_NE(r.warnings[0].find("lanes 0 and 1 of warp 0"), std::string::npos) << r.warnings[0];
    EXPECT_NE(r.warnings[0].find(": read at PTX line"), std::string::npos) << r.warnings[0];
    EXPECT_NE(r.warnings[0].find("and write at PTX line"), std::string::npos) << r.warnings[0];
  }
}

TEST(WarpSyncChecker, APartialSyncwarpOrdersOnlyItsLanes) {
  // Every lane stores its element; lanes 0..15 then synchronise among
  // themselves and read a neighbour's element: within 0..15 it is ordered,
  // from 16..31 it is not.
  auto run = [](std::string_view offset) {
    std::string body =
        "mov.u32 %s, elems;\n"
        "mad.lo.u32 %a, %tx, 4, %s;\n"
        "st.shared.u32 [%a], %tx;\n"
        "setp.ge.u32 %q, %tx, 16;\n"
        "@%q bra DONE;\n"
        "bar.warp.sync 0xffff;\n"
        "add.u32 %n, %tx, " +
        std::string(offset) +
        ";\n"
        "and.b32 %n, %n, 31;\n"
        "mad.lo.u32 %a, %n, 4, %s;\n"
        "ld.shared.u32 %v, [%a];\n"
        "DONE:";
    return runChecked(".reg .u32 %s, %a, %n, %v; .reg .pred %q; .shared .u32 elems[32];", body);
  };
  sim::LaunchResult inside = run("1;\nand.b32 %n, %n, 15");
  EXPECT_TRUE(inside.warnings.empty()) << inside.warnings.front();
  sim::LaunchResult outside = run("16");
  ASSERT_EQ(outside.warnings.size(), 1u);
  EXPECT_NE(outside.warnings[0].find("lanes 0 and 16 of warp 0"), std::string::npos) << outside.warnings[0];
}

TEST(WarpSyncChecker, SubWordAccessesConflictOnlyWhereTheirBytesOverlap) {
  // Each lane stores its own halfword; lane 2k then reads the whole word,
  // which holds lane 2k+1's halfword too.
  sim::LaunchResult r = runChecked(".reg .u32 %s, %a, %v, %w; .reg .pred %q; .shared .u16 halves[32];",
                                   "mov.u32 %s, halves;\n"
                                   "mad.lo.u32 %a, %tx, 2, %s;\n"
                                   "st.shared.u16 [%a], %tx;\n"
                                   "ld.shared.u16 %v, [%a];\n"
                                   "and.b32 %w, %tx, 1;\n"
                                   "setp.eq.u32 %q, %w, 0;\n"
                                   "@%q ld.shared.u32 %v, [%a];");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("lanes 0 and 1 of warp 0"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("shared address 0x2 "), std::string::npos) << r.warnings[0];
}

TEST(WarpSyncChecker, GenericAddressesResolveAndLocalMemoryNeverRaces) {
  // Through generic addresses: shared memory races like shared, and every
  // lane's local variable at one generic offset is still its own.
  sim::LaunchResult r =
      runChecked(".reg .u64 %g, %e, %l; .reg .u32 %v, %n; .shared .u32 elems[32]; .local .u32 mine;",
                 "mov.u64 %l, mine;\n"
                 "cvta.local.u64 %l, %l;\n"
                 "st.u32 [%l], %tx;\n"
                 "ld.u32 %v, [%l];\n"
                 "st.local.u32 [mine], %tx;\n"
                 "mov.u64 %g, elems;\n"
                 "cvta.shared.u64 %g, %g;\n"
                 "mad.wide.u32 %e, %tx, 4, %g;\n"
                 "st.u32 [%e], %tx;\n"
                 "add.u32 %n, %tx, 1;\n"
                 "and.b32 %n, %n, 31;\n"
                 "mad.wide.u32 %e, %n, 4, %g;\n"
                 "ld.u32 %v, [%e];");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("lanes 0 and 1 of warp 0"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("of shared address 0x4 "), std::string::npos) << r.warnings[0];
}

TEST(WarpSyncChecker, RacesBetweenWarpsAreOutOfScope) {
  // Lane i of warp 0 and lane i of warp 1 store to the same shared and
  // global words, unsynchronised: an inter-warp race, not reported here.
  sim::LaunchResult r = runChecked(".reg .u32 %l, %s, %a; .reg .u64 %g; .shared .u32 elems[32];",
                                   "and.b32 %l, %tx, 31;\n"
                                   "mov.u32 %s, elems;\n"
                                   "mad.lo.u32 %a, %l, 4, %s;\n"
                                   "st.shared.u32 [%a], %tx;\n"
                                   "mul.wide.u32 %g, %l, 8;\n"
                                   "add.u64 %g, %g, %out;\n"
                                   "st.global.u64 [%g], %tx8;",
                                   64);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
}

TEST(WarpSyncChecker, ABarrierArrivedAtInPiecesOrdersAllThePieces) {
  // Lanes 0..15 and 16..31 reach barrier.sync at different instructions; the
  // barrier completes only when both halves have arrived, so the reads of
  // the other half's elements after it are ordered.
  const std::string declarations = ".reg .u32 %s, %a, %n, %v; .reg .pred %q; .shared .u32 elems[32];";
  auto body = [](std::string_view barrier) {
    return "mov.u32 %s, elems;\n"
           "mad.lo.u32 %a, %tx, 4, %s;\n"
           "st.shared.u32 [%a], %tx;\n"
           "setp.ge.u32 %q, %tx, 16;\n"
           "@%q bra HIGH;\n" +
           std::string(barrier) +
           "\nbra.uni JOIN;\n"
           "HIGH:\n" +
           std::string(barrier) +
           "\nJOIN:\n"
           "add.u32 %n, %tx, 16;\n"
           "and.b32 %n, %n, 31;\n"
           "mad.lo.u32 %a, %n, 4, %s;\n"
           "ld.shared.u32 %v, [%a];";
  };
  auto run = [&](std::string_view barrier) { return runChecked(declarations, body(barrier)); };
  // barrier.sync (not .aligned) may be reached at different instructions.
  sim::LaunchResult split = run("barrier.sync 0;");
  EXPECT_TRUE(split.warnings.empty()) << split.warnings.front();
  // bar.sync is .aligned: halves at different instructions are an error.
  test::KernelRun aligned = test::runKernel(test::ptxKernel(declarations, body("bar.sync 0;")), {}, 1);
  EXPECT_NE(aligned.result.error.message.find("barrier in divergent code"), std::string::npos)
      << aligned.result.error.message;
  sim::LaunchResult fenced = run("membar.cta;");
  ASSERT_EQ(fenced.warnings.size(), 1u);
  EXPECT_NE(fenced.warnings[0].find("lanes 0 and 16 of warp 0"), std::string::npos) << fenced.warnings[0];
}

TEST(WarpSyncChecker, LanesThatExitedEarlyDoNotHideOrInventHazards) {
  // Lanes 20..31 return first; the others store, synchronise (or not) and
  // read a neighbour's element among 0..19. A block of 52 threads also has
  // a partial second warp doing the same.
  auto run = [](std::string_view between) {
    return runChecked(".reg .u32 %s, %a, %n, %v, %l; .reg .pred %q; .shared .u32 elems[64];",
                      "and.b32 %l, %tx, 31;\n"
                      "setp.ge.u32 %q, %l, 20;\n"
                      "@%q bra DONE;\n"
                      "mov.u32 %s, elems;\n"
                      "mad.lo.u32 %a, %tx, 4, %s;\n"
                      "st.shared.u32 [%a], %tx;\n" +
                          std::string(between) +
                          "\nadd.u32 %n, %tx, 1;\n"
                          "setp.eq.u32 %q, %l, 19;\n"
                          "@%q sub.u32 %n, %n, 20;\n"
                          "mad.lo.u32 %a, %n, 4, %s;\n"
                          "ld.shared.u32 %v, [%a];\n"
                          "DONE:",
                      52);
  };
  sim::LaunchResult synced = run("bar.warp.sync 0xfffff;");
  EXPECT_TRUE(synced.warnings.empty()) << synced.warnings.front();
  sim::LaunchResult barrier = run("bar.sync 0;");
  EXPECT_TRUE(barrier.warnings.empty()) << barrier.warnings.front();
  sim::LaunchResult racy = run("");
  ASSERT_EQ(racy.warnings.size(), 1u);
  EXPECT_NE(racy.warnings[0].find("lanes 0 and 1 of warp 0"), std::string::npos) << racy.warnings[0];
}

}  // namespace
}  // namespace ptxsim

namespace ptxsim {
namespace {

// A member mask naming threads that exited: the collective goes on without
// them (the ISA), and --check=warp-sync reports it once per line.
TEST(WarpSyncChecker, MemberMasksNamingExitedThreadsAreReportedOnce) {
  std::string ptx = test::ptxKernel(".reg .b32 %r; .reg .pred %p;",
                                    "setp.ge.u32 %p, %tx, 20;\n"
                                    "@%p exit;\n"
                                    "shfl.sync.idx.b32 %r, %tx, 0, 31, 0xffffffff;\n"
                                    "shfl.sync.idx.b32 %r, %r, 1, 31, 0x000fffff;");
  Device device(sim::GpuConfig{}, DeviceOptions{4});
  device.launchOptions().checkWarpSync = true;
  auto module = device.loadModule(ptx, "mask.ptx");
  uint64_t buffer = device.malloc(64);
  sim::LaunchResult r = device.launch(*module, "k", {3}, {64}, 0, KernelArgs().add(buffer).add(buffer));
  ASSERT_FALSE(r.error) << r.error.message;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("the member mask 0xffffffff of shfl at PTX line"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("names lanes 0xfff00000 of warp 0 in block (0,0,0), which have exited"),
            std::string::npos)
      << r.warnings[0];
  EXPECT_EQ(r.stats.warpSyncHazards, 1u);
}

}  // namespace
}  // namespace ptxsim
