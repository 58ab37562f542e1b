// Which atomics ptxas makes one reduction per warp (sim/src/timing/
// warp_uniform.h): the PTX nvcc emits for `atomicAdd(sum, s)` with `sum` a
// kernel parameter (aggregated) and for the same add through an address
// loaded per thread (not), with hand-checked uniformity of each register.
#include <gtest/gtest.h>

#include "../../../sim/src/timing/warp_uniform.h"
#include "ptxsim/isa/lower.h"

namespace ptxsim::sim::timing {
namespace {

std::shared_ptr<const isa::Module> compile(const std::string& body) {
  isa::CompileResult result = isa::compilePtx(".version 9.0\n.target sm_90\n.address_size 64\n" + body);
  for (const isa::Diagnostic& d : result.errors) ADD_FAILURE() << d.where.line << ": " << d.message;
  return result.module;
}

// The instructions of `fn` with opcode `op`, in order.
std::vector<const isa::Instruction*> all(const isa::Function& fn, isa::Opcode op) {
  std::vector<const isa::Instruction*> found;
  for (const isa::Instruction& inst : fn.instructions)
    if (inst.opcode == op) found.push_back(&inst);
  return found;
}

constexpr const char* kKernel = R"(
.visible .entry k(.param .u64 sum, .param .u64 zeros)
{
  .reg .u32 %r<6>;
  .reg .u64 %rd<8>;
  ld.param.u64 %rd1, [sum];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd3, %r1;
  atom.global.add.u32 %r5, [%rd2], %r1;
  atom.global.add.u64 %rd4, [%rd2], %rd3;
  ld.param.u64 %rd5, [zeros];
  ld.global.u32 %r2, [%rd5];
  mul.wide.u32 %rd6, %r2, 4;
  add.u64 %rd7, %rd2, %rd6;
  atom.global.add.u32 %r3, [%rd7], 1;
  atom.global.add.u32 %r4, [%rd2], 1;
  add.u32 %r0, %r4, 1;
  atom.global.exch.b32 %r0, [%rd2], 1;
  ret;
}
)";

TEST(WarpUniformity, ParametersAndWhatIsComputedFromThemAreUniformLaneIdsAndLoadsAreNot) {
  auto m = compile(kKernel);
  ASSERT_TRUE(m);
  const isa::Function& k = m->functions.at(0);
  WarpUniformity u(k);
  auto reg = [&](const char* name, uint32_t n) {
    for (uint32_t r = 0; r < k.registers.size(); ++r)
      if (k.registerName(r) == std::string(name) + std::to_string(n)) return r;
    ADD_FAILURE() << "no register " << name << n;
    return uint32_t{0};
  };
  EXPECT_TRUE(u.uniform(reg("%rd", 1)));
  EXPECT_TRUE(u.uniform(reg("%rd", 2)));
  EXPECT_FALSE(u.uniform(reg("%r", 1)));   // %tid.x
  EXPECT_FALSE(u.uniform(reg("%rd", 3)));  // from %tid.x
  EXPECT_FALSE(u.uniform(reg("%r", 2)));   // loaded from global memory
  EXPECT_FALSE(u.uniform(reg("%rd", 7)));  // an address from a loaded offset
}

TEST(WarpUniformity, OnlyUnusedIntegerAddsToAUniformAddressAreAggregated) {
  auto m = compile(kKernel);
  ASSERT_TRUE(m);
  const isa::Function& k = m->functions.at(0);
  WarpUniformity u(k);
  std::vector<const isa::Instruction*> atoms = all(k, isa::Opcode::Atom);
  ASSERT_EQ(atoms.size(), 5u);
  EXPECT_TRUE(u.aggregatesAtomic(*atoms[0]));   // atomicAdd(sum, tid): the values are summed per warp
  EXPECT_FALSE(u.aggregatesAtomic(*atoms[1]));  // 64 bits: lane by lane
  EXPECT_FALSE(u.aggregatesAtomic(*atoms[2]));  // the address is not provably uniform
  EXPECT_FALSE(u.aggregatesAtomic(*atoms[3]));  // the old value is read
  EXPECT_FALSE(u.aggregatesAtomic(*atoms[4]));  // an exchange
}

TEST(WarpUniformity, ARegisterDefinedOnDivergentPathsIsNotUniform) {
  auto m = compile(R"(
.visible .entry k(.param .u64 sum)
{
  .reg .pred %p;
  .reg .u32 %r<3>;
  .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [sum];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p, %r1, 5;
  mov.u64 %rd2, %rd1;
  @%p bra SKIP;
  add.u64 %rd2, %rd1, 8;
SKIP:
  red.global.add.u32 [%rd2], 1;
  red.global.add.u32 [%rd1], 1;
  ret;
}
)");
  ASSERT_TRUE(m);
  const isa::Function& k = m->functions.at(0);
  WarpUniformity u(k);
  std::vector<const isa::Instruction*> reds = all(k, isa::Opcode::Red);
  ASSERT_EQ(reds.size(), 2u);
  EXPECT_FALSE(u.aggregatesAtomic(*reds[0]));  // %rd2 differs between the two sides of the branch
  EXPECT_TRUE(u.aggregatesAtomic(*reds[1]));
}

}  // namespace
}  // namespace ptxsim::sim::timing
