// The register rows each prepared instruction writes and reads (what a
// timing model's dependence tracking uses), against hand-derived sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../sim/src/exec/preparer.h"
#include "ptxsim/isa/lower.h"

namespace ptxsim::sim::exec {
namespace {

using Names = std::set<std::string>;

struct Dependences {
  Names writes, reads;
};

// Prepares the one-kernel module `body` makes and names each instruction's
// written and read registers (every register here takes one row, so rows
// and IR register indices agree).
std::vector<Dependences> dependencesOf(const std::string& declarations, const std::string& body) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
                    declarations + "\n" + body + "\nret;\n}\n";
  isa::CompileResult compiled = isa::compilePtx(ptx);
  EXPECT_TRUE(compiled.ok()) << (compiled.errors.empty() ? "" : compiled.errors[0].message);
  if (!compiled.ok()) return {};
  ModulePlacement placement;
  placement.globalAddresses.assign(compiled.module->globals.size(), 0x1000);
  std::vector<std::string> errors;
  auto kernel = prepareKernel(*compiled.module, 0, placement, errors);
  EXPECT_NE(kernel, nullptr) << (errors.empty() ? "" : errors[0]);
  if (kernel == nullptr) return {};
  const PreparedFunction& fn = kernel->kernel();
  // In PTX order: the prepared code is in issue order (instruction_schedule.h).
  const std::vector<isa::Instruction>& ptxOrder = fn.function->instructions;
  std::vector<Dependences> result(fn.code.size());
  for (const PreparedInstruction& pi : fn.code) {
    const isa::Instruction* source = pi.source;
    Dependences& d = result[source == fn.implicitReturn.get() ? ptxOrder.size() : static_cast<size_t>(source - ptxOrder.data())];
    for (uint32_t row : fn.writesOf(pi)) d.writes.insert(fn.function->registerName(row));
    for (uint32_t row : fn.readsOf(pi)) d.reads.insert(fn.function->registerName(row));
  }
  return result;
}

TEST(OperandDependences, ArithmeticMemoryAndPredicates) {
  auto deps = dependencesOf(".reg .u32 %a, %b, %c; .reg .u64 %x; .reg .pred %p, %q; .reg .f32 %f, %g;",
                            "ld.param.u64 %x, [p];\n"
                            "add.u32 %c, %a, %b;\n"
                            "mad.lo.u32 %c, %a, 7, %c;\n"
                            "setp.lt.u32 %p|%q, %a, %b;\n"
                            "@!%p st.global.u32 [%x+4], %c;\n"
                            "ld.global.v2.f32 {%f, %g}, [%x];\n"
                            "atom.global.add.u32 %b, [%x], %a;\n"
                            "shfl.sync.idx.b32 %a|%q, %b, 1, 31, -1;\n"
                            "mov.u32 %a, %tid.x;\n"
                            "@%q bra DONE;\n"
                            "DONE:");
  ASSERT_EQ(deps.size(), 12u);  // and the explicit and implicit rets
  EXPECT_EQ(deps[0].writes, Names({"%x"}));
  EXPECT_EQ(deps[0].reads, Names({}));  // a parameter, not a register
  EXPECT_EQ(deps[1].writes, Names({"%c"}));
  EXPECT_EQ(deps[1].reads, Names({"%a", "%b"}));
  EXPECT_EQ(deps[2].writes, Names({"%c"}));
  EXPECT_EQ(deps[2].reads, Names({"%a", "%c"}));  // the immediate is no register
  EXPECT_EQ(deps[3].writes, Names({"%p", "%q"}));
  EXPECT_EQ(deps[3].reads, Names({"%a", "%b"}));
  EXPECT_EQ(deps[4].writes, Names({}));
  EXPECT_EQ(deps[4].reads, Names({"%x", "%c", "%p"}));  // address, value, guard
  EXPECT_EQ(deps[5].writes, Names({"%f", "%g"}));
  EXPECT_EQ(deps[5].reads, Names({"%x"}));
  EXPECT_EQ(deps[6].writes, Names({"%b"}));
  EXPECT_EQ(deps[6].reads, Names({"%x", "%a"}));
  EXPECT_EQ(deps[7].writes, Names({"%a", "%q"}));
  EXPECT_EQ(deps[7].reads, Names({"%b"}));
  EXPECT_EQ(deps[8].writes, Names({"%a"}));
  EXPECT_EQ(deps[8].reads, Names({}));  // a special register
  EXPECT_EQ(deps[9].writes, Names({}));
  EXPECT_EQ(deps[9].reads, Names({"%q"}));
}

TEST(OperandDependences, TextureAndCollectiveOperands) {
  auto deps = dependencesOf(".reg .u64 %t; .reg .f32 %i, %j; .reg .f32 %v<4>; .reg .b32 %m, %n; .reg .pred %p;",
                            "tex.2d.v4.f32.f32 {%v0, %v1, %v2, %v3}, [%t, {%i, %j}];\n"
                            "vote.sync.ballot.b32 %m, %p, %n;\n"
                            "bar.sync 0;");
  ASSERT_EQ(deps.size(), 5u);
  EXPECT_EQ(deps[0].writes, Names({"%v0", "%v1", "%v2", "%v3"}));
  EXPECT_EQ(deps[0].reads, Names({"%t", "%i", "%j"}));
  EXPECT_EQ(deps[1].writes, Names({"%m"}));
  EXPECT_EQ(deps[1].reads, Names({"%p", "%n"}));
  EXPECT_EQ(deps[2].writes, Names({}));
  EXPECT_EQ(deps[2].reads, Names({}));
}

TEST(OperandDependences, WgmmaReadsTheAccumulatorItWrites) {
  // D is added to in place: it is read as well as written (so its old value
  // stays live, and the scoreboard waits for its last writer).
  auto deps = dependencesOf(".reg .f32 %d<4>; .reg .b64 %a, %b; .reg .pred %p;",
                            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %a, %b, "
                            "%p, 1, 1, 0, 0;");
  ASSERT_EQ(deps.size(), 3u);
  EXPECT_EQ(deps[0].writes, Names({"%d0", "%d1", "%d2", "%d3"}));
  EXPECT_EQ(deps[0].reads, Names({"%d0", "%d1", "%d2", "%d3", "%a", "%b", "%p"}));
}

}  // namespace
}  // namespace ptxsim::sim::exec
