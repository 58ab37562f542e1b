#pragma once

// Test support for thread block clusters: a PTX kernel `k(.param .u64 out)`
// with optional cluster directives, launched with a cluster shape.
// The prologue declares %out (the output buffer), %tx (%tid.x), %lin (the
// CTA's linear index, ctaid.x fastest) and scratch registers.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim::test {

inline std::string clusterKernel(std::string_view declarations, std::string_view body,
                                 std::string_view directives = "") {
  std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n";
  text += ".visible .entry k(.param .u64 out_param)\n" + std::string(directives) + "\n{\n";
  text += ".reg .u64 %out, %o, %g, %gr;\n.reg .u32 %tx, %lin, %nx, %ny, %cx, %cy, %cz, %a, %r, %v, %w;\n";
  text += ".reg .pred %p, %q;\n";
  text += std::string(declarations) + "\n";
  text += "ld.param.u64 %out, [out_param];\nmov.u32 %tx, %tid.x;\n";
  text += "mov.u32 %nx, %nctaid.x;\nmov.u32 %ny, %nctaid.y;\nmov.u32 %cx, %ctaid.x;\n";
  text += "mov.u32 %cy, %ctaid.y;\nmov.u32 %cz, %ctaid.z;\n";
  text += "mad.lo.u32 %lin, %cz, %ny, %cy;\nmad.lo.u32 %lin, %lin, %nx, %cx;\n";
  text += std::string(body) + "\nret;\n}\n";
  return text;
}

struct ClusterRun {
  std::vector<uint32_t> out;
  sim::LaunchResult result;
};

struct ClusterLaunch {
  sim::Dim3 grid;
  sim::Dim3 block{32, 1, 1};
  sim::Dim3 cluster{0, 0, 0};  // zeros: no cluster attribute
  bool nonPortable = false;
  bool cooperative = false;
  unsigned hostThreads = 1;
  bool timing = false;
};

// Runs k; `outWords` 32-bit words of output, zeroed first.
inline ClusterRun runCluster(const std::string& ptx, const ClusterLaunch& l, size_t outWords) {
  Device device(sim::GpuConfig{}, DeviceOptions{l.hostThreads});
  device.launchOptions().maxWarpInstructions = uint64_t{1} << 26;
  device.launchOptions().timing = l.timing;
  auto module = device.loadModule(ptx, "cluster_test.ptx");
  uint64_t out = device.malloc(outWords * 4);
  device.memset(out, 0, outWords * 4);
  ClusterRun run;
  run.result = device.launch(*module, "k", l.grid, l.block, 0, KernelArgs().add(out), l.cooperative,
                             l.cluster, l.nonPortable);
  run.out = device.read<uint32_t>(out, outWords);
  return run;
}

}  // namespace ptxsim::test
