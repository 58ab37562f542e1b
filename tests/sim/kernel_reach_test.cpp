// A kernel's first launch prepares what the kernel can run
// (shared_layout.h, reachOf): the functions it calls, through calls, and
// every function whose address is taken anywhere; not the module's other
// device functions nor its other kernels.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../sim/src/exec/preparer.h"
#include "ptxsim/isa/lower.h"

namespace ptxsim::sim::exec {
namespace {

// Functions 0-3: called (through another), its callee, address-taken in
// another kernel, never named; kernels 4 and 5.
const char* kModule = R"(
.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) callee(.param .b32 x)
{
  .reg .b32 %v;
  ld.param.b32 %v, [x];
  add.s32 %v, %v, 1;
  st.param.b32 [r], %v;
  ret;
}
.func (.param .b32 r) called(.param .b32 x)
{
  .reg .b32 %v;
  ld.param.b32 %v, [x];
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %v;
    call (b), callee, (a);
    ld.param.b32 %v, [b];
  }
  st.param.b32 [r], %v;
  ret;
}
.func pointed()
{
  ret;
}
.func unnamed()
{
  ret;
}
.visible .entry calls()
{
  .reg .b32 %t;
  mov.u32 %t, %tid.x;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %t;
    call (b), called, (a);
  }
  ret;
}
.visible .entry takes_an_address()
{
  .reg .b64 %f;
  mov.u64 %f, pointed;
  ret;
}
)";

std::vector<bool> prepared(uint32_t kernelIndex) {
  isa::CompileResult compiled = isa::compilePtx(kModule);
  EXPECT_TRUE(compiled.ok()) << (compiled.errors.empty() ? "" : compiled.errors[0].message);
  if (!compiled.ok()) return {};
  std::vector<std::string> errors;
  auto kernel = prepareKernel(*compiled.module, kernelIndex, ModulePlacement{}, errors);
  EXPECT_NE(kernel, nullptr) << (errors.empty() ? "" : errors[0]);
  if (kernel == nullptr) return {};
  std::vector<bool> out;
  for (const auto& fn : kernel->functions) out.push_back(fn != nullptr);
  return out;
}

TEST(KernelReach, AFirstLaunchPreparesWhatTheKernelCanRunAndNothingElse) {
  // callee, called, pointed (address taken), unnamed, calls, takes_an_address.
  EXPECT_EQ(prepared(4), std::vector<bool>({true, true, true, false, true, false}));
  EXPECT_EQ(prepared(5), std::vector<bool>({false, false, true, false, false, true}));
}

}  // namespace
}  // namespace ptxsim::sim::exec
