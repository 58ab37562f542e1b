// nvcc arch: sm_90a
// nvcc flags: -lcuda
// The tensor cores as wgmma.mma_async uses them: per form (type, N, A
// from shared memory or registers, sparse), one warpgroup's
//  - latency: clock64 from before one wgmma to after its commit_group and
//    wait_group 0, less the same with no wgmma (`wgmma.<form>.latency`);
//  - interval: a chain of R wgmmas accumulating into the same registers,
//    (T(2R) - T(R)) / R cycles per wgmma (`wgmma.<form>.interval`), with one
//    warpgroup in the CTA and with two (`.interval_2wg`: both chains at
//    once, cycles per wgmma of one warpgroup).
// The kernels are PTX text loaded with cuModuleLoadData (one module per
// form and chain length: a chain is unrolled, with no loop), the operands
// zero-filled shared memory read through no-swizzle descriptors; each
// warp's lane 0 records its span, and a CTA's span is its slowest warp's,
// the median of 5 launches.
#include <cuda.h>

#include <string>
#include <vector>

#include "calib_common.h"

namespace {

#define CU_CALL(call)                                                              \
  do {                                                                             \
    CUresult r_ = (call);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                      \
      const char* name_ = nullptr;                                                 \
      cuGetErrorName(r_, &name_);                                                  \
      std::printf("FAILED %s:%d %s: %s\n", __FILE__, __LINE__, #call, name_);      \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

struct Form {
  std::string name;
  const char* d;  // PTX types
  const char* a;
  unsigned n, k;
  bool aFromRegisters = false;
  bool sparse = false;
};

unsigned dRegisters(const Form& f) { return std::string(f.d) == "f16" ? f.n / 4 : f.n / 2; }

// The wgmma's operands after d, a and b: scale-d, then as the type takes them.
std::string trailing(const Form& f) {
  std::string a(f.a);
  std::string s = f.sparse ? "%meta, 0, %p" : "%p";
  if (a == "f16" || a == "bf16") return s + (f.aFromRegisters ? ", 1, 1, 0" : ", 1, 1, 0, 0");
  if (a == "tf32" || a == "e4m3" || a == "e5m2") return s + ", 1, 1";
  return s;
}

std::string kernelPtx(const Form& f, unsigned chain) {
  const unsigned regs = dRegisters(f);
  const bool floatD = std::string(f.d) == "f32";  // f16 pairs are held in .b32 registers
  std::string p = ".version 8.4\n.target sm_90a\n.address_size 64\n.extern .shared .align 1024 .b8 smem[];\n";
  p += ".visible .entry probe(.param .u64 out)\n{\n";
  p += floatD ? ".reg .f32 %d<130>;\n" : ".reg .b32 %d<130>;\n";
  p += ".reg .b32 %a<4>, %thread, %lane, %base, %i, %meta, %step;\n.reg .b64 %da, %db, %t0, %t1, %span, %rd<4>;\n"
       ".reg .pred %p, %first;\n";
  p += "mov.u32 %thread, %tid.x;\nand.b32 %lane, %thread, 31;\nsetp.eq.u32 %first, %lane, 0;\nsetp.eq.u32 %p, 1, 1;\n";
  p += "mov.u32 %meta, 0x44444444;\n";
  for (unsigned r = 0; r < regs; ++r)
    p += std::string(floatD ? "mov.f32 %d" : "mov.b32 %d") + std::to_string(r) + (floatD ? ", 0f00000000;\n" : ", 0;\n");
  for (unsigned r = 0; r < 4; ++r) p += "mov.b32 %a" + std::to_string(r) + ", 0;\n";
  // Zero 32 KiB of shared memory, then the descriptors: no swizzle, core
  // matrices 128 bytes apart along K and 256 along M or N.
  p += "mov.u32 %base, smem;\nmov.u32 %i, %thread;\nmov.u32 %step, %ntid.x;\nZERO:\nshl.b32 %meta, %i, 2;\n"
       "add.u32 %meta, %meta, %base;\nst.shared.u32 [%meta], 0;\nadd.u32 %i, %i, %step;\n"
       "setp.lt.u32 %first, %i, 8192;\n@%first bra ZERO;\n";
  p += "mov.u32 %meta, 0x44444444;\nsetp.eq.u32 %first, %lane, 0;\nbar.sync 0;\n";
  p += "shr.u32 %i, %base, 4;\ncvt.u64.u32 %da, %i;\nor.b64 %da, %da, 0x0000001000080000;\n";
  p += "add.u64 %db, %da, 512;\n";  // B 8 KiB further
  p += "fence.proxy.async.shared::cta;\nbar.sync 0;\nwgmma.fence.sync.aligned;\nmov.u64 %t0, %clock64;\n";
  std::string dList = "{";
  for (unsigned r = 0; r < regs; ++r) dList += (r ? ",%d" : "%d") + std::to_string(r);
  dList += "}";
  std::string shape = "m64n" + std::to_string(f.n) + "k" + std::to_string(f.k);
  std::string types = std::string(".") + f.d + "." + f.a + "." + f.a + (std::string(f.a) == "b1" ? ".and.popc" : "");
  for (unsigned c = 0; c < chain; ++c) {
    p += std::string("wgmma.mma_async") + (f.sparse ? ".sp" : "") + ".sync.aligned." + shape + types + " " + dList +
         ", " + (f.aFromRegisters ? "{%a0,%a1,%a2,%a3}" : "%da") + ", %db, " + trailing(f) + ";\n";
  }
  p += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nmov.u64 %t1, %clock64;\n";
  p += "sub.s64 %span, %t1, %t0;\nld.param.u64 %rd1, [out];\nshr.u32 %i, %thread, 5;\nmul.wide.u32 %rd2, %i, 16;\n"
       "add.u64 %rd1, %rd1, %rd2;\n@%first st.global.u64 [%rd1], %span;\n";
  p += std::string("@%first st.global.") + (floatD ? "f32" : "b32") + " [%rd1+8], %d0;\n";
  p += "ret;\n}\n";
  return p;
}

// The CTA's span (its slowest warp's), median of 5 launches.
double span(const Form& f, unsigned chain, unsigned warpgroups, CUdeviceptr out) {
  std::string text = kernelPtx(f, chain);
  CUmodule module;
  CUfunction fn;
  CU_CALL(cuModuleLoadData(&module, text.c_str()));
  CU_CALL(cuModuleGetFunction(&fn, module, "probe"));
  const unsigned sharedBytes = 32 * 1024;
  CU_CALL(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sharedBytes));
  std::vector<double> spans;
  const unsigned warps = 4 * warpgroups;
  for (int launch = 0; launch < 5; ++launch) {
    void* args[] = {&out};
    CU_CALL(cuLaunchKernel(fn, 1, 1, 1, 128 * warpgroups, 1, 1, sharedBytes, nullptr, args, nullptr));
    CU_CALL(cuCtxSynchronize());
    std::vector<long long> words(2 * warps);
    CU_CALL(cuMemcpyDtoH(words.data(), out, words.size() * 8));
    long long slowest = 0;
    for (unsigned w = 0; w < warps; ++w) slowest = std::max(slowest, words[2 * w]);
    spans.push_back(static_cast<double>(slowest));
  }
  CU_CALL(cuModuleUnload(module));
  return median(spans);
}

}  // namespace

int main() {
  CUDA_CHECK(cudaFree(nullptr));  // the runtime's context, current for the driver calls
  reportClock();
  CUdeviceptr out;
  CU_CALL(cuMemAlloc(&out, 16 * 8));
  const unsigned chain = quickMode() ? 4 : 16;
  std::vector<Form> forms;
  for (unsigned n : {8u, 16u, 32u, 64u, 128u, 256u}) forms.push_back({"f16.f32.n" + std::to_string(n), "f32", "f16", n, 16});
  forms.push_back({"f16.f16.n128", "f16", "f16", 128, 16});
  forms.push_back({"bf16.f32.n128", "f32", "bf16", 128, 16});
  forms.push_back({"tf32.f32.n128", "f32", "tf32", 128, 8});
  forms.push_back({"e4m3.f32.n128", "f32", "e4m3", 128, 32});
  forms.push_back({"s8.s32.n128", "s32", "s8", 128, 32});
  forms.push_back({"b1.s32.n128", "s32", "b1", 128, 256});
  Form regs{"f16.f32.n128.a_registers", "f32", "f16", 128, 16};
  regs.aFromRegisters = true;
  forms.push_back(regs);
  Form sparse{"f16.f32.n128.sparse", "f32", "f16", 128, 32};
  sparse.sparse = true;
  forms.push_back(sparse);
  for (const Form& f : forms) {
    const double none = span(f, 0, 1, out);
    const double one = span(f, 1, 1, out);
    const double shortChain = span(f, chain, 1, out);
    const double longChain = span(f, 2 * chain, 1, out);
    const double twoShort = span(f, chain, 2, out);
    const double twoLong = span(f, 2 * chain, 2, out);
    report("wgmma." + f.name + ".latency", one - none, "cycles");
    report("wgmma." + f.name + ".interval", (longChain - shortChain) / chain, "cycles");
    report("wgmma." + f.name + ".interval_2wg", (twoLong - twoShort) / chain, "cycles");
    if (!(longChain > shortChain && one > none)) fail("wgmma.%s: spans not increasing", f.name.c_str());
  }
  return finish();
}
