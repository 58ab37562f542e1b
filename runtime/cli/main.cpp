// The ptxsim command line.

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "ptxsim/runtime/check.h"
#include "ptxsim/runtime/compare/compare_command.h"
#include "ptxsim/runtime/logging.h"
#include "ptxsim/runtime/run_program.h"

namespace {

// `ptxsim run` passes everything after the program on to it, so CLI11 (a
// prefix command) would also let a mistyped option before the program
// through. This walks the arguments up to the program and returns the
// first option `run` does not have, if any.
std::optional<std::string> unknownRunOption(const CLI::App& app, const CLI::App& run, int argc, char** argv) {
  int i = 1;
  bool inRun = false;
  for (; i < argc && !inRun; ++i) {
    std::string arg = argv[i];
    if (arg == run.get_name()) inRun = true;
    else if (const CLI::Option* option = app.get_option_no_throw(arg.substr(0, arg.find('=')));
             option && arg.find('=') == std::string::npos && option->get_items_expected_max() > 0)
      ++i;  // the app's option's value
  }
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--" || arg.empty() || arg[0] != '-') return std::nullopt;  // the program comes next
    std::string name = arg.substr(0, arg.find('='));
    const CLI::Option* option = run.get_option_no_throw(name);
    if (option == nullptr) return name;
    if (arg.find('=') == std::string::npos && option->get_items_expected_max() > 0) ++i;  // its value
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ptxsim: a PTX-level GPU simulator"};
  app.require_subcommand(1);
  std::optional<std::string> logLevel;
  app.add_option("--log-level", logLevel,
                 "trace, debug, info, warn, error or off (default: $PTXSIM_LOG, else warn)");

  std::vector<std::string> checkPaths;
  CLI::App* check = app.add_subcommand("check", "Validate PTX files and summarise them");
  check->add_option("files", checkPaths, "PTX files, or programs built by nvcc")->required();
  ptxsim::runtime::CheckOptions checkOptions;
  check->add_flag("--executable", checkOptions.executable,
                  "Also report every instruction the simulator cannot execute yet");
  check->add_flag("--link", checkOptions.link,
                  "Link the PTX files into one module first (-rdc=true code), and check that");
  check->add_option("--config", checkOptions.config,
                    "GPU preset name or file whose PTX target programs are checked for (default: the sm_90 H100 "
                    "preset)");

  ptxsim::runtime::RunOptions runOptions;
  CLI::App* run = app.add_subcommand("run", "Run a CUDA program on the simulator (any runtime: linked in, shared, or none)");
  run->add_option("--config", runOptions.config, "GPU preset name or file (default: the sm_90 H100 preset)");
  run->add_option("--stats", runOptions.statsPath, "Write one JSON statistics record per kernel launch to FILE");
  run->add_option("--threads", runOptions.threads, "Host threads that run CTAs (default: all cores)");
  run->add_flag("--summary", runOptions.summary, "Print a one-line statistics summary on stderr at exit");
  CLI::Option* timing = run->add_flag(
      "--timing", runOptions.timing,
      "Run launches on the timing model: the same results, plus simulated cycles in --stats "
      "(work in progress: see the README's timing section)");
  run->add_option("--kernel-name", runOptions.kernelName,
                  "With --timing: time only launches of this kernel (mangled or demangled name, or the "
                  "function name alone), as Nsight Compute's option")
      ->needs(timing);
  run->add_option("--launch-skip", runOptions.launchSkip,
                  "With --timing: run the first N matching launches functionally")
      ->needs(timing);
  run->add_option("--launch-count", runOptions.launchCount,
                  "With --timing: time at most N matching launches (after the skipped ones)")
      ->needs(timing);
  run->add_option("--cache-control", runOptions.cacheControl,
                  "With --timing: `all` starts every timed launch with an empty L2, as Nsight Compute's "
                  "default --cache-control all does; `none` (the default) keeps what earlier launches left")
      ->check(CLI::IsMember({"all", "none"}))
      ->needs(timing);
  run->add_flag("--no-run-ahead", runOptions.noRunAhead,
                "With --timing: every SM waits for every synchronisation window, even while nothing it runs "
                "reaches beyond it (the same results and statistics, on more host time)")
      ->needs(timing);
  run->add_option("--trace", runOptions.tracePath,
                  "With --timing: write the timed launches to FILE as a trace (Chrome trace-event JSON: kernels, "
                  "the CTAs on each SM and each SM's stall reasons over simulated time); open it in "
                  "ui.perfetto.dev or chrome://tracing")
      ->type_name("FILE")
      ->needs(timing);
  bool progress = false, noProgress = false;
  CLI::Option* progressFlag = run->add_flag(
      "--progress", progress,
      "Print a progress line on stderr at the end of every timed launch, and every 2 s during long ones "
      "(by default only launches that run longer than 2 s print them)");
  run->add_flag("--no-progress", noProgress, "Print no progress lines")->excludes(progressFlag);
  run->add_option("--simt", runOptions.simt,
                  "stack (pre-Volta reconvergence stack) or its (independent thread scheduling); default: "
                  "the preset's (its from sm_70)")
      ->check(CLI::IsMember({"stack", "its"}));
  run->add_option("--its-schedule", runOptions.itsSchedule,
                  "Which diverged threads run under --simt=its: converge (default), round-robin, random, "
                  "adversarial")
      ->check(CLI::IsMember({"converge", "round-robin", "random", "adversarial"}));
  run->add_option("--seed", runOptions.seed, "Seed of the random ITS schedule (default 0)");
  run->add_option("--check", runOptions.checks, "Checks to run: warp-sync (intra-warp data races)")
      ->check(CLI::IsMember({"warp-sync"}))
      ->delimiter(',');
  run->add_option(
         "--memcheck", runOptions.memcheck,
         "strict (default): a kernel's access outside device memory fails the launch "
         "(cudaErrorIllegalAddress); report: report the first bad access of each instruction on stderr "
         "and go on, bad reads returning zeros and bad writes dropped")
      ->check(CLI::IsMember({"strict", "report"}));
  run->add_option("--profile-from-start", runOptions.profileFromStart,
                  "on (default): every launch counts in --stats and --summary; off: only launches between "
                  "cudaProfilerStart and cudaProfilerStop (as Nsight Compute's option)")
      ->check(CLI::IsMember({"on", "off"}));
  run->add_option("--runtime", runOptions.runtime,
                  "ptxsim (default): programs that load the CUDA runtime get ptxsim's; nvidia: they get NVIDIA's "
                  "libcudart.so.13 from the CUDA toolkit, over ptxsim's driver (libcuda.so.1). Programs with the "
                  "runtime linked in always use their own, over ptxsim's driver")
      ->check(CLI::IsMember({"ptxsim", "nvidia"}));
  run->add_option("program", runOptions.program, "The program")->required();
  run->prefix_command();  // everything after the program is its own arguments

  ptxsim::runtime::compare::CompareOptions compareOptions;
  CLI::App* compare =
      app.add_subcommand("compare", "Compare Nsight Compute measurements with ptxsim run --stats, launch by launch");
  compare->add_option("--ncu", compareOptions.ncuCsv,
                      "Nsight Compute CSV (ncu --csv --print-units base --metrics ...)")
      ->required();
  compare->add_option("--stats", compareOptions.statsJsonl, "Statistics of ptxsim run --timing --stats")->required();
  compare->add_option("--html", compareOptions.html, "Also write one self-contained page of charts to FILE");
  compare->add_option("--metrics", compareOptions.metrics, "Metrics to compare (default: every one in both files)")
      ->delimiter(',');
  compare->add_option("--check", compareOptions.checks,
                      "Fail (exit status 1) unless METRIC:mape<=X, METRIC:corr>=X, METRIC:max_error<=X or "
                      "METRIC:max_points<=X holds; repeatable");
  compare->add_option("--background", compareOptions.background,
                      "Compare what each launch adds to this idle one (NAME or 'NAME #N', recorded on both sides): "
                      "its L2 and DRAM counters (lts__*.sum, dram__*.sum) are subtracted from every other launch's");

  CLI11_PARSE(app, argc, argv);
  if (run->parsed()) {
    if (std::optional<std::string> unknown = unknownRunOption(app, *run, argc, argv)) {
      std::cerr << "ptxsim: error: unknown option '" << *unknown << "' for ptxsim run (ptxsim run --help lists them)\n";
      return 2;
    }
  }
  if (!ptxsim::runtime::configureLogging(logLevel)) {
    std::cerr << "ptxsim: error: unknown log level '"
              << logLevel.value_or(std::getenv("PTXSIM_LOG") != nullptr ? std::getenv("PTXSIM_LOG") : "")
              << "' (use trace, debug, info, warn, error or off)\n";
    return 2;
  }
  if (compare->parsed()) return ptxsim::runtime::compare::runCompare(compareOptions, std::cout, std::cerr);
  if (check->parsed()) {
    checkOptions.presetDirectory = PTXSIM_PRESET_DIR;
    return ptxsim::runtime::checkFiles(checkPaths, std::cout, std::cerr, checkOptions);
  }
  if (run->parsed()) {
    runOptions.logLevel = logLevel;
    if (progress) runOptions.progress = "on";
    if (noProgress) runOptions.progress = "off";
    runOptions.arguments = run->remaining();
    // CLI11 hands on the `--` that separated ptxsim's options from the program.
    if (!runOptions.arguments.empty() && runOptions.arguments.front() == "--") {
      runOptions.arguments.erase(runOptions.arguments.begin());
    }
    // The shim is built next to the CLI: build/bin/ptxsim, build/lib/libcudart.so.13.
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
    runOptions.shimDirectory = (self.parent_path().parent_path() / "lib").string();
    runOptions.presetDirectory = PTXSIM_PRESET_DIR;
    return ptxsim::runtime::runProgram(runOptions);
  }
  return 0;
}
