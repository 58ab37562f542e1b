// Simulation throughput on the project's end-to-end CUDA kernels
// (tests/cuda/e2e, compiled to PTX): simulated thread instructions and warp
// instructions per second of host wall time, on one host thread and on
// every core (the `threads` argument: 1, or 0 for all), functionally or on
// the timing model (`timing` 1: then also simulated cycles per second; the
// SMs advance on the host threads in windows, timing_driver.cpp). Module loading and
// input setup happen once, outside the timed loop; each iteration is one
// complete kernel run (three launches for the whole-array scan), after one
// untimed run on the same device (kernelThroughput).
//
// With PTXSIM_BENCH_HOST_PROFILE=1 in the environment, timed runs also
// report where the host time goes by phase of the timing driver's windows
// (ptxsim/sim/host_profile.h: the hp_* counters, seconds per iteration, and
// the efficiency predicted for 2 to 16 host threads from the run measured);
// the profiling's clock reads slow the run a little, so the throughput
// figures of a profiled run are not the ones to quote. With
// PTXSIM_BENCH_RUN_AHEAD=0, timed runs keep every SM to every window.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"
#include "ptxsim/sim/host_profile.h"

namespace {

using ptxsim::Device;
using ptxsim::DeviceOptions;
using ptxsim::KernelArgs;
using ptxsim::sim::Dim3;
using ptxsim::sim::HostProfile;
using ptxsim::sim::LaunchResult;
using ptxsim::sim::LoadedModule;

// The build's PTX, or PTXSIM_CUDA_PTX_DIR's where the binary runs on
// another machine (scripts/device_host_threads.sh).
std::string ptxPath(const std::string& program) {
  const char* moved = std::getenv("PTXSIM_CUDA_PTX_DIR");
  return std::string(moved != nullptr ? moved : PTXSIM_CUDA_PTX_DIR) + "/e2e/" + program + ".ptx";
}

uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <typename T>
std::vector<T> randomValues(size_t n, uint32_t seed, T lo, T hi) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (T& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<uint64_t> dist(lo, hi);
    for (T& x : v) x = static_cast<T>(dist(rng));
  }
  return v;
}

// One kernel run: the launches it makes, their statistics summed. `reset`
// (optional) restores inputs that a run overwrites, outside the timing.
struct Run {
  std::function<std::vector<LaunchResult>()> launch;
  std::function<void()> reset;
};

// A workload sets up its inputs on the device and returns its run.
using Workload = std::function<Run(Device&, LoadedModule&)>;

LaunchResult launchOnce(Device& device, LoadedModule& module, const char* kernel, Dim3 grid, Dim3 block,
                        uint32_t shared, const KernelArgs& args) {
  return device.launch(module, kernel, grid, block, shared, args);
}

Run single(Device& device, LoadedModule& module, const char* kernel, Dim3 grid, Dim3 block, uint32_t shared,
           KernelArgs args) {
  Run run;
  run.launch = [&device, &module, kernel, grid, block, shared, args] {
    return std::vector<LaunchResult>{launchOnce(device, module, kernel, grid, block, shared, args)};
  };
  return run;
}

Run vectorAdd(Device& device, LoadedModule& module) {
  const int n = 1 << 20;
  uint64_t a = device.upload(randomValues<float>(n, 1, -1, 1)),
           b = device.upload(randomValues<float>(n, 2, -1, 1));
  uint64_t c = device.malloc(n * 4);
  return single(device, module, "vector_add", {ceilDiv(n, 256)}, {256}, 0,
                KernelArgs().add(a).add(b).add(c).add(n));
}

Run reduceF32(Device& device, LoadedModule& module) {
  const int n = 1 << 22;
  uint64_t in = device.upload(randomValues<float>(n, 3, -1, 1)), out = device.malloc(256 * 4);
  return single(device, module, "reduce_f32", {256}, {256}, 0, KernelArgs().add(in).add(out).add(n));
}

Run sgemm(Device& device, LoadedModule& module) {
  const int size = 256;
  uint64_t A = device.upload(randomValues<float>(size * size, 5, -1, 1));
  uint64_t B = device.upload(randomValues<float>(size * size, 6, -1, 1));
  uint64_t C = device.malloc(size * size * 4);
  return single(device, module, "sgemm_tiled", {size / 16, size / 16}, {16, 16}, 0,
                KernelArgs().add(A).add(B).add(C).add(size).add(size).add(size));
}

Run transpose(Device& device, LoadedModule& module) {
  const int size = 1024;
  uint64_t in = device.upload(randomValues<float>(size * size, 7, -1, 1)),
           out = device.malloc(size * size * 4);
  return single(device, module, "transpose", {size / 32, size / 32}, {32, 8}, 0,
                KernelArgs().add(in).add(out).add(size).add(size));
}

Run histogram(Device& device, LoadedModule& module) {
  const int n = 1 << 22;
  uint64_t data = device.upload(randomValues<uint8_t>(n, 8, 0, 255)), bins = device.malloc(256 * 4);
  device.memset(bins, 0, 256 * 4);
  return single(device, module, "histogram256", {128}, {256}, 0, KernelArgs().add(data).add(bins).add(n));
}

Run scan(Device& device, LoadedModule& module) {
  const int n = 1 << 20;
  const uint32_t block = 512, width = 2 * block, blocks = n / width;  // 1024 block sums
  uint64_t in = device.upload(randomValues<uint32_t>(n, 9, 0, 1000)), out = device.malloc(n * 4);
  uint64_t sums = device.malloc(blocks * 4), offsets = device.malloc(blocks * 4);
  Run run;
  run.launch = [&device, &module, n, in, out, sums, offsets] {
    std::vector<LaunchResult> results;
    results.push_back(launchOnce(device, module, "scan_blocks", {blocks}, {block}, width * 4,
                                 KernelArgs().add(in).add(out).add(sums).add(n)));
    results.push_back(launchOnce(device, module, "scan_blocks", {1}, {blocks / 2}, blocks * 4,
                                 KernelArgs().add(sums).add(offsets).add(uint64_t{0}).add(int(blocks))));
    results.push_back(launchOnce(device, module, "add_offsets", {n / block}, {block}, 0,
                                 KernelArgs().add(out).add(offsets).add(n)));
    return results;
  };
  return run;
}

Run bitonic(Device& device, LoadedModule& module) {
  const uint32_t block = 1024, blocks = 256;
  std::vector<uint32_t> keys = randomValues<uint32_t>(size_t{block} * blocks, 10, 0, 0xffffffffu);
  uint64_t dkeys = device.upload(keys);
  Run run = single(device, module, "bitonic_sort", {blocks}, {block}, block * 4, KernelArgs().add(dkeys));
  run.reset = [&device, dkeys, keys] { device.write(dkeys, keys); };  // the sort works in place
  return run;
}

Run nbody(Device& device, LoadedModule& module) {
  const int n = 2048;
  const uint32_t block = 128;  // 16 CTAs: enough for 16 host threads
  std::vector<float> pos = randomValues<float>(n * 4, 11, -1, 1), vel = randomValues<float>(n * 4, 12, -1, 1);
  for (int i = 0; i < n; ++i) pos[i * 4 + 3] = 1.0f;  // unit masses
  uint64_t dpos = device.upload(pos), dvel = device.upload(vel), newPos = device.malloc(n * 16),
           newVel = device.malloc(n * 16);
  return single(device, module, "nbody_step", {n / block}, {block}, block * 16,
                KernelArgs().add(dpos).add(dvel).add(newPos).add(newVel).add(n).add(0.01f).add(0.01f));
}

Run halfAxpy(Device& device, LoadedModule& module) {
  const int n = 1 << 20;  // half2 pairs, each half in [0.125, 0.5]
  uint64_t x = device.upload(randomValues<uint16_t>(2 * n, 13, 0x3000, 0x3800));
  uint64_t y = device.upload(randomValues<uint16_t>(2 * n, 14, 0x3000, 0x3800));
  const uint32_t a = 0x3c003c00u;  // (1.0, 1.0)
  return single(device, module, "h2_axpy", {ceilDiv(n, 256)}, {256}, 0,
                KernelArgs().add(a).add(x).add(y).add(n));
}

void reportHostProfile(benchmark::State& state, const HostProfile& p) {
  using benchmark::Counter;
  auto perIteration = [&](const std::string& name, double value) {
    state.counters[name] = Counter(value, Counter::kAvgIterations);
  };
  perIteration("hp_windows", static_cast<double>(p.smWindows.runs));
  state.counters["hp_sms_per_window"] =
      p.smWindows.runs != 0 ? static_cast<double>(p.smWindows.items) / static_cast<double>(p.smWindows.runs)
                            : 0;
  perIteration("hp_build_s", p.smBuilds.seconds);
  perIteration("hp_sm_s", p.smWindows.seconds);
  perIteration("hp_longest_sm_s", p.smWindows.longestSeconds);
  perIteration("hp_end_s", p.smEnds.seconds);
  perIteration("hp_phase_a_s", p.phaseASeconds);
  perIteration("hp_build_wall_s", p.buildWallSeconds);
  perIteration("hp_end_wall_s", p.endWallSeconds);
  perIteration("hp_place_s", p.placeSeconds);
  perIteration("hp_schedule_s", p.scheduleSeconds);
  perIteration("hp_overlay_s", p.overlaySeconds + p.overlaySharedSeconds);
  perIteration("hp_overlay_shared_s", p.overlaySharedSeconds);
  perIteration("hp_deferred_s", p.deferredSeconds);
  perIteration("hp_l2_s", p.l2Seconds);
  perIteration("hp_l2_dram_s", p.l2DramSeconds);
  perIteration("hp_slices_s", p.sliceSteps.seconds);
  perIteration("hp_slices_wall_s", p.sliceStepsWallSeconds);
  perIteration("hp_slices_gather_s", p.sliceGatherSeconds);
  perIteration("hp_slices_dealt_s@16", p.sliceSteps.dealtSeconds.back());
  perIteration("hp_slices_bound_s@16", p.sliceSteps.boundSeconds.back());
  perIteration("hp_retire_s", p.retireSeconds);
  perIteration("hp_check_s", p.checkSeconds);
  perIteration("hp_finish_s", p.finishSeconds);
  perIteration("hp_ahead_runs", static_cast<double>(p.aheadRuns));
  perIteration("hp_ahead_s", p.aheadSeconds);
  perIteration("hp_ahead_wait_wall_s", p.aheadWaitWallSeconds);
  perIteration("hp_ahead_most_sm_s", p.aheadMostSmSeconds);
  perIteration("hp_ahead_least_sm_s", p.aheadLeastSmSeconds);
  perIteration("hp_serial_s", p.serialSeconds());
  perIteration("hp_parallel_s", p.parallelSeconds());
  for (size_t i = 0; i < HostProfile::kPredictedThreads.size(); ++i) {
    const std::string threads = std::to_string(HostProfile::kPredictedThreads[i]);
    perIteration("hp_predicted_s@" + threads, p.predictedSeconds(i));
    perIteration("hp_window_dealt_s@" + threads, p.smWindows.dealtSeconds[i]);
    perIteration("hp_window_longest_first_s@" + threads, p.smWindows.longestFirstSeconds[i]);
    perIteration("hp_window_bound_s@" + threads, p.smWindows.boundSeconds[i]);
    state.counters["hp_eff@" + threads] = p.predictedEfficiency(i);
  }
}

void kernelThroughput(benchmark::State& state, const char* program, Workload workload) {
  auto threads = static_cast<unsigned>(state.range(0));
  // PTXSIM_BENCH_EVERY_CORE=N: "every core" (threads 0) means N host
  // threads, to try counts other than the machine's.
  if (const char* every = std::getenv("PTXSIM_BENCH_EVERY_CORE"); threads == 0 && every != nullptr)
    threads = static_cast<unsigned>(std::strtoul(every, nullptr, 10));
  // PTXSIM_BENCH_SYNC_WINDOW=N: timed runs in windows of N cycles
  // (gpu.sync_window) instead of the preset's, to see what the windows cost.
  ptxsim::sim::GpuConfig config;
  if (const char* window = std::getenv("PTXSIM_BENCH_SYNC_WINDOW"); window != nullptr) {
    config.timing.syncWindowCycles = static_cast<uint32_t>(std::strtoul(window, nullptr, 10));
    if (config.timing.syncWindowCycles == 0) {
      state.SkipWithError("PTXSIM_BENCH_SYNC_WINDOW must be a positive number of cycles");
      return;
    }
  }
  Device device(config, DeviceOptions{threads});
  device.launchOptions().simt =
      state.range(1) == 0 ? ptxsim::sim::SimtMode::Stack : ptxsim::sim::SimtMode::Its;
  device.launchOptions().timing = state.range(2) != 0;
  std::shared_ptr<LoadedModule> module;
  try {
    module = device.loadModuleFile(ptxPath(program));
  } catch (const ptxsim::Error& e) {
    std::string message = e.what();
    state.SkipWithError(message.substr(0, message.find('\n')).c_str());
    return;
  }
  Run run = workload(device, *module);
  // One untimed run first, on one host thread as on many: a device's first
  // launch builds its L2 and its SMs' caches, an SM's first CTAs their
  // frames (later launches reuse them: KeptState), and the process's first
  // MUFU instruction decodes its table. Google Benchmark's own warm-up
  // (MinWarmUpTime) would run this function again, with a device of its
  // own, so it could not warm this one.
  if (run.reset) run.reset();
  for (const LaunchResult& result : run.launch()) {
    if (result.error) {
      state.SkipWithError(result.error.message.c_str());
      return;
    }
  }
  // PTXSIM_BENCH_RUN_AHEAD=0: every SM waits for every window (LaunchOptions::runAhead), to see what
  // running ahead gives.
  const char* runAhead = std::getenv("PTXSIM_BENCH_RUN_AHEAD");
  device.launchOptions().runAhead = runAhead == nullptr || std::string(runAhead) != "0";
  HostProfile profile;
  const char* profiling = std::getenv("PTXSIM_BENCH_HOST_PROFILE");
  if (state.range(2) != 0 && profiling != nullptr && std::string(profiling) == "1")
    device.launchOptions().hostProfile = &profile;
  uint64_t threadInstructions = 0, warpInstructions = 0, cycles = 0;
  unsigned hostThreads = 0;
  for (auto _ : state) {
    if (run.reset) {
      state.PauseTiming();
      run.reset();
      state.ResumeTiming();
    }
    for (const LaunchResult& result : run.launch()) {
      if (result.error) {
        state.SkipWithError(result.error.message.c_str());
        return;
      }
      threadInstructions += result.stats.threadInstructions;
      warpInstructions += result.stats.warpInstructions;
      cycles += result.stats.timing.cyclesElapsed;
      hostThreads = result.stats.hostThreads;
    }
  }
  using benchmark::Counter;
  state.counters["thread_inst/s"] = Counter(static_cast<double>(threadInstructions), Counter::kIsRate);
  state.counters["warp_inst/s"] = Counter(static_cast<double>(warpInstructions), Counter::kIsRate);
  state.counters["host_threads"] = hostThreads;
  if (state.range(2) != 0)
    state.counters["sim_cycles/s"] = Counter(static_cast<double>(cycles), Counter::kIsRate);
  if (device.launchOptions().hostProfile != nullptr) reportHostProfile(state, profile);
}

// Wall time, not the main thread's CPU time: the simulation runs on worker
// threads. Arguments: host threads (1, or 0 for every core) and the SIMT
// model (0: the reconvergence stack, 1: independent thread scheduling with
// the converge schedule, the sm_90 default), so the cost of ITS shows;
// then the timing model (1) or not (0), on 1, 2, 4, 8 host threads and on
// every core (its speed-up over the SMs: scripts/device_host_threads.sh).
void configure(benchmark::internal::Benchmark* b) {
  b->ArgNames({"threads", "simt", "timing"})
      ->Args({1, 1, 0})
      ->Args({1, 0, 0})
      ->Args({0, 1, 0})
      ->Args({1, 1, 1})
      ->Args({2, 1, 1})
      ->Args({4, 1, 1})
      ->Args({8, 1, 1})
      ->Args({0, 1, 1});
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(kernelThroughput, vector_add_1M, "vector_add", vectorAdd)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, reduce_f32_4M, "reduction", reduceF32)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, sgemm_256, "sgemm", sgemm)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, transpose_1024, "transpose", transpose)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, histogram_4M, "histogram", histogram)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, scan_1M, "scan", scan)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, bitonic_256K, "bitonic", bitonic)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, nbody_2048, "nbody", nbody)->Apply(configure);
BENCHMARK_CAPTURE(kernelThroughput, h2_axpy_1M, "half2", halfAxpy)->Apply(configure);

}  // namespace

BENCHMARK_MAIN();
