// The PTX-kernel test helper itself: inputs reach the kernel and outputs
// come back per thread.

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

TEST(PtxKernelSupport, EachThreadReadsItsInputAndWritesItsOutput) {
  std::string ptx = test::ptxKernel(".reg .u64 %a, %b, %pin, %pout;",
                                    "add.u64 %pin, %in, %tx8;\n"
                                    "add.u64 %pout, %out, %tx8;\n"
                                    "ld.global.u64 %a, [%pin];\n"
                                    "add.u64 %b, %a, 100;\n"
                                    "st.global.u64 [%pout], %b;");
  std::vector<uint64_t> in(32);
  for (unsigned i = 0; i < 32; ++i) in[i] = i * 3;
  test::KernelRun run = test::runKernel(ptx, in, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(run.out[i], i * 3 + 100);
}

}  // namespace
}  // namespace ptxsim
