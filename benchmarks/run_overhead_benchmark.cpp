// The cost of `ptxsim run` around the kernels: the wall time of running a
// small nvcc-built program under the simulator (process start, the shim
// loading, reading the fat binary, parsing and preparing the PTX, the
// program's own host work) against the time its kernels spent simulating
// (from the --stats record). Target: under 50 ms of overhead.

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

void runOverhead(benchmark::State& state) {
  const std::string stats = "/tmp/ptxsim_run_overhead_stats.json";
  const std::string command =
      std::string(PTXSIM_CLI) + " run --threads 1 --stats " + stats + " -- " + PTXSIM_SMALL_PROGRAM + " >/dev/null";
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

}  // namespace

BENCHMARK(runOverhead)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK_MAIN();
