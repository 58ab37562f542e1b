#pragma once

// `ptxsim run`: runs a program built with `nvcc -cudart shared` with the
// cudart shim in place of the CUDA runtime, passing the simulator's options
// through the environment, and returns the program's exit status.

#include <optional>
#include <string>
#include <vector>

namespace ptxsim::runtime {

struct RunOptions {
  std::string program;
  std::vector<std::string> arguments;
  std::string config;     // --config NAME|FILE
  std::string statsPath;  // --stats FILE
  std::optional<unsigned> threads;
  bool summary = false;  // --summary: one line of statistics on stderr at exit
  std::optional<std::string> logLevel;
  std::string simt;                 // --simt stack|its (default: the preset's)
  std::string itsSchedule;          // --its-schedule converge|round-robin|random|adversarial
  std::optional<uint64_t> seed;     // --seed N
  std::vector<std::string> checks;  // --check warp-sync
  std::string memcheck;             // --memcheck strict|report (default strict)
  bool timing = false;              // --timing: launches on the timing model
  std::string kernelName;           // --kernel-name: only launches of this kernel are timed
  std::optional<uint64_t> launchSkip;   // --launch-skip: of those, the first N run functionally
  std::optional<uint64_t> launchCount;  // --launch-count: then at most N are timed
  std::string cacheControl;         // --cache-control all|none: flush the L2 before each timed launch
  bool noRunAhead = false;          // --no-run-ahead: SMs wait for every window (the same results, slower)
  std::string profileFromStart;     // --profile-from-start on|off (default on)
  std::string tracePath;            // --trace FILE: the timed launches as a Perfetto/Chrome trace
  std::string progress;             // --progress: "on", --no-progress: "off"; empty: long launches only
  std::string runtime;           // --runtime ptxsim|nvidia (default ptxsim)
  std::string shimDirectory;    // where libcuda.so.1 and libcudart.so.13 are (build/lib)
  std::string presetDirectory;  // configs/
};

// Exit status: the program's own, 128+N when a signal N ended it, or 2 when
// it could not be started (the reason printed as "ptxsim: error: ...").
int runProgram(const RunOptions& options);

}  // namespace ptxsim::runtime
