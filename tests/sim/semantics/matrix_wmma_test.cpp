// wmma forms the simulator refuses when the module loads, with the reason,
// and the faults a launch reports. The results and layouts of every form
// are held against the H100 by tests/cuda/programs/wmma_forms.
#include <gtest/gtest.h>

#include <string>

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

constexpr const char* kDeclarations =
    ".reg .b32 %r<16>;\n.reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n.reg .b64 %rd<4>;";

std::string load(const std::string& instruction) { return test::loadError(kDeclarations, instruction); }

TEST(WmmaForms, RefusedFormsNameTheReason) {
  EXPECT_EQ(load("wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r0}, [%in];"), "");
  EXPECT_EQ(load("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd0, %fd1}, {%fd2}, {%fd3}, "
                 "{%fd0, %fd1};"),
            "");
  struct Case {
    const char* instruction;
    const char* reason;
  };
  const Case cases[] = {
      {"wmma.load.a.sync.aligned.col.m8n8k32.s4 {%r0}, [%in];", "A is .row and B .col only"},
      {"wmma.load.a.sync.aligned.row.m16n16k8.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%in];",
       "this wmma shape, matrix and type combination"},
      {"wmma.load.a.sync.aligned.row.m16n16k16.bf16 {%r0, %r1}, [%in];", "the wrong number of registers"},
      {"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd0, %fd1};",
       "a rounding other than .rn"},
      {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, "
       "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
       "{%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};",
       ".satfinite other than with s8/u8/s4/u4 inputs"},
      {"wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1};",
       ".b1 needs .xor.popc or .and.popc"},
      {"wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1};",
       "layouts other than .row.col"},
  };
  for (const Case& c : cases) {
    std::string error = load(c.instruction);
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos) << c.instruction << ": " << error;
    EXPECT_NE(error.find(c.reason), std::string::npos) << c.instruction << ": " << error;
  }
}

// A load whose rows do not start 16-byte aligned faults, as the H100's does.
TEST(WmmaForms, MisalignedRowsFault) {
  const std::string body =
      "add.u64 %rd0, %in, 8;\n"
      "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd0];";
  std::vector<uint64_t> in(64, 0);
  test::KernelRun run = test::runKernel(test::ptxKernel(kDeclarations, body), in, 1);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::MisalignedAddress) << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("16-byte aligned"), std::string::npos) << run.result.error.message;
}

TEST(WmmaForms, NeedsTheWholeWarp) {
  const std::string body =
      "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%in];";
  std::vector<uint64_t> in(128, 0);
  test::KernelRun run = test::runKernel(test::ptxKernel(kDeclarations, body), in, 1, 16);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalInstruction) << run.result.error.message;
  EXPECT_NE(run.result.error.message.find("wmma.load.sync.aligned needs all 32 threads"), std::string::npos)
      << run.result.error.message;
}

}  // namespace
}  // namespace ptxsim
