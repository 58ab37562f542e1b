// ptxas's refusals that depend on how operands are written, and on words
// the conformance suite's kernels cannot carry: each instruction below was
// given to ptxas 13.0 for sm_90 in this kernel, and the expected message is
// its first one ("" where it builds the kernel). The suite's recorded
// wait_group forms (h100/ptxas_rejected.txt) are not enumerated any more,
// so these cases are what tests wait_group_rules.cpp.

#include <gtest/gtest.h>

#include <string>

#include "ptxsim/isa/lower.h"

namespace ptxsim::isa {
namespace {

std::string firstError(const std::string& instruction) {
  const std::string kernel =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
      "  .reg .b32 %r<4>;\n  .reg .b16 %h<3>;\n  .reg .b64 %rd<3>;\n  .reg .f32 %f<3>;\n"
      "  .reg .f64 %fd<3>;\n  .reg .f16x2 %x<3>;\n  .reg .pred %p<3>;\n"
      "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 1;\n  mov.u32 %r2, 2;\n  mov.u32 %r3, 3;\n  " +
      instruction + "\n  ret;\n}\n";
  CompileResult result = compilePtx(kernel);
  return result.ok() || result.errors.empty() ? "" : result.errors.front().message;
}

struct Case {
  const char* instruction;
  const char* ptxas;  // ptxas's first message, "" when it builds
};

void expectPtxas(const Case& c) { EXPECT_EQ(firstError(c.instruction), c.ptxas) << c.instruction; }

TEST(PtxasOperandRules, WaitGroupTakesOneIntegerConstant) {
  const char* bulk = "Arguments mismatch for instruction 'cp.async.bulk.wait_group'";
  const Case cases[] = {
      {"cp.async.bulk.wait_group 1;", ""},
      {"cp.async.bulk.wait_group 1+1;", ""},
      {"cp.async.bulk.wait_group.read 0;", ""},
      {"cp.async.bulk.wait_group.b4x16_p64 1;", ""},
      {"cp.async.wait_group 1;", ""},
      {"cp.async.bulk.wait_group %r1;", bulk},
      {"cp.async.bulk.wait_group.read %r1;", bulk},
      {"cp.async.bulk.wait_group 1.0;", bulk},
      {"cp.async.bulk.wait_group %tid.x;", bulk},
      {"cp.async.bulk.wait_group 1, 2;", bulk},
      {"cp.async.bulk.wait_group;", bulk},
      {"cp.async.wait_group %r1;", "Arguments mismatch for instruction 'cp.async.wait_group'"},
  };
  for (const Case& c : cases) expectPtxas(c);
}

// Words ptxas does not know come before the operand check, the words it
// knows but the instruction does not take after it.
TEST(PtxasOperandRules, WaitGroupWordsAroundTheOperandCheck) {
  const char* bulk = "Arguments mismatch for instruction 'cp.async.bulk.wait_group'";
  const Case cases[] = {
      {"cp.async.bulk.wait_group.red %r1;", "Unknown modifier '.red'"},
      {"cp.async.bulk.wait_group.get_first_ctaid %r1;",
       "Feature '.get_first_ctaid' requires .target sm_100 or higher"},
      {"cp.async.bulk.wait_group.cp_mask %r1;", bulk},
      {"cp.async.bulk.wait_group.po %r1;", bulk},
      {"cp.async.bulk.wait_group.cp_mask 1;", "Feature '.cp_mask' requires .target sm_100 or higher"},
      {"cp.async.bulk.wait_group.po 1;", "Illegal modifier '.po' for instruction 'cp.async.bulk.wait_group'"},
      {"cp.async.bulk.wait_group.async 1;",
       "Illegal modifier '.async' for instruction 'cp.async.bulk.wait_group'"},
      {"cp.async.bulk.wait_group.ld 1;",
       "Illegal modifier '.ld' for instruction 'cp.async.bulk.wait_group', for arch 'sm_90'"},
  };
  for (const Case& c : cases) expectPtxas(c);
}

// ptxas also takes an .f64 register as c and an .f16x2 one as d; the front
// end's own type check (operand_lowerer.cpp) still refuses those two.
TEST(PtxasOperandRules, CvtPackOperandsAre32BitIntegers) {
  const char* mismatch = "Arguments mismatch for instruction 'cvt.pack'";
  const Case cases[] = {
      {"cvt.pack.sat.s16.s32 %r3, %r1, %r2;", ""},
      {"cvt.pack.sat.s16.s32 %rd1, %r1, %rd2;", ""},
      {"cvt.pack.sat.s16.s32 %r3, %r1, 5;", ""},
      {"cvt.pack.sat.u8.s32.b32 %r3, %r1, %r2, %f1;", ""},
      {"cvt.pack.sat.s16.s32 %h1, %r1, %r2;", mismatch},
      {"cvt.pack.sat.s16.s32 %f1, %r1, %r2;", mismatch},
      {"cvt.pack.sat.s16.s32 %r3, %h1, %r2;", mismatch},
      {"cvt.pack.sat.s16.s32 %r3, %fd1, %r2;", mismatch},
      {"cvt.pack.sat.s16.s32 %r3, %r1, %p1;", mismatch},
      {"cvt.pack.sat.s16.s32 %r3, %r1, 1.0;", mismatch},
      {"cvt.pack.sat.u8.s32.b32 %r3, %r1, %r2;", mismatch},
      {"cvt.pack.sat.u8.s32.b32 %r3, %r1, %r2, %h1;", mismatch},
      {"cvt.pack.satfinite.s16.s32 %h1, %r1, %r2;",
       "Illegal modifier '.satfinite' for instruction 'cvt.pack'"},
  };
  for (const Case& c : cases) expectPtxas(c);
}

TEST(PtxasOperandRules, MemoryTypesAndShfDirection) {
  const Case cases[] = {
      {"ld.global.f16 %h1, [%rd1];", "Unexpected instruction types specified for 'ld'"},
      {"st.global.pred [%rd1], %p1;", "Unexpected instruction types specified for 'st'"},
      {"ldu.global.b1 %r1, [%rd1];", "Unexpected instruction types specified for 'ldu'"},
      {"shf.l.clamp.b32 %r1, %r2, %r3, %r1;", ""},
      {"shf.down.clamp.b32 %r1, %r2, %r3, %r1;", "Not a name of any known instruction: 'shf'"},
  };
  for (const Case& c : cases) expectPtxas(c);
}

}  // namespace
}  // namespace ptxsim::isa
