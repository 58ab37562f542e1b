#include "ptxsim/runtime/run_program.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "ptxsim/runtime/program_inspect.h"
#include "ptxsim/sim/gpu_presets.h"

namespace ptxsim::runtime {

namespace {

// The program as execvp would find it, for inspection.
std::string resolve(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return program;
}

void prependPath(const char* variable, const std::string& directory) {
  const char* current = std::getenv(variable);
  std::string value = directory;
  if (current != nullptr && *current != '\0') {
    value += ':';
    value += current;
  }
  setenv(variable, value.c_str(), 1);
}

// Checks before the program runs that the trace file can be written, and
// leaves an empty trace there in case the program never uses the device. A
// file that is not a regular one (a pipe, /dev/stdout) is only opened.
bool startTrace(const std::string& path, std::string& error) {
  std::error_code ec;
  bool regular = !std::filesystem::exists(path, ec) || std::filesystem::is_regular_file(path, ec);
  std::FILE* file = std::fopen(path.c_str(), regular ? "w" : "a");
  if (file == nullptr) {
    error = "cannot write the trace file " + path + ": " + std::strerror(errno);
    return false;
  }
  if (regular) std::fputs("[]\n", file);
  std::fclose(file);
  return true;
}

// Where NVIDIA's libcudart.so.13 is, for --runtime nvidia.
bool nvidiaRuntimeDirectory(std::string& directory) {
  std::vector<std::string> candidates;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    candidates.push_back(std::string(home) + "/lib64");
  }
  candidates.push_back("/usr/local/cuda/lib64");
  for (const std::string& c : candidates) {
    if (std::filesystem::exists(std::filesystem::path(c) / "libcudart.so.13")) {
      directory = c;
      return true;
    }
  }
  return false;
}

}  // namespace

int runProgram(const RunOptions& options) {
  std::string path = resolve(options.program);
  ProgramInfo info;
  std::string error;
  if (!inspectProgram(path, info, error)) {
    std::cerr << "ptxsim: error: " << error << '\n';
    return 2;
  }
  if (info.isElf && !info.usesCuda()) {
    std::cerr << "ptxsim: error: " << options.program
              << " does not use CUDA (no device code, and neither libcudart.so.13 nor libcuda.so.1 among its "
                 "libraries)\n";
    return 2;
  }
  for (const char* library : {"libcuda.so.1", "libcudart.so.13"}) {
    if (!std::filesystem::exists(std::filesystem::path(options.shimDirectory) / library)) {
      std::cerr << "ptxsim: error: " << library << " is missing from " << options.shimDirectory
                << " (build the cudart_shim target)\n";
      return 2;
    }
  }
  std::string nvidiaRuntime;
  if (options.runtime == "nvidia" && !nvidiaRuntimeDirectory(nvidiaRuntime)) {
    std::cerr << "ptxsim: error: --runtime nvidia: NVIDIA's libcudart.so.13 was not found (looked in "
                 "$CUDA_HOME/lib64 and /usr/local/cuda/lib64)\n";
    return 2;
  }
  sim::GpuConfig config;
  if (!sim::loadPreset(options.config, options.presetDirectory, config, error)) {
    std::cerr << "ptxsim: error: " << error << '\n';
    return 2;
  }
  if (!options.tracePath.empty() && !startTrace(options.tracePath, error)) {
    std::cerr << "ptxsim: error: " << error << '\n';
    return 2;
  }
  pid_t child = fork();
  if (child < 0) {
    std::cerr << "ptxsim: error: cannot start " << options.program << ": " << std::strerror(errno) << '\n';
    return 2;
  }
  if (child == 0) {
    prependPath("LD_LIBRARY_PATH", options.shimDirectory);
    // NVIDIA's runtime before ptxsim's stub; the driver it loads is ptxsim's
    // (the toolkit has none outside lib64/stubs).
    if (!nvidiaRuntime.empty()) prependPath("LD_LIBRARY_PATH", nvidiaRuntime);
    if (!options.statsPath.empty()) setenv("PTXSIM_STATS", options.statsPath.c_str(), 1);
    if (!options.config.empty()) setenv("PTXSIM_CONFIG", options.config.c_str(), 1);
    setenv("PTXSIM_PRESET_DIR", options.presetDirectory.c_str(), 1);
    if (options.threads) setenv("PTXSIM_THREADS", std::to_string(*options.threads).c_str(), 1);
    if (options.logLevel) setenv("PTXSIM_LOG", options.logLevel->c_str(), 1);
    if (options.summary) setenv("PTXSIM_SUMMARY", "1", 1);
    if (options.timing) setenv("PTXSIM_TIMING", "1", 1);
    if (!options.kernelName.empty()) setenv("PTXSIM_TIMING_KERNEL", options.kernelName.c_str(), 1);
    if (options.launchSkip) setenv("PTXSIM_TIMING_LAUNCH_SKIP", std::to_string(*options.launchSkip).c_str(), 1);
    if (!options.cacheControl.empty()) setenv("PTXSIM_CACHE_CONTROL", options.cacheControl.c_str(), 1);
    if (options.noRunAhead) setenv("PTXSIM_RUN_AHEAD", "0", 1);
    if (options.launchCount) setenv("PTXSIM_TIMING_LAUNCH_COUNT", std::to_string(*options.launchCount).c_str(), 1);
    if (!options.simt.empty()) setenv("PTXSIM_SIMT", options.simt.c_str(), 1);
    if (!options.itsSchedule.empty()) setenv("PTXSIM_ITS_SCHEDULE", options.itsSchedule.c_str(), 1);
    if (options.seed) setenv("PTXSIM_SEED", std::to_string(*options.seed).c_str(), 1);
    std::string checks;
    for (const std::string& c : options.checks) checks += (checks.empty() ? "" : ",") + c;
    if (!checks.empty()) setenv("PTXSIM_CHECK", checks.c_str(), 1);
    if (!options.memcheck.empty()) setenv("PTXSIM_MEMCHECK", options.memcheck.c_str(), 1);
    if (!options.profileFromStart.empty()) setenv("PTXSIM_PROFILE_FROM_START", options.profileFromStart.c_str(), 1);
    if (!options.tracePath.empty()) setenv("PTXSIM_TRACE", options.tracePath.c_str(), 1);
    if (!options.progress.empty()) setenv("PTXSIM_PROGRESS", options.progress.c_str(), 1);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(options.program.c_str()));
    for (const std::string& a : options.arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(options.program.c_str(), argv.data());
    std::cerr << "ptxsim: error: cannot run " << options.program << ": " << std::strerror(errno) << '\n';
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 2;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 2;
}

}  // namespace ptxsim::runtime
