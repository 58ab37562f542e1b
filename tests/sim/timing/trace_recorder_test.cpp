// The trace recorder (ptxsim/sim/trace_recorder.h) alone: launches and CTAs
// fed by hand, the file parsed back, every slice's track, ts and dur
// against values derived by hand from the cycles at a 1 GHz clock (a
// cycle is 0.001 us) with a 100 ns launch overhead (100 cycles).
#include "ptxsim/sim/trace_recorder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ptxsim::sim {
namespace {

using nlohmann::json;

constexpr uint64_t kKernels = 1'000'000'000;  // the kernels' track
constexpr uint64_t kSlot = 100'000;           // an SM's slot s is (s + 1) * kSlot + sm

std::string tracePath(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("ptxsim_trace_") + name + ".json")).string();
}

json readTrace(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());  // throws unless the file is one JSON value
}

TracedKernel kernel(uint64_t launchId, Dim3 grid) {
  TracedKernel k;
  k.device = "Test GPU";
  k.name = "_Z9vectorAddPKfS0_Pfi";
  k.grid = grid;
  k.block = {64, 1, 1};
  k.launchId = launchId;
  k.clockKhz = 1'000'000;
  k.launchOverheadNs = 100;
  return k;
}

// The events of phase `ph` and category `cat` (any when empty).
std::vector<json> events(const json& trace, const std::string& ph, const std::string& cat = "") {
  std::vector<json> out;
  for (const json& e : trace) {
    if (e["ph"] == ph && (cat.empty() || e.value("cat", "") == cat)) out.push_back(e);
  }
  return out;
}

std::map<uint64_t, std::string> threadNames(const json& trace) {
  std::map<uint64_t, std::string> names;
  for (const json& e : events(trace, "M")) {
    if (e["name"] == "thread_name") names[e["tid"].get<uint64_t>()] = e["args"]["name"];
  }
  return names;
}

TEST(TraceRecorder, LaunchesFollowEachOtherAndCtasTakeTheLowestFreeSlotOfTheirSm) {
  std::string path = tracePath("launches");
  std::string error;
  auto recorder = TraceRecorder::open(path, error);
  ASSERT_NE(recorder, nullptr) << error;

  // Launch 1: grid 3x2; SM 0 holds CTAs 0 and 1 from cycle 0, CTA 3 takes
  // CTA 0's slot when it ends; SM 1 holds CTA 2. SM 2 stays idle.
  recorder->kernelStarted(kernel(1, {3, 2, 1}), 0);
  recorder->ctaStarted(0, 0, 0);
  recorder->ctaStarted(0, 1, 0);
  recorder->ctaStarted(1, 2, 0);
  recorder->ctaFinished(0, 0, 500);
  recorder->ctaStarted(0, 3, 829);
  recorder->ctaFinished(1, 2, 700);
  recorder->ctaFinished(0, 1, 900);
  recorder->ctaFinished(0, 3, 1500);
  TracedSm sm0{1500, 2400, 300, {}};
  sm0.stallWarpCycles[static_cast<size_t>(StallReason::Selected)] = 300;
  sm0.stallWarpCycles[static_cast<size_t>(StallReason::LongScoreboard)] = 2000;
  sm0.stallWarpCycles[static_cast<size_t>(StallReason::NoInstruction)] = 100;
  recorder->smSummary(0, sm0);
  recorder->smSummary(1, TracedSm{700, 700, 50, {}});
  recorder->smSummary(2, TracedSm{});
  recorder->kernelFinished({1501, 1000, 32000, ""});

  // Launch 2, a device-side launch of launch 1: one CTA on SM 5. It starts
  // after launch 1's 1501 cycles and the 100-cycle overhead.
  TracedKernel child = kernel(2, {1, 1, 1});
  child.parentLaunchId = 1;
  child.depth = 1;
  recorder->kernelStarted(child, 0);
  recorder->ctaStarted(5, 0, 0);
  recorder->ctaFinished(5, 0, 99);
  recorder->smSummary(5, TracedSm{100, 100, 10, {}});
  recorder->kernelFinished({100, 10, 320, ""});

  // Written at each launch's end: the file parses while the recorder lives.
  json trace = readTrace(path);
  std::vector<json> kernels = events(trace, "X", "kernel");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]["name"], "vectorAdd(float const*, float const*, float*, int)");
  EXPECT_EQ(kernels[0]["tid"], kKernels);
  EXPECT_EQ(kernels[0]["ts"].get<double>(), 0.0);
  EXPECT_EQ(kernels[0]["dur"].get<double>(), 1.501);
  EXPECT_EQ(kernels[0]["args"]["cycles"], 1501);
  EXPECT_EQ(kernels[0]["args"]["start_cycle"], 0);
  EXPECT_EQ(kernels[0]["args"]["grid"], json::array({3, 2, 1}));
  EXPECT_EQ(kernels[0]["args"]["block"], json::array({64, 1, 1}));
  EXPECT_EQ(kernels[0]["args"]["launch_id"], 1);
  EXPECT_EQ(kernels[0]["args"]["warp_instructions"], 1000);
  EXPECT_EQ(kernels[0]["args"]["thread_instructions"], 32000);
  EXPECT_FALSE(kernels[0]["args"].contains("parent_launch_id"));
  EXPECT_EQ(kernels[1]["ts"].get<double>(), 1.601);
  EXPECT_EQ(kernels[1]["dur"].get<double>(), 0.1);
  EXPECT_EQ(kernels[1]["args"]["start_cycle"], 1601);
  EXPECT_EQ(kernels[1]["args"]["parent_launch_id"], 1);
  EXPECT_EQ(kernels[1]["args"]["depth"], 1);

  // CTAs, in the order they ended: track, name, ts, dur, cycles.
  std::vector<json> ctas = events(trace, "X", "cta");
  ASSERT_EQ(ctas.size(), 5u);
  struct Expected {
    uint64_t tid;
    const char* name;
    uint64_t linearId, startCycle, cycles;
    double ts, dur;
  };
  const Expected expected[] = {
      {0 * kSlot + kSlot, "block (0,0,0)", 0, 0, 500, 0.0, 0.5},        // SM 0 slot 0
      {1 * kSlot + 1, "block (2,0,0)", 2, 0, 700, 0.0, 0.7},            // SM 1 slot 0
      {2 * kSlot + 0, "block (1,0,0)", 1, 0, 900, 0.0, 0.9},            // SM 0 slot 1
      {1 * kSlot + 0, "block (0,1,0)", 3, 829, 671, 0.829, 0.671},      // SM 0 slot 0 again
      {1 * kSlot + 5, "block (0,0,0)", 0, 1601, 99, 1.601, 0.099},      // launch 2, SM 5
  };
  for (size_t i = 0; i < ctas.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ctas[i]["tid"], expected[i].tid);
    EXPECT_EQ(ctas[i]["name"], expected[i].name);
    EXPECT_EQ(ctas[i]["args"]["linear_id"], expected[i].linearId);
    EXPECT_EQ(ctas[i]["args"]["start_cycle"], expected[i].startCycle);
    EXPECT_EQ(ctas[i]["args"]["cycles"], expected[i].cycles);
    EXPECT_EQ(ctas[i]["args"]["kernel"], "vectorAdd");
    EXPECT_EQ(ctas[i]["ts"].get<double>(), expected[i].ts);
    EXPECT_EQ(ctas[i]["dur"].get<double>(), expected[i].dur);
    EXPECT_FALSE(ctas[i]["args"].contains("unfinished"));
  }

  // Per SM and launch, the stall summary on the SM's own track (thread id =
  // SM index); none for the idle SM 2.
  std::vector<json> sms = events(trace, "X", "sm");
  ASSERT_EQ(sms.size(), 3u);
  EXPECT_EQ(sms[0]["tid"], 0);
  EXPECT_EQ(sms[0]["name"], "vectorAdd");
  EXPECT_EQ(sms[0]["ts"].get<double>(), 0.0);
  EXPECT_EQ(sms[0]["dur"].get<double>(), 1.501);
  const json& stalls = sms[0]["args"]["stall_warp_cycles"];
  EXPECT_EQ(stalls.size(), kStallReasons);
  EXPECT_EQ(stalls["selected"], 300);
  EXPECT_EQ(stalls["long_scoreboard"], 2000);
  EXPECT_EQ(stalls["no_instruction"], 100);
  EXPECT_EQ(stalls["barrier"], 0);
  EXPECT_EQ(sms[0]["args"]["instructions_issued"], 300);
  EXPECT_EQ(sms[0]["args"]["active_cycles"], 1500);
  EXPECT_EQ(sms[1]["tid"], 1);
  EXPECT_EQ(sms[2]["tid"], 5);
  EXPECT_EQ(sms[2]["ts"].get<double>(), 1.601);

  // Every track named once; the process after the device.
  std::map<uint64_t, std::string> names = threadNames(trace);
  EXPECT_EQ(names, (std::map<uint64_t, std::string>{{kKernels, "kernels"},
                                                    {0, "SM 0"},
                                                    {1, "SM 1"},
                                                    {5, "SM 5"},
                                                    {kSlot + 0, "SM 0 slot 0"},
                                                    {2 * kSlot + 0, "SM 0 slot 1"},
                                                    {kSlot + 1, "SM 1 slot 0"},
                                                    {kSlot + 5, "SM 5 slot 0"}}));
  size_t nameEvents = 0;
  for (const json& e : events(trace, "M")) nameEvents += e["name"] == "thread_name";
  EXPECT_EQ(nameEvents, names.size());
  std::vector<json> meta = events(trace, "M");
  ASSERT_FALSE(meta.empty());
  EXPECT_EQ(meta[0]["name"], "process_name");
  EXPECT_EQ(meta[0]["args"]["name"], "GPU (Test GPU)");
  recorder.reset();
  EXPECT_EQ(readTrace(path), trace);  // closing adds nothing more
  std::filesystem::remove(path);
}

TEST(TraceRecorder, AFailedLaunchEndsItsResidentCtasWithItAndTheFileStaysValid) {
  std::string path = tracePath("failed");
  std::string error;
  auto recorder = TraceRecorder::open(path, error);
  ASSERT_NE(recorder, nullptr) << error;
  EXPECT_EQ(readTrace(path), json::array());  // an empty trace before any launch

  recorder->kernelStarted(kernel(7, {2, 1, 1}), 0);
  recorder->ctaStarted(0, 0, 0);
  recorder->ctaStarted(1, 1, 0);
  recorder->ctaFinished(0, 0, 40);
  EXPECT_NO_THROW(readTrace(path));  // mid-launch, still one JSON array
  recorder->smSummary(0, TracedSm{41, 41, 5, {}});
  recorder->smSummary(1, TracedSm{60, 60, 6, {}});
  recorder->kernelFinished({60, 11, 352, "trap in block (1,0,0)"});

  json trace = readTrace(path);
  std::vector<json> kernels = events(trace, "X", "kernel");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0]["args"]["error"], "trap in block (1,0,0)");
  std::vector<json> ctas = events(trace, "X", "cta");
  ASSERT_EQ(ctas.size(), 2u);
  EXPECT_EQ(ctas[1]["name"], "block (1,0,0)");
  EXPECT_EQ(ctas[1]["args"]["unfinished"], true);
  EXPECT_EQ(ctas[1]["args"]["cycles"], 60);  // to the launch's end
  EXPECT_EQ(ctas[1]["dur"].get<double>(), 0.06);
  std::filesystem::remove(path);
}

TEST(TraceRecorder, AnUnwritablePathIsRefusedNamingIt) {
  std::string error;
  auto recorder = TraceRecorder::open("/nonexistent-directory/trace.json", error);
  EXPECT_EQ(recorder, nullptr);
  EXPECT_NE(error.find("cannot write the trace file /nonexistent-directory/trace.json"), std::string::npos) << error;
}

}  // namespace
}  // namespace ptxsim::sim
