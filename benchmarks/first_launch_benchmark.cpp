// The cost of loading a module and launching each of its kernels once (the
// first launch prepares the kernel: sim/src/exec/preparer.h), on a module
// shaped like a library built with -rdc: many kernels, each calling one of
// many non-inlined device functions. Generated here, so its shape is
// explicit: kKernels kernels, kFunctions device functions of about
// kFunctionInstructions instructions each. Reported as the time of one
// load plus every first launch, functional, one host thread.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

namespace {

constexpr int kKernels = 100;
constexpr int kFunctions = 400;
constexpr int kFunctionInstructions = 40;

// f<i>(x): a chain of adds and multiplies on x; k<i> stores f<i % kFunctions>(tid).
std::string libraryModule() {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  for (int f = 0; f < kFunctions; ++f) {
    ptx += ".func (.param .b32 r) f" + std::to_string(f) + "(.param .b32 x)\n{\n.reg .b32 %v<" +
           std::to_string(kFunctionInstructions + 1) + ">;\nld.param.b32 %v0, [x];\n";
    for (int i = 1; i < kFunctionInstructions; ++i) {
      ptx += i % 2 == 0 ? "add.s32 %v" : "mul.lo.s32 %v";
      ptx += std::to_string(i);
      ptx += ", %v";
      ptx += std::to_string(i - 1);
      ptx += ", ";
      ptx += std::to_string(i + f);
      ptx += ";\n";
    }
    ptx += "st.param.b32 [r], %v" + std::to_string(kFunctionInstructions - 1) + ";\nret;\n}\n";
  }
  for (int k = 0; k < kKernels; ++k) {
    ptx += ".visible .entry k" + std::to_string(k) +
           "(.param .u64 out)\n{\n.reg .b32 %t, %y;\n.reg .b64 %p;\nmov.u32 %t, %tid.x;\n"
           "{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %t;\ncall (r), f" +
           std::to_string(k % kFunctions) + ", (a);\nld.param.b32 %y, [r];\n}\nld.param.u64 %p, [out];\n"
           "cvta.to.global.u64 %p, %p;\nst.global.b32 [%p], %y;\nret;\n}\n";
  }
  return ptx;
}

void loadAndLaunchEachKernel(benchmark::State& state) {
  const std::string ptx = libraryModule();
  ptxsim::Device device(ptxsim::sim::GpuConfig{}, ptxsim::DeviceOptions{1});
  const uint64_t out = device.malloc(4);
  std::vector<std::string> names;
  for (int k = 0; k < kKernels; ++k) names.push_back(std::string("k").append(std::to_string(k)));
  for (auto _ : state) {
    auto module = device.loadModule(ptx, "library.ptx");
    for (const std::string& name : names) {
      auto result = device.launch(*module, name.c_str(), {1}, {32}, 0, ptxsim::KernelArgs().add(out));
      if (result.error) {
        state.SkipWithError(result.error.message.c_str());
        return;
      }
    }
  }
  state.counters["kernels"] = kKernels;
  state.counters["functions"] = kFunctions;
}

BENCHMARK(loadAndLaunchEachKernel)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
