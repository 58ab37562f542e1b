#pragma once

// What a kernel launch takes and what it gives back.

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/sim/kernel_stats.h"
#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/memcheck.h"
#include "ptxsim/sim/simt.h"
#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim {

class TraceRecorder;
struct HostProfile;

// Progress lines of long timed launches on stderr (timing/progress_meter.h):
// never; for launches that run longer than the interval; for every one.
enum class Progress : uint8_t { Off, Auto, On };

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  std::vector<uint8_t> parameters;  // the kernel's parameter buffer, laid out per the ABI
  // cudaLaunchCooperativeKernel: every CTA is resident at once (refused when
  // the grid exceeds what the device holds), the CTAs are interleaved so they
  // may wait for each other (grid.sync()), and %envreg1/%envreg2 give the
  // grid workspace cooperative_groups reads.
  bool cooperative = false;
  // cudaLaunchAttributeClusterDimension: CTAs per thread block cluster;
  // all zeros when the launch names none (the kernel's __cluster_dims__, or
  // clusters of one CTA). The CTAs of a cluster are resident together and
  // share distributed shared memory and barrier.cluster (cluster_shape.h).
  Dim3 cluster{0, 0, 0};
  // cudaFuncAttributeNonPortableClusterSizeAllowed: up to 16 CTAs, not 8.
  bool nonPortableClusterSize = false;
};

struct LaunchOptions {
  unsigned hostThreads = 0;  // 0: every core of the host
  // A launch that executes more warp instructions than this stops with an
  // error instead of running forever (a kernel that never terminates).
  uint64_t maxWarpInstructions = uint64_t{1} << 40;
  // Warp instructions one warp runs before the CTA's next warp gets a turn;
  // smaller values interleave warps more finely (spin-waits between warps
  // need some interleaving to make progress).
  uint32_t warpQuantum = 64;
  // Sees every warp instruction's report (tracing, tests); null for none.
  // The run without one pays nothing for the hook.
  StepObserver* observer = nullptr;
  // How the threads of a warp are scheduled (ptxsim/sim/simt.h); the
  // random ITS schedule draws from `seed`.
  SimtMode simt = SimtMode::Default;
  ItsSchedule itsSchedule = ItsSchedule::Converge;
  uint64_t seed = 0;
  // --check=warp-sync: report intra-warp data races (lanes of one warp
  // that share memory with no __syncwarp, collective or barrier between
  // their accesses) in LaunchResult::warnings. Results do not change.
  bool checkWarpSync = false;
  // --memcheck: fail at the first bad memory access, or report each bad
  // instruction once in LaunchResult::warnings and go on (memcheck.h).
  MemcheckMode memcheck = MemcheckMode::Strict;
  // Run on the timing model (sim/src/timing): the same results, plus
  // simulated cycles in the statistics. One host thread. Only the launches
  // the filter selects (as Nsight Compute's --kernel-name, --launch-skip and
  // --launch-count select launches to profile); the others run functionally.
  bool timing = false;
  // Timing: let an SM run ahead of the others' windows while nothing it
  // does reaches beyond it (sim/src/timing/timing_driver.cpp). The results
  // are the same either way; off, every SM waits for every window.
  bool runAhead = true;
  std::string timingKernelName;
  uint64_t timingLaunchSkip = 0;
  uint64_t timingLaunchCount = UINT64_MAX;
  // Every timed launch starts with an empty L2 (the lines earlier launches
  // left are dropped, written back untimed), as Nsight Compute flushes the
  // caches before each kernel it profiles (--cache-control all): the way to
  // compare with its measurements.
  bool flushCaches = false;
  // Where timed launches are recorded (trace_recorder.h); null for none.
  TraceRecorder* trace = nullptr;
  Progress progress = Progress::Off;
  // Where timed launches add their host time by phase (host_profile.h);
  // null for none. Tuning the host threads, not the results.
  HostProfile* hostProfile = nullptr;
};

// Why a launch failed. The codes map one to one onto the cudaError_t a
// real GPU reports for the same fault.
enum class LaunchErrorKind : uint8_t {
  None,
  InvalidConfiguration,   // cudaErrorInvalidConfiguration
  InvalidValue,           // cudaErrorInvalidValue (bad parameter buffer, unknown kernel)
  OutOfResources,         // cudaErrorLaunchOutOfResources (too much shared memory)
  IllegalAddress,         // cudaErrorIllegalAddress (out of bounds, freed)
  MisalignedAddress,      // cudaErrorMisalignedAddress
  IllegalInstruction,     // cudaErrorIllegalInstruction (bad barrier, brx.idx, .sync mask misuse)
  Trap,                   // cudaErrorLaunchFailure: trap, as an H100 reports it
  InvalidPc,              // cudaErrorInvalidPc: a call through a pointer to no function
  Breakpoint,             // cudaErrorLaunchFailure for brkpt without a debugger
  Assert,                 // cudaErrorAssert
  Unsupported,            // cudaErrorNotSupported: an instruction the simulator lacks
  InvalidPtx,             // cudaErrorInvalidPtx: a kernel lazy loading cannot prepare (module_loading.h)
  Deadlock,               // no warp can make progress (cudaErrorLaunchTimeout on hardware)
  Timeout,                // maxWarpInstructions exceeded (cudaErrorLaunchTimeout)
  StackOverflow,          // call depth or local memory beyond the stack limit
  CooperativeTooLarge,    // cudaErrorCooperativeLaunchTooLarge: the grid cannot be co-resident
  InvalidClusterSize,     // cudaErrorInvalidClusterSize: a cluster shape the launch cannot have
};

struct LaunchError {
  LaunchErrorKind kind = LaunchErrorKind::None;
  std::string message;  // one line: what, kernel, block, thread, PTX line, address
  explicit operator bool() const { return kind != LaunchErrorKind::None; }
};

struct LaunchResult {
  LaunchError error;
  KernelStats stats;
  std::string printfOutput;  // device printf output, in CUDA's order, flushed at synchronisation
  // Diagnostics of the launch's checks ("ptxsim: warp-sync hazard ...",
  // "ptxsim: memcheck: ..."), one line each, sorted; the same whatever the
  // host thread count.
  std::vector<std::string> warnings;
  // The grids the launch's threads launched (dynamic parallelism) and
  // theirs, in the order they ran; each is a launch of its own in the
  // statistics. The launch completes, and its error and printf output
  // include theirs, only when all of them have.
  std::vector<KernelStats> deviceLaunches;
};

}  // namespace ptxsim::sim
