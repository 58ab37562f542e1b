// --memcheck=report (ptxsim/sim/memcheck.h): reads past an allocation
// return zeros, writes past one are dropped, and each bad instruction is
// reported once, naming its first bad access, with the same text and order
// whatever the host thread count. The default, strict, fails the launch.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

// Every CTA of 32 threads: sums[ctaid * 32 + tid] = in[tid] + in[tid + 8]
// (line 17: in has 32 words, so threads 24-31 read past its end) and
// flags[tid + 1] = 1 (line 21: flags has 32 words, so thread 31 writes past
// its end).
const char* kModule =
    ".version 9.0\n"                                                                     // 1
    ".target sm_90\n"                                                                    // 2
    ".address_size 64\n"                                                                 // 3
    ".visible .entry past(.param .u64 in_p, .param .u64 sums_p, .param .u64 flags_p)\n"  // 4
    "{\n"                                                                                // 5
    "  .reg .u64 %in, %sums, %flags, %t4, %g4;\n"                                        // 6
    "  .reg .u32 %tx, %cta, %g, %a, %b, %one;\n"                                         // 7
    "  ld.param.u64 %in, [in_p];\n"                                                      // 8
    "  ld.param.u64 %sums, [sums_p];\n"                                                  // 9
    "  ld.param.u64 %flags, [flags_p];\n"                                                // 10
    "  mov.u32 %tx, %tid.x;\n"                                                           // 11
    "  mov.u32 %cta, %ctaid.x;\n"                                                        // 12
    "  mad.lo.u32 %g, %cta, 32, %tx;\n"                                                  // 13
    "  mul.wide.u32 %t4, %tx, 4;\n"                                                      // 14
    "  add.u64 %in, %in, %t4;\n"                                                         // 15
    "  ld.global.u32 %a, [%in];\n"                                                       // 16
    "  ld.global.u32 %b, [%in+32];\n"                                                    // 17
    "  add.u32 %a, %a, %b;\n"                                                            // 18
    "  add.u64 %flags, %flags, %t4;\n"                                                   // 19
    "  mov.u32 %one, 1;\n"                                                               // 20
    "  st.global.u32 [%flags+4], %one;\n"                                                // 21
    "  mul.wide.u32 %g4, %g, 4;\n"                                                       // 22
    "  add.u64 %sums, %sums, %g4;\n"                                                     // 23
    "  st.global.u32 [%sums], %a;\n"                                                     // 24
    "  ret;\n"                                                                           // 25
    "}\n";

constexpr unsigned kCtas = 4;

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

struct PastRun {
  sim::LaunchResult result;
  std::vector<uint32_t> sums;
  std::vector<uint32_t> flags;
  uint64_t in = 0;
  uint64_t flagsAddress = 0;
};

PastRun runPast(sim::MemcheckMode memcheck, unsigned hostThreads, bool timing = false) {
  Device device(sim::GpuConfig{}, DeviceOptions{.hostThreads = hostThreads});
  device.launchOptions().memcheck = memcheck;
  device.launchOptions().timing = timing;
  auto module = device.loadModule(kModule, "past.ptx");
  std::vector<uint32_t> in(32);
  for (unsigned i = 0; i < 32; ++i) in[i] = 100 + i;
  PastRun run;
  run.in = device.upload(in);
  uint64_t sums = device.malloc(kCtas * 32 * 4);
  device.memset(sums, 0, kCtas * 32 * 4);
  run.flagsAddress = device.malloc(32 * 4);
  device.memset(run.flagsAddress, 0, 32 * 4);
  run.result = device.launch(*module, "past", {kCtas}, {32}, 0,
                             KernelArgs().add(run.in).add(sums).add(run.flagsAddress));
  run.sums = device.read<uint32_t>(sums, kCtas * 32);
  run.flags = device.read<uint32_t>(run.flagsAddress, 32);
  return run;
}

TEST(MemcheckReport, ReadsPastAnAllocationReturnZerosAndWritesPastOneAreDropped) {
  PastRun run = runPast(sim::MemcheckMode::Report, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned cta = 0; cta < kCtas; ++cta) {
    for (unsigned t = 0; t < 32; ++t) {
      uint32_t expected = (100 + t) + (t + 8 < 32 ? 100 + t + 8 : 0);
      EXPECT_EQ(run.sums[cta * 32 + t], expected) << "block " << cta << ", thread " << t;
    }
  }
  std::vector<uint32_t> flags(32, 1);
  flags[0] = 0;
  EXPECT_EQ(run.flags, flags);
}

TEST(MemcheckReport, EachBadInstructionIsReportedOnceAtItsFirstBadAccess) {
  PastRun run = runPast(sim::MemcheckMode::Report, 1);
  // The lowest block's lowest bad thread: thread 24 reads in + 128, thread
  // 31 writes flags + 128, each just past its 128-byte allocation.
  std::vector<std::string> expected = {
      "ptxsim: memcheck: invalid global read of 4 bytes at " + hex(run.in + 128) +
          " (0 bytes after the end of the 128-byte allocation at " + hex(run.in) +
          ") in kernel past, block (0,0,0), thread (24,0,0), PTX line 17; the read returned zeros",
      "ptxsim: memcheck: invalid global write of 4 bytes at " + hex(run.flagsAddress + 128) +
          " (0 bytes after the end of the 128-byte allocation at " + hex(run.flagsAddress) +
          ") in kernel past, block (0,0,0), thread (31,0,0), PTX line 21; the access was dropped",
  };
  EXPECT_EQ(run.result.warnings, expected);
}

TEST(MemcheckReport, TheReportIsTheSameWhateverTheHostThreadCount) {
  PastRun one = runPast(sim::MemcheckMode::Report, 1);
  for (unsigned threads : {2u, 4u}) {
    PastRun many = runPast(sim::MemcheckMode::Report, threads);
    EXPECT_EQ(many.result.warnings, one.result.warnings) << threads << " host threads";
    EXPECT_EQ(many.sums, one.sums) << threads << " host threads";
  }
}

TEST(MemcheckReport, TheTimingModelGivesTheSameReportAndResults) {
  PastRun functional = runPast(sim::MemcheckMode::Report, 1);
  PastRun timed = runPast(sim::MemcheckMode::Report, 2, true);
  ASSERT_FALSE(timed.result.error) << timed.result.error.message;
  EXPECT_TRUE(timed.result.stats.timed);
  EXPECT_EQ(timed.result.warnings, functional.result.warnings);
  EXPECT_EQ(timed.sums, functional.sums);
  EXPECT_EQ(timed.flags, functional.flags);
}

TEST(MemcheckReport, StrictModeFailsTheLaunchAtTheFirstBadRead) {
  PastRun run = runPast(sim::MemcheckMode::Strict, 1);
  ASSERT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_EQ(run.result.error.message, "invalid global read of 4 bytes at " + hex(run.in + 128) +
                                          " (0 bytes after the end of the 128-byte allocation at " +
                                          hex(run.in) +
                                          ") in kernel past, block (0,0,0), thread (24,0,0), PTX line 17");
  EXPECT_TRUE(run.result.warnings.empty());
}

TEST(MemcheckReport, ModeNamesParse) {
  EXPECT_EQ(sim::parseMemcheckMode("strict"), sim::MemcheckMode::Strict);
  EXPECT_EQ(sim::parseMemcheckMode("report"), sim::MemcheckMode::Report);
  EXPECT_EQ(sim::parseMemcheckMode("loose"), std::nullopt);
}

}  // namespace
}  // namespace ptxsim
