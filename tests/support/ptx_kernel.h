#pragma once

// Test support: run a small hand-written PTX kernel on a simulated device.
//
//   std::string ptx = test::ptxKernel(".reg .u32 %a, %b;",
//       "ld.global.u32 %a, [%in];  add.u32 %b, %a, 1;  st.global.u32 [%out], %b;");
//   test::KernelRun run = test::runKernel(ptx, {41}, 1);
//
// The kernel is `.entry k(.param .u64 in, .param .u64 out)`; its prologue
// declares and sets %in and %out (global addresses of the input and output
// buffers), %tx (%tid.x, u32) and %tx8 (u64, %tid.x * 8), and the
// declarations come before the body.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace ptxsim::test {

inline std::string ptxKernel(std::string_view declarations, std::string_view body,
                             std::string_view target = "sm_90") {
  std::string text = ".version 9.0\n.target " + std::string(target) + "\n.address_size 64\n";
  text += ".visible .entry k(.param .u64 in_param, .param .u64 out_param)\n{\n";
  text += ".reg .u64 %in, %out, %tx8;\n.reg .u32 %tx;\n";
  text += std::string(declarations) + "\n";
  text += "ld.param.u64 %in, [in_param];\nld.param.u64 %out, [out_param];\n";
  text += "mov.u32 %tx, %tid.x;\nmul.wide.u32 %tx8, %tx, 8;\n";
  text += std::string(body) + "\nret;\n}\n";
  return text;
}

// The message loading `ptx` fails with, or "" if the module loads. Eager
// loading: an instruction the simulator lacks fails the load.
inline std::string moduleLoadError(const std::string& ptx, std::string_view name = "test.ptx") {
  try {
    Device device(sim::GpuConfig{},
                  DeviceOptions{.hostThreads = 1, .moduleLoading = sim::ModuleLoading::Eager});
    device.loadModule(ptx, name);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The same for a kernel ptxKernel makes from `declarations` and `body`.
inline std::string loadError(std::string_view declarations, std::string_view body,
                             std::string_view target = "sm_90") {
  return moduleLoadError(ptxKernel(declarations, body, target));
}

struct KernelRun {
  std::vector<uint64_t> out;
  sim::LaunchResult result;
};

// Runs k with one block of `threads` threads; `in` holds the input words,
// the output buffer has `outWords` words, zeroed. Load errors throw
// ptxsim::Error (with the message), launch errors are in result.error.
inline KernelRun runKernel(const std::string& ptx, const std::vector<uint64_t>& in, size_t outWords,
                           unsigned threads = 32, sim::SimtMode simt = sim::SimtMode::Default,
                           sim::ItsSchedule schedule = sim::ItsSchedule::Converge) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  device.launchOptions().simt = simt;
  device.launchOptions().itsSchedule = schedule;
  auto module = device.loadModule(ptx, "test.ptx");
  uint64_t inAddress = device.malloc(std::max<size_t>(in.size(), 1) * 8);
  if (!in.empty()) device.write(inAddress, in);
  uint64_t outAddress = device.malloc(std::max<size_t>(outWords, 1) * 8);
  device.memset(outAddress, 0, std::max<size_t>(outWords, 1) * 8);
  KernelRun run;
  run.result = device.launch(*module, "k", {1}, {threads}, 0, KernelArgs().add(inAddress).add(outAddress));
  run.out = device.read<uint64_t>(outAddress, outWords);
  return run;
}

}  // namespace ptxsim::test
