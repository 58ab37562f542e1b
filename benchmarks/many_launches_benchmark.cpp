// The host cost of one launch among thousands (issue 44: solvers that
// launch small kernels by the ten thousand): back-to-back launches of one
// prepared kernel, an axpy over 256 floats in 2 CTAs of 128 threads, on
// one Device. Reported as host time per launch, functional and on the
// timing model (`timing` 1), the latter also with each launch's statistics
// record written as `ptxsim run --timing --stats` writes it (`stats` 1).
// The kernel's own work is a few warp instructions: what is measured is
// everything around it. Target: at most 0.5 ms per timed launch.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "ptxsim/runtime/device.h"
#include "ptxsim/runtime/stats_file.h"

namespace {

constexpr uint32_t kElements = 256;
constexpr uint32_t kBlock = 128;

// y[i] = a * x[i] + y[i] for i < n.
constexpr const char* kAxpyPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry axpy(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
{
  .reg .pred %out;
  .reg .b32 %i, %n, %nt, %ct, %td;
  .reg .f32 %a, %xv, %yv;
  .reg .b64 %xp, %yp, %off;
  ld.param.u64 %xp, [x];
  ld.param.u64 %yp, [y];
  ld.param.f32 %a, [a];
  ld.param.u32 %n, [n];
  mov.u32 %nt, %ntid.x;
  mov.u32 %ct, %ctaid.x;
  mov.u32 %td, %tid.x;
  mad.lo.s32 %i, %ct, %nt, %td;
  setp.ge.u32 %out, %i, %n;
  @%out bra DONE;
  cvta.to.global.u64 %xp, %xp;
  cvta.to.global.u64 %yp, %yp;
  mul.wide.u32 %off, %i, 4;
  add.s64 %xp, %xp, %off;
  add.s64 %yp, %yp, %off;
  ld.global.f32 %xv, [%xp];
  ld.global.f32 %yv, [%yp];
  fma.rn.f32 %yv, %a, %xv, %yv;
  st.global.f32 [%yp], %yv;
DONE:
  ret;
}
)";

void tinyLaunches(benchmark::State& state) {
  const bool timed = state.range(0) != 0;
  const bool withStats = state.range(1) != 0;
  ptxsim::Device device(ptxsim::sim::GpuConfig{}, ptxsim::DeviceOptions{0});
  device.launchOptions().timing = timed;
  auto module = device.loadModule(kAxpyPtx, "axpy.ptx");
  const uint64_t x = device.upload(std::vector<float>(kElements, 1.0f));
  const uint64_t y = device.upload(std::vector<float>(kElements, 0.0f));
  const ptxsim::KernelArgs args = ptxsim::KernelArgs().add(x).add(y).add(0.5f).add(kElements);
  ptxsim::runtime::StatsFile stats(withStats ? "/tmp/ptxsim_many_launches_stats.jsonl" : "");
  auto launchOnce = [&] {
    ptxsim::sim::LaunchResult result =
        device.launch(*module, "axpy", {kElements / kBlock}, {kBlock}, 0, args);
    if (withStats) stats.write(result.stats);
    return result;
  };
  if (ptxsim::sim::LaunchResult first = launchOnce(); first.error) {  // prepares the kernel
    state.SkipWithError(first.error.message.c_str());
    return;
  }
  for (auto _ : state) {
    ptxsim::sim::LaunchResult result = launchOnce();
    benchmark::DoNotOptimize(result.stats.warpInstructions);
  }
  state.SetItemsProcessed(state.iterations());
  if (withStats)
    state.counters["stats_bytes_per_launch"] =
        static_cast<double>(stats.bytesWritten()) / static_cast<double>(state.iterations() + 1);
}

BENCHMARK(tinyLaunches)
    ->ArgNames({"timing", "stats"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
