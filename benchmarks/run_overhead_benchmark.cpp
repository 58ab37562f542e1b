// The cost of `ptxsim run` around the kernels: the wall time of running an
// nvcc-built program under the simulator (process start, the shim loading,
// reading the fat binaries, parsing and preparing the PTX, the program's own
// host work) against the time its kernels spent simulating (from the
// --stats record). A small program (target: under 50 ms of overhead), and a
// cuBLAS SGEMM program on the h100_forward preset (target: start-up within
// 2 s; docs/performance.md).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

double simulationSeconds(const std::string& statsPath) {
  std::ifstream in(statsPath);
  std::string line;
  double total = 0;
  while (std::getline(in, line)) {
    size_t at = line.find("\"ptxsim__simulation_seconds\":");
    if (at != std::string::npos) total += std::stod(line.substr(at + 29));
  }
  return total;
}

// `environment`: variables set for the run ("NAME=value ...", or empty).
void measure(benchmark::State& state, const std::string& program, const std::string& flags,
             const std::string& environment = "") {
  const std::string stats = "/tmp/ptxsim_run_overhead_stats.json";
  const std::string command = "env " + environment + " " + PTXSIM_CLI + " run --threads 1 " + flags + " --stats " +
                              stats + " -- " + program + " >/dev/null";
  double overheadTotal = 0, kernelTotal = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    int status = std::system(command.c_str());
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != 0) {
      state.SkipWithError("the program failed under ptxsim run");
      return;
    }
    double kernels = simulationSeconds(stats);
    state.SetIterationTime(wall);
    overheadTotal += wall - kernels;
    kernelTotal += kernels;
  }
  state.counters["overhead_ms"] = benchmark::Counter(overheadTotal * 1e3 / static_cast<double>(state.iterations()));
  state.counters["kernel_ms"] = benchmark::Counter(kernelTotal * 1e3 / static_cast<double>(state.iterations()));
}

void runOverhead(benchmark::State& state) { measure(state, PTXSIM_SMALL_PROGRAM, ""); }

// cuBLAS's handle and one SGEMM: the library's fat binaries read, and the
// PTX of the kernels it uses parsed and prepared (cold: no compute cache) or
// read back from the compute cache (warm: a cache the first run filled).
void cublasStartup(benchmark::State& state, bool warm) {
  const std::string cache = "/tmp/ptxsim_run_overhead_compute_cache";
  const std::string environment = warm ? "CUDA_CACHE_PATH=" + cache : "CUDA_CACHE_DISABLE=1";
  const std::string fill = "env " + environment + " " + PTXSIM_CLI + " run --config h100_forward -- " +
                           PTXSIM_CUBLAS_PROGRAM + " >/dev/null";
  if (warm && std::system(fill.c_str()) != 0) {
    state.SkipWithError("the program failed under ptxsim run");
    return;
  }
  measure(state, PTXSIM_CUBLAS_PROGRAM, "--config h100_forward", environment);
}

}  // namespace

BENCHMARK(runOverhead)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK_CAPTURE(cublasStartup, cold, false)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_CAPTURE(cublasStartup, warm, true)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_MAIN();
