#pragma once

// Launches of a test kernel `k(in, out)` on `ctas` CTAs (default 1), timed or
// functional, with the H100 preset (scheduler and other timing keys
// overridable); returns the last launch's result and the first `outWords`
// 64-bit words of `out`. A launch after the first finds the kernel's code
// in the instruction caches.
#include <string>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim::test {

struct TimedRun {
  std::vector<uint64_t> out;
  uint64_t inAddress = 0;  // the kernel's `in` buffer
  sim::LaunchResult result;
};

inline TimedRun runTimed(const std::string& ptx, size_t outWords, unsigned threads, bool timing,
                         const std::string& scheduler = "gto", unsigned hostThreads = 1, unsigned ctas = 1,
                         unsigned launches = 1) {
  sim::GpuConfig config;
  config.timing.sm.scheduler = scheduler;
  Device device(config, DeviceOptions{hostThreads});
  device.launchOptions().timing = timing;
  auto module = device.loadModule(ptx, "test.ptx");
  uint64_t in = device.malloc(8);
  uint64_t out = device.malloc(outWords * 8);
  device.memset(out, 0, outWords * 8);
  TimedRun run;
  run.inAddress = in;
  for (unsigned l = 0; l < launches; ++l) {
    run.result = device.launch(*module, "k", {ctas}, {threads}, 0, KernelArgs().add(in).add(out));
  }
  run.out = device.read<uint64_t>(out, outWords);
  return run;
}

}  // namespace ptxsim::test
