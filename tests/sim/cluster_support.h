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
#include "ptxsim/sim/gpu_config.h"

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

// Kernels both the functional and the timed cluster tests run.
// Rank 1 exits at once; rank 0 computes a while, then reads rank 1's
// shared memory (a fault: the block has exited).
inline constexpr const char* kPeerWordsDeclaration = ".shared .align 4 .b32 s[4];";
inline constexpr const char* kReadExitedPeerBody =
    "mov.u32 %r, %cluster_ctarank;\n"
    "setp.ne.u32 %p, %r, 0;\n"
    "@%p bra DONE;\n"
    "mov.u32 %w, 0;\n"
    "LOOP:\n"
    "add.u32 %w, %w, 1;\n"
    "setp.lt.u32 %q, %w, 1000;\n"
    "@%q bra LOOP;\n"
    "mov.u32 %a, s;\nmapa.shared::cluster.u32 %a, %a, 1;\n"
    "ld.shared::cluster.u32 %v, [%a];\n"
    "DONE:";
// Rank 1's thread 0 arrives on rank 0's mbarrier through a
// .shared::cluster address; rank 0 waits on it, then writes out[0] = 1.
inline constexpr const char* kRemoteBarrierDeclaration = ".shared .align 8 .b64 bar;";
inline constexpr const char* kRemoteMbarrierArriveBody =
    "mov.u32 %r, %cluster_ctarank;\n"
    "setp.eq.u32 %p, %r, 0;\n"
    "mov.u32 %a, bar;\n"
    "@%p mbarrier.init.shared::cta.b64 [%a], 1;\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;\n"
    "@%p bra WAIT;\n"
    "mapa.shared::cluster.u32 %a, %a, 0;\n"
    "setp.eq.u32 %q, %tx, 0;\n"
    "@%q mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%a];\n"
    "bra DONE;\n"
    "WAIT:\n"
    "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %q, [%a], 0;\n"
    "@!%q bra WAIT;\n"
    "st.global.u32 [%out], 1;\n"
    "DONE:\n"
    "barrier.cluster.arrive;\n"
    "barrier.cluster.wait;";

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
  sim::GpuConfig config;  // the simulated GPU (its timing parameters)
};

// Runs k; `outWords` 32-bit words of output, zeroed first.
inline ClusterRun runCluster(const std::string& ptx, const ClusterLaunch& l, size_t outWords) {
  Device device(l.config, DeviceOptions{l.hostThreads});
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
