#pragma once

// `ptxsim run --timing --trace FILE`: the timed launches on a timeline of
// simulated time, in the Chrome trace-event JSON format (a JSON array of
// events) that Perfetto (ui.perfetto.dev) and chrome://tracing open.
//
// One process, "GPU (device name)", holds:
//  - the track "kernels": one slice per timed launch, its cycles at the
//    preset's SM clock, launches one after another with the preset's launch
//    overhead between them (the model starts every launch at cycle 0);
//  - per SM, a track "SM 3" (thread id 3) with one slice per launch whose
//    args are the SM's warp-cycles by stall reason (stall_reason.h), its
//    issued instructions and active cycles;
//  - per SM, the CTAs resident on it: one slice each, from the cycle its
//    warps may issue to the cycle it finished. Slices on one track must
//    not overlap (the format forbids it, and Perfetto drops such slices),
//    so an SM has one track per residency slot it used, "SM 3 slot 0",
//    "SM 3 slot 1", ...; a CTA takes the lowest free slot of its SM.
// ts and dur are microseconds; every slice also has its cycles in args.
//
// The file is valid JSON after every write: events go in before a closing
// "]" that each write moves on. Events are written at the end of each
// launch (a launch that fails ends too, its unfinished CTAs cut at its
// end) and in between when many are pending, so a process that dies
// mid-launch leaves a trace of what came before.

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/stall_reason.h"

namespace ptxsim::sim {

// A timed launch as the trace shows it.
struct TracedKernel {
  std::string device;            // the process's name: "GPU (device)"
  std::string name;              // the kernel's (mangled) name; shown demangled
  Dim3 grid, block;
  uint64_t launchId = 0;
  uint64_t parentLaunchId = 0;   // a device-side launch's launching grid; 0 for the host's
  uint32_t depth = 0;            // device-side launch depth
  bool cooperative = false;
  uint32_t clockKhz = 1;         // the SM clock: cycles to microseconds
  uint64_t launchOverheadNs = 0; // the gap before the next launch
};

// One SM's counters over a launch (timing/sm_model.h SmCounters).
struct TracedSm {
  uint64_t activeCycles = 0;
  uint64_t warpCyclesResident = 0;
  uint64_t issued = 0;
  std::array<uint64_t, kStallReasons> stallWarpCycles{};
};

// How a launch ended.
struct TracedEnd {
  uint64_t cyclesElapsed = 0;  // gpc__cycles_elapsed.max
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  std::string error;  // empty when the launch completed
};

class TraceRecorder {
 public:
  // A recorder writing to `path` (truncated, an empty array at first);
  // null with `error` set when it cannot be written.
  static std::unique_ptr<TraceRecorder> open(const std::string& path, std::string& error);
  ~TraceRecorder();  // writes what is pending and closes the file
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // The calls of one timed launch, in this order: its start at model cycle
  // `startCycle`; its CTAs' starts and ends on SMs (model cycles, the
  // driver's); each SM's counters; its end.
  void kernelStarted(const TracedKernel& kernel, uint64_t startCycle);
  void ctaStarted(uint32_t sm, uint64_t linearId, uint64_t cycle);
  void ctaFinished(uint32_t sm, uint64_t linearId, uint64_t cycle);
  void smSummary(uint32_t sm, const TracedSm& counters);
  void kernelFinished(const TracedEnd& end);

 private:
  explicit TraceRecorder(std::FILE* file);
  // A resident CTA.
  struct Cta {
    uint32_t sm = 0;
    uint32_t slot = 0;
    uint64_t start = 0;  // model cycle
  };
  double micros(uint64_t timelineCycles) const;
  // Model cycle `cycle` of the current launch on the timeline.
  uint64_t timelineCycle(uint64_t cycle) const { return base_ + (cycle - startCycle_); }
  // The thread ids of an SM's summary track and of its CTA slots' tracks,
  // named when first used.
  uint64_t summaryThread(uint32_t sm);
  uint64_t slotThread(uint32_t sm, uint32_t slot);
  void name(uint64_t tid, const std::string& name, uint64_t sortIndex);
  void writeCta(const Cta& cta, uint64_t linearId, uint64_t endCycle, bool finished);
  void add(const std::string& eventJson);
  // Writes the pending events and the closing bracket.
  void flush();

  std::FILE* file_;
  bool seekable_ = true;
  long closeAt_ = 0;  // where the closing "]" starts
  bool firstEvent_ = true;
  std::string pending_;
  bool processNamed_ = false;
  // Per SM: whether its summary track is named, how many slot tracks are,
  // and which slots are taken now.
  std::vector<bool> summaryNamed_;
  std::vector<uint32_t> slotsNamed_;
  std::vector<std::vector<bool>> slotBusy_;
  // The launch being recorded.
  TracedKernel kernel_;
  std::string shortName_;  // its function name alone
  uint64_t startCycle_ = 0;
  uint64_t base_ = 0;      // its start on the timeline (cycles)
  uint64_t nextBase_ = 0;  // where the next launch starts
  std::unordered_map<uint64_t, Cta> resident_;  // by linear id
  std::vector<std::pair<uint32_t, TracedSm>> sms_;
};

}  // namespace ptxsim::sim
