// How fast the functional model executes tensor-core instructions: each
// benchmark runs a kernel whose threads repeat one form (mma.sync with
// f16, bf16, tf32, fp8 and s8 inputs; wgmma with A from registers and from
// shared memory) in a loop, and reports simulated multiply-adds per second
// of host wall time on one host thread (`mac/s`), and the host time per
// warp instruction. The target: 1 G multiply-adds per second per
// host thread with exact numerics.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "ptxsim/runtime/device.h"

namespace {

using ptxsim::Device;
using ptxsim::DeviceOptions;
using ptxsim::KernelArgs;
using ptxsim::sim::LaunchResult;

constexpr unsigned kIterations = 64;  // instructions per thread per launch
// The loop body repeats the form this many times, so that the loop's own
// add, setp and branch (about a tenth of an mma.sync's host time when the
// body held one) weigh little in the form's figure.
constexpr unsigned kUnroll = 4;
constexpr unsigned kBlocks = 8;

struct Form {
  const char* name;
  std::string declarations;  // registers of A, B, C/D
  std::string setup;         // their initial values
  std::string instruction;   // the repeated one
  uint64_t multiplyAdds;     // per warp instruction (mma.sync) or per warpgroup (wgmma)
  bool warpgroup;
};

std::string kernelText(const Form& f) {
  std::string p = ".version 8.4\n.target sm_90a\n.address_size 64\n";
  p += ".shared .align 1024 .b8 tile[32768];\n";
  p += ".visible .entry bench(.param .u32 n, .param .u64 out)\n{\n";
  p += ".reg .b32 %i, %n, %t, %x;\n.reg .b64 %rd<4>, %desc;\n.reg .pred %p, %q;\n" + f.declarations;
  p += "mov.u32 %t, %tid.x;\nld.param.u32 %n, [n];\n" + f.setup;
  p += "mov.u32 %i, 0;\nsetp.ne.u32 %q, %t, 4096;\nLOOP:\n";
  for (unsigned u = 0; u < kUnroll; ++u) p += f.instruction;
  p += "add.u32 %i, %i, 1;\nsetp.lt.u32 %p, %i, %n;\n@%p bra LOOP;\nret;\n}\n";
  return p;
}

// Registers %<name>0..count-1 of `type`, set to `value` (a PTX literal).
std::string registers(const std::string& name, unsigned count, const std::string& type) {
  return ".reg ." + type + " %" + name + "<" + std::to_string(count) + ">;\n";
}
std::string fill(const std::string& name, unsigned count, const std::string& type, const std::string& value) {
  std::string s;
  for (unsigned i = 0; i < count; ++i) s += "mov." + type + " %" + name + std::to_string(i) + ", " + value + ";\n";
  return s;
}
std::string list(const std::string& name, unsigned count) {
  std::string s = "{";
  for (unsigned i = 0; i < count; ++i) s += (i ? ", %" : "%") + name + std::to_string(i);
  return s + "}";
}

Form mmaForm(const char* name, const std::string& shapeTypes, unsigned aRegs, unsigned bRegs, unsigned dRegs,
             bool floatD, uint64_t macs) {
  std::string dType = floatD ? "f32" : "b32";
  Form f;
  f.name = name;
  f.declarations = registers("a", aRegs, "b32") + registers("b", bRegs, "b32") + registers("d", dRegs, dType);
  f.setup = fill("a", aRegs, "b32", "0x3c003800") + fill("b", bRegs, "b32", "0x38003c00") +
            fill("d", dRegs, dType, floatD ? "0f3f800000" : "1");
  f.instruction = "mma.sync.aligned." + shapeTypes + " " + list("d", dRegs) + ", " + list("a", aRegs) + ", " +
                  list("b", bRegs) + ", " + list("d", dRegs) + ";\n";
  f.multiplyAdds = macs;
  f.warpgroup = false;
  return f;
}

// wgmma m64nNk16 f16 -> f32, B (and A unless `aInRegisters`) from shared
// memory without swizzling.
Form wgmmaForm(const char* name, unsigned n, bool aInRegisters, const std::string& types, unsigned k) {
  Form f;
  f.name = name;
  unsigned dRegs = n / 2;
  f.declarations = registers("a", 4, "b32") + registers("d", dRegs, "f32");
  f.setup = fill("a", 4, "b32", "0x3c003800") + fill("d", dRegs, "f32", "0f3f800000") +
            "mov.u32 %x, tile;\nshr.u32 %x, %x, 4;\ncvt.u64.u32 %desc, %x;\n"
            "or.b64 %desc, %desc, 0x0000001000080000;\n";  // LBO 128, SBO 256
  std::string aOperand = aInRegisters ? list("a", 4) : "%desc";
  std::string flags = types.find("f16") != std::string::npos || types.find("bf16") != std::string::npos
                          ? (aInRegisters ? ", 1, 1, 0" : ", 1, 1, 0, 0")
                          : ", 1, 1";
  f.instruction = "wgmma.fence.sync.aligned;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" +
                  std::to_string(k) + "." + types + " " + list("d", dRegs) + ", " + aOperand + ", %desc, %q" +
                  flags + ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
  f.multiplyAdds = uint64_t{64} * n * k;
  f.warpgroup = true;
  return f;
}

void tensorCore(benchmark::State& state, const Form& form) {
  Device device(ptxsim::sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(kernelText(form), form.name);
  uint64_t out = device.malloc(4096);
  unsigned threads = 128;
  auto launch = [&] {
    return device.launch(*module, "bench", {kBlocks}, {threads}, 0, KernelArgs().add(kIterations / kUnroll).add(out));
  };
  LaunchResult first = launch();
  if (first.error) {
    state.SkipWithError(first.error.message.c_str());
    return;
  }
  uint64_t instructions = 0;
  for (auto _ : state) {
    LaunchResult r = launch();
    if (r.error) {
      state.SkipWithError(r.error.message.c_str());
      return;
    }
    instructions += uint64_t{kBlocks} * (form.warpgroup ? 1 : threads / 32) * kIterations;
  }
  using benchmark::Counter;
  state.counters["mac/s"] = Counter(static_cast<double>(instructions * form.multiplyAdds), Counter::kIsRate);
  state.counters["inst/s"] = Counter(static_cast<double>(instructions), Counter::kIsRate);
}

const Form kForms[] = {
    mmaForm("mma_m16n8k16_f32_f16", "m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, true, 16 * 8 * 16),
    mmaForm("mma_m16n8k16_f32_bf16", "m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 4, true, 16 * 8 * 16),
    mmaForm("mma_m16n8k8_f32_tf32", "m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, true, 16 * 8 * 8),
    mmaForm("mma_m16n8k32_f32_e4m3", "m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 2, 4, true, 16 * 8 * 32),
    mmaForm("mma_m16n8k32_s32_s8", "m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 4, false, 16 * 8 * 32),
    wgmmaForm("wgmma_m64n128k16_f32_f16_regs", 128, true, "f32.f16.f16", 16),
    wgmmaForm("wgmma_m64n128k16_f32_f16_smem", 128, false, "f32.f16.f16", 16),
    wgmmaForm("wgmma_m64n256k16_f32_bf16_smem", 256, false, "f32.bf16.bf16", 16),
    wgmmaForm("wgmma_m64n128k32_f32_e4m3_smem", 128, false, "f32.e4m3.e4m3", 32),
};

}  // namespace

int main(int argc, char** argv) {
  for (const Form& f : kForms) {
    benchmark::RegisterBenchmark(f.name, [&f](benchmark::State& s) { tensorCore(s, f); })
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
