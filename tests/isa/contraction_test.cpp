// The IR's contraction of unrounded mul and add/sub (isa/contraction.h):
// which sums become fused multiply-adds, and with which operands, on the
// cases the GPU recording does not cover (tests/sim/fma_contraction_test.cpp
// holds the measured ones).

#include <gtest/gtest.h>

#include "ptxsim/isa/lower.h"

namespace ptxsim::isa {
namespace {

// The opcodes of kernel k's instructions, in order, for a body over f32
// registers %a..%e, %t, %u, %x and a predicate %p.
std::vector<Opcode> opcodesOf(const std::string& body) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u32 n)\n{\n.reg .f32 %a, %b, %c, %d, %e, %t, %u, %x;\n"
                    ".reg .pred %p;\n.reg .u32 %n;\nld.param.u32 %n, [n];\n" +
                    body + "\nret;\n}\n";
  CompileResult result = compilePtx(ptx);
  for (const Diagnostic& d : result.errors) ADD_FAILURE() << d.where.line << ": " << d.message;
  std::vector<Opcode> opcodes;
  if (!result.module) return opcodes;
  for (const Instruction& inst : result.module->functions.at(0).instructions) opcodes.push_back(inst.opcode);
  return opcodes;
}

const Instruction& instructionAt(const Module& m, size_t i) { return m.functions.at(0).instructions.at(i); }

TEST(Contraction, APlainPairBecomesAnFmaOfTheProductsFactors) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k()\n{\n.reg .f32 %a, %b, %c, %t, %o;\n"
                    "mov.f32 %a, 0f3F800000;\nmov.f32 %b, 0f40000000;\nmov.f32 %c, 0f40400000;\n"
                    "mul.f32 %t, %a, %b;\nsub.f32 %o, %c, %t;\nret;\n}\n";
  CompileResult result = compilePtx(ptx);
  ASSERT_TRUE(result.ok());
  const Function& fn = result.module->functions.at(0);
  const Instruction& fused = instructionAt(*result.module, 4);
  ASSERT_EQ(fused.opcode, Opcode::Fma);
  EXPECT_EQ(fused.modifiers.get(ModGroup::Rounding), Mod::Rn);
  const Operand* ops = &fn.operands[fused.firstOperand];
  // c - a*b = fma(-a, b, c).
  EXPECT_EQ(fn.registerName(ops[0].index), "%o");
  EXPECT_EQ(fn.registerName(ops[1].index), "%a");
  EXPECT_TRUE(ops[1].minus);
  EXPECT_EQ(fn.registerName(ops[2].index), "%b");
  EXPECT_FALSE(ops[2].minus);
  EXPECT_EQ(fn.registerName(ops[3].index), "%c");
  EXPECT_FALSE(ops[3].minus);
  // The mul stays (nothing else reads it, and it costs nothing to keep).
  EXPECT_EQ(instructionAt(*result.module, 3).opcode, Opcode::Mul);
}

TEST(Contraction, AProductThatOverwritesItsOwnFactorIsNotFused) {
  // The fused form would read %x after the mul replaced it.
  auto ops = opcodesOf("mov.f32 %x, 0f3F800000;\nmul.f32 %x, %x, 0f40800000;\nadd.f32 %x, %x, 0f3F000000;");
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[3], Opcode::Add);
}

TEST(Contraction, AFactorRedefinedBeforeTheSumIsNotFused) {
  auto ops = opcodesOf(
      "mov.f32 %a, 0f3F800000;\nmov.f32 %b, 0f40000000;\nmul.f32 %t, %a, %b;\nmov.f32 %a, 0f40400000;\n"
      "add.f32 %u, %t, %c;");
  ASSERT_EQ(ops.size(), 7u);
  EXPECT_EQ(ops[5], Opcode::Add);
}

TEST(Contraction, AProductFromAnotherBlockIsNotFused) {
  auto ops = opcodesOf(
      "mul.f32 %t, %a, %b;\nsetp.eq.u32 %p, %n, 0;\n@%p bra SKIP;\nadd.f32 %u, %t, %c;\nSKIP:\n"
      "add.f32 %x, %a, %b;");
  ASSERT_EQ(ops.size(), 7u);
  EXPECT_EQ(ops[4], Opcode::Add);
}

TEST(Contraction, AProductAlsoReadByAnythingButASumIsNotFused) {
  auto ops = opcodesOf("mul.f32 %t, %a, %b;\nadd.f32 %u, %t, %c;\nsetp.gt.f32 %p, %t, %d;");
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[2], Opcode::Add);
}

TEST(Contraction, RoundedFormsAreNeverFused) {
  auto ops = opcodesOf("mul.rn.f32 %t, %a, %b;\nadd.f32 %u, %t, %c;\nmul.f32 %x, %a, %b;\nadd.rz.f32 %e, %x, %c;");
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(ops[2], Opcode::Add);
  EXPECT_EQ(ops[4], Opcode::Add);
}

}  // namespace
}  // namespace ptxsim::isa
