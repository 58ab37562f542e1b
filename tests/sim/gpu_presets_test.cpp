// GPU presets: the shipped files parse, keys apply, overrides win, and
// mistakes name their line.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "ptxsim/sim/gpu_presets.h"
#include "ptxsim/sim/simt.h"

namespace ptxsim::sim {
namespace {

const std::string kPresets = std::string(PTXSIM_SOURCE_DIR) + "/configs";

TEST(GpuPresets, TheDefaultPresetFileMatchesTheBuiltInDefaults) {
  GpuConfig builtIn;
  GpuConfig loaded;
  loaded.smCount = 1;  // proves the file sets it
  std::string error;
  ASSERT_TRUE(loadPreset("h100", kPresets, loaded, error)) << error;
  EXPECT_EQ(loaded.name, builtIn.name);
  EXPECT_EQ(loaded.smCount, builtIn.smCount);
  EXPECT_EQ(loaded.smVersion, builtIn.smVersion);
  EXPECT_EQ(loaded.sharedBytesPerBlockOptin, builtIn.sharedBytesPerBlockOptin);
  EXPECT_EQ(loaded.limits.maxThreadsPerBlock, builtIn.limits.maxThreadsPerBlock);
  EXPECT_EQ(describeTiming(loaded.timing), describeTiming(builtIn.timing));
}

TEST(GpuPresets, EveryTimingParameterIsInTheH100PresetAndOverridable) {
  GpuConfig c;
  c.timing.sm.scheduler = "lrr";  // proves the file sets it
  c.timing.pipeline(Pipeline::Fp64).latencyCycles = 99;
  std::string error;
  ASSERT_TRUE(loadPreset("h100,sm.scheduler=two-level,pipe.mufu.latency=40", kPresets, c, error)) << error;
  EXPECT_EQ(c.timing.sm.scheduler, "two-level");
  EXPECT_EQ(c.timing.pipeline(Pipeline::Mufu).latencyCycles, 40u);
  EXPECT_EQ(c.timing.pipeline(Pipeline::Fp64).latencyCycles, 8u);  // measured: latency.fp64.dadd
  ASSERT_TRUE(loadPreset("h100,l1.replacement=fifo,l2.replacement=fifo", kPresets, c, error)) << error;
  EXPECT_EQ(c.timing.l1.replacement, &memory::kFirstInFirstOut);
  EXPECT_EQ(c.timing.l2.replacement, &memory::kFirstInFirstOut);
  ASSERT_TRUE(loadPreset("h100", kPresets, c, error)) << error;
  EXPECT_EQ(c.timing.l2.replacement, &memory::kLeastRecentlyUsed);
  // The preset file holds every parameter: each line of the description's
  // keys is found in it.
  std::ifstream in(std::string(kPresets) + "/h100.cfg");
  std::stringstream text;
  text << in.rdbuf();
  for (const TimingParameter& p : timingParameters())
    EXPECT_NE(text.str().find("\n" + p.key + " = "), std::string::npos) << p.key;
}

TEST(GpuPresets, TimingKeysAreCheckedByNameTypeAndRange) {
  GpuConfig c;
  std::string error;
  EXPECT_FALSE(loadPreset("h100,sm.schedular=gto", kPresets, c, error));
  EXPECT_EQ(error, "override 'sm.schedular=gto': unknown key 'sm.schedular'");
  EXPECT_FALSE(loadPreset("h100,sm.scheduler=fifo", kPresets, c, error));
  EXPECT_EQ(error, "override 'sm.scheduler=fifo': bad value 'fifo' for sm.scheduler (name): no such policy (lrr, "
                   "gto, oldest-first, two-level)");
  EXPECT_FALSE(loadPreset("h100,l2.replacement=plru", kPresets, c, error));
  EXPECT_EQ(error, "override 'l2.replacement=plru': bad value 'plru' for l2.replacement (name): no such policy (" +
                       memory::replacementPolicyNames() + ")");
  EXPECT_FALSE(loadPreset("h100,pipe.int.interval=0", kPresets, c, error));
  EXPECT_EQ(error, "override 'pipe.int.interval=0': bad value '0' for pipe.int.interval (cycles): at least 1");
  EXPECT_FALSE(loadPreset("h100,shared.latency=fast", kPresets, c, error));
  EXPECT_EQ(error, "override 'shared.latency=fast': bad value 'fast' for shared.latency (cycles): not a whole number");
}

TEST(GpuPresets, TheEffectiveTimingParametersAreEchoedAsJson) {
  GpuConfig c;
  std::string json = timingJson(c.timing);
  EXPECT_EQ(json.rfind("{\"sm.sub_partitions\":4,\"sm.scheduler\":\"gto\",\"sm.barrier\":14,", 0), 0u);
  EXPECT_NE(json.find("\"pipe.shuffle.latency\":26"), std::string::npos);
  EXPECT_EQ(json.back(), '}');
}

TEST(GpuPresets, OverridesApplyAfterThePreset) {
  GpuConfig c;
  std::string error;
  ASSERT_TRUE(loadPreset("h100,sm_count=66,clock_rate_khz=1000000", kPresets, c, error)) << error;
  EXPECT_EQ(c.smCount, 66u);
  EXPECT_EQ(c.clockRateKhz, 1000000u);
}

TEST(GpuPresets, ErrorsNameTheLineAndKey) {
  GpuConfig c;
  std::string error;
  EXPECT_FALSE(applyPreset("sm_count = 4\nsm_cuont = 5\n", c, error, "x.cfg"));
  EXPECT_EQ(error, "x.cfg:2: unknown key 'sm_cuont'");
  EXPECT_FALSE(applyPreset("sm_count = lots  # comment\n", c, error, "y.cfg"));
  EXPECT_EQ(error, "y.cfg:1: bad value 'lots' for sm_count");
  EXPECT_FALSE(loadPreset("missing", kPresets, c, error));
  EXPECT_NE(error.find("no GPU preset 'missing'"), std::string::npos);
}

}  // namespace
}  // namespace ptxsim::sim

namespace ptxsim::sim {
namespace {

// The H200: the H100's SMs and timing, its own memory: a 60 MiB L2, of
// which it keeps a larger share dirty (28 MB, the H100 21.3 of 50) and
// of which a host copy leaves more (4 MiB against 3), and
// HBM3e channels 1.43 times as fast; and its own grid overhead, measured
// (an empty one-CTA grid: 3426 cycles against the H100's 4203).
TEST(GpuPresets, TheH200HasTheH100sTimingAndItsOwnMemory) {
  GpuConfig h200, h100;
  std::string error;
  ASSERT_TRUE(loadPreset("h200", kPresets, h200, error)) << error;
  ASSERT_TRUE(loadPreset("h100", kPresets, h100, error)) << error;
  EXPECT_EQ(h200.name, "NVIDIA H200");
  EXPECT_EQ(h200.globalMemoryBytes, uint64_t{143155} << 20);
  EXPECT_EQ(h200.smCount, 132u);
  EXPECT_EQ(h200.timing.l2.capacityBytes, uint64_t{60} << 20);
  EXPECT_EQ(h100.timing.l2.capacityBytes, uint64_t{50} << 20);
  EXPECT_EQ(h200.timing.dram.bytesPerCyclePerChannel, 30u);  // the H100s 21 x 1.43
  EXPECT_EQ(h100.timing.dram.bytesPerCyclePerChannel, 21u);
  EXPECT_EQ(h200.timing.gridCycles, 3373u);
  EXPECT_EQ(h100.timing.gridCycles, 4150u);
  EXPECT_EQ(h200.timing.l2.dirtyShare, 0.467);
  EXPECT_EQ(h100.timing.l2.dirtyShare, 0.426);
  // What a host copy leaves in the L2 (measured: a 16th of each one's L2).
  EXPECT_EQ(h200.timing.hostCopyResidentBytes, uint64_t{4} << 20);
  EXPECT_EQ(h100.timing.hostCopyResidentBytes, uint64_t{3} << 20);
  TimingConfig sameMemory = h200.timing;
  sameMemory.l2.capacityBytes = h100.timing.l2.capacityBytes;
  sameMemory.l2.dirtyShare = h100.timing.l2.dirtyShare;
  sameMemory.dram.bytesPerCyclePerChannel = h100.timing.dram.bytesPerCyclePerChannel;
  sameMemory.gridCycles = h100.timing.gridCycles;
  sameMemory.hostCopyResidentBytes = h100.timing.hostCopyResidentBytes;
  EXPECT_EQ(timingJson(sameMemory), timingJson(h100.timing));
}

TEST(GpuPresets, AMemorySystemThatCannotBeBuiltIsAPresetError) {
  GpuConfig c;
  std::string error;
  EXPECT_FALSE(loadPreset("h100,l2.capacity=1000", kPresets, c, error));
  EXPECT_NE(error.find("the timing keys describe no memory system that can be built"), std::string::npos) << error;
  EXPECT_FALSE(loadPreset("h100,l2.atomic_cycles_per_op=-1", kPresets, c, error));
  EXPECT_NE(error.find("not a positive number"), std::string::npos) << error;
  EXPECT_FALSE(loadPreset("h100,l2.capacity=99999999999999999999999", kPresets, c, error));
  EXPECT_TRUE(loadPreset("h100,l2.atomic_cycles_per_op=2.5", kPresets, c, error)) << error;
  EXPECT_EQ(c.timing.l2.atomicCyclesPerOp, 2.5);
  // No hazard is a model that can be built; a sector in no time is not.
  EXPECT_TRUE(loadPreset("h100,l2.atomic_hazard_cycles=0", kPresets, c, error)) << error;
  EXPECT_EQ(c.timing.l2.atomicHazardCycles, 0.0);
  EXPECT_FALSE(loadPreset("h100,l2.atomic_hazard_cycles=-1", kPresets, c, error));
  EXPECT_NE(error.find("not a number of 0 or more"), std::string::npos) << error;
  EXPECT_FALSE(loadPreset("h100,l2.atomic_cycles_per_sector=0", kPresets, c, error));
  EXPECT_NE(error.find("not a positive number"), std::string::npos) << error;
}

// The pre-Volta preset: sm_61, and warps run under the reconvergence stack
// unless --simt says otherwise; the sm_90 preset defaults to ITS.
TEST(GpuPresets, ThePascalPresetRunsTheStackByDefault) {
  GpuConfig c;
  std::string error;
  ASSERT_TRUE(loadPreset("gtx1080", kPresets, c, error)) << error;
  EXPECT_EQ(c.name, "NVIDIA GeForce GTX 1080");
  EXPECT_EQ(c.smVersion, 61u);
  EXPECT_EQ(c.smCount, 20u);
  EXPECT_EQ(c.sharedBytesPerBlockOptin, 49152u);
  EXPECT_EQ(resolveSimtMode(SimtMode::Default, c.smVersion), SimtMode::Stack);
  EXPECT_EQ(resolveSimtMode(SimtMode::Its, c.smVersion), SimtMode::Its);
  GpuConfig h100;
  ASSERT_TRUE(loadPreset("h100", kPresets, h100, error)) << error;
  EXPECT_EQ(resolveSimtMode(SimtMode::Default, h100.smVersion), SimtMode::Its);
  EXPECT_EQ(resolveSimtMode(SimtMode::Stack, h100.smVersion), SimtMode::Stack);
}

// The keys a preset file sets, comments and blank lines dropped.
std::map<std::string, std::string> presetKeys(const std::string& file) {
  std::ifstream in(kPresets + "/" + file);
  std::map<std::string, std::string> keys;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    auto trim = [](std::string t) {
      t.erase(0, t.find_first_not_of(" \t"));
      t.erase(t.find_last_not_of(" \t\r") + 1);
      return t;
    };
    keys[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
  }
  return keys;
}

// The forward-compatibility preset is the H100, key for key, but for its
// name and a compute capability (13.0) newer than any SASS CUDA 13's
// libraries carry, so that they run their PTX.
TEST(GpuPresets, TheForwardPresetIsTheH100WithComputeCapability13) {
  std::map<std::string, std::string> forward = presetKeys("h100_forward.cfg");
  std::map<std::string, std::string> h100 = presetKeys("h100.cfg");
  ASSERT_GT(h100.size(), 40u);
  EXPECT_EQ(forward.at("sm_version"), "130");
  EXPECT_EQ(h100.at("sm_version"), "90");
  for (const char* differing : {"sm_version", "name"}) {
    forward.erase(differing);
    h100.erase(differing);
  }
  EXPECT_EQ(forward, h100);
  GpuConfig c;
  std::string error;
  ASSERT_TRUE(loadPreset("h100_forward", kPresets, c, error)) << error;
  EXPECT_EQ(c.smVersion, 130u);
  EXPECT_EQ(resolveSimtMode(SimtMode::Default, c.smVersion), SimtMode::Its);
}

}  // namespace
}  // namespace ptxsim::sim
